//! `cargo xtask codegen` also writes the sandbox's control read model,
//! `crates/crossborder-sandbox/src/control/state.rs`, from the schemas of
//! `openapi/sandbox-control.yaml`: `State` (`GET /_sandbox/state`) and every
//! schema it reaches become one Rust struct each, so the document that
//! describes the control API and the JSON the sandbox writes cannot differ.
//!
//! The rules, one per wire form:
//! - a schema `X` is the struct `XView`, or its `x-rust-name`;
//! - every property is written, always: the document must list each in
//!   `required`; `nullable: true` makes it an `Option` (written `null`);
//! - `DecimalString` is an exact `Decimal`, written by its `Display`; so is
//!   any string property with an `x-rust-type` (the settlement, a signed
//!   decimal); an integer names its Rust type in `x-rust-type`;
//! - `Time` and other strings are `String`, a free-form object is a JSON
//!   value, an array a `Vec` of its items, a `$ref` to an object its view;
//! - the documentation is the schema's and each property's `description`
//!   (a `$ref` with a description is written `allOf: [$ref]`, as OpenAPI
//!   3.0 allows no sibling beside `$ref`).

use std::collections::BTreeSet;

use anyhow::{bail, Context, Result};
use heck::{ToLowerCamelCase, ToSnakeCase};
use openapiv3::{OpenAPI, Schema};
use proc_macro2::Ident;
use quote::quote;

use crate::rust_file::render;
use crate::spec_model::{
    self, extension_text, is_object, items, prop_type, properties, required, schema, schema_names,
    Prop,
};
use crate::CONTROL_SPEC_PATH;

/// The generated read model, relative to the workspace root.
pub const STATE_PATH: &str = "crates/crossborder-sandbox/src/control/state.rs";

/// The schema the read model starts from.
const ROOT: &str = "State";

/// One struct field.
struct Field {
    ident: String,
    wire: String,
    doc: String,
    ty: String,
    /// Written by its `Display` (a typed value sent as a string).
    display: bool,
}

/// Generates the read model's file text from the control document.
pub fn generate(spec: &OpenAPI) -> Result<String> {
    let reached = reachable(spec)?;

    // The state first, then its parts in the document's order.
    let mut order = vec![ROOT];
    for name in schema_names(spec) {
        if name != ROOT && reached.contains(name) {
            order.push(name);
        }
    }
    let mut structs = Vec::new();
    for name in order {
        let schema = schema(spec, name)?;
        let fields = fields(spec, name, schema)?;
        let copy = fields.iter().all(|f| is_copy(&f.ty)).then(|| quote!(Copy,));
        let doc = format!(" {}", description(schema, name)?);
        let ident: Ident = parse(&struct_name(spec, name)?)?;
        let mut members = Vec::new();
        for field in fields {
            if field.ident.to_lower_camel_case() != field.wire {
                bail!("`{name}.{}`: not the camel case of a Rust name", field.wire);
            }
            let with = field
                .display
                .then(|| quote!(#[serde(serialize_with = "display")]));
            let doc = format!(" {}", field.doc);
            let member: Ident = parse(&field.ident)?;
            let ty: syn::Type = parse(&field.ty)?;
            members.push(quote!(#[doc = #doc] #with pub #member: #ty,));
        }
        structs.push(quote! {
            #[doc = #doc]
            #[derive(Debug, Clone, #copy PartialEq, Eq, serde::Serialize)]
            #[serde(rename_all = "camelCase")]
            pub struct #ident { #(#members)* }
        });
    }
    render(
        STATE_PATH,
        CONTROL_SPEC_PATH,
        quote! {
            //! The control API's read model: what `GET /_sandbox/state` answers and
            //! [`SandboxHandle::state`](crate::SandboxHandle::state) returns, one struct
            //! per schema of `openapi/sandbox-control.yaml`. `control/view.rs` builds
            //! them from a business's account.

            /// Writes a value by its `Display`: a decimal exactly as held, the
            /// settlement as `instant`, `manual` or `30s`.
            fn display<T: std::fmt::Display, S: serde::Serializer>(value: &T, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.collect_str(value)
            }

            #(#structs)*
        },
    )
}

/// `text` parsed as Rust (a name, a type), or an error naming it.
fn parse<T: syn::parse::Parse>(text: &str) -> Result<T> {
    syn::parse_str(text).with_context(|| format!("{CONTROL_SPEC_PATH}: `{text}` is not Rust"))
}

/// The names of `ROOT` and every schema its properties reach.
fn reachable(spec: &OpenAPI) -> Result<BTreeSet<String>> {
    let mut reached = BTreeSet::new();
    let mut pending = vec![ROOT.to_owned()];
    while let Some(name) = pending.pop() {
        if !reached.insert(name.clone()) {
            continue;
        }
        let schema = schema(spec, &name)?;
        for (_, property) in properties(schema, &name)? {
            if let Some(target) = object_ref(spec, property)? {
                pending.push(target);
            }
        }
    }
    Ok(reached)
}

/// The object schema a property holds (directly, through `allOf` or as an
/// array's items), if any.
fn object_ref(spec: &OpenAPI, property: Prop<'_>) -> Result<Option<String>> {
    let target = property
        .reference()
        .or_else(|| property.inline().and_then(items).and_then(Prop::reference));
    match target {
        Some(target) if is_object(schema(spec, &target)?) => Ok(Some(target)),
        _ => Ok(None),
    }
}

fn struct_name(spec: &OpenAPI, name: &str) -> Result<String> {
    Ok(extension_text(schema(spec, name)?, "x-rust-name", name)?
        .map_or_else(|| format!("{name}View"), str::to_owned))
}

fn description(schema: &Schema, at: &str) -> Result<String> {
    spec_model::description(schema)
        .with_context(|| format!("{CONTROL_SPEC_PATH}: `{at}` has no description"))
}

/// The fields of schema `name`, in the document's order.
fn fields(spec: &OpenAPI, name: &str, schema: &Schema) -> Result<Vec<Field>> {
    let required = required(schema);
    let mut fields = Vec::new();
    for (wire, property) in properties(schema, name)? {
        let at = format!("{name}.{wire}");
        if !required.contains(&wire) {
            bail!("{CONTROL_SPEC_PATH}: `{at}` is always written, so it must be in `required` (`nullable: true` when it may be null)");
        }
        let (mut ty, display) = rust_type(spec, property, &at)?;
        if property.inline().is_some_and(|s| s.schema_data.nullable) {
            if display {
                bail!("{CONTROL_SPEC_PATH}: `{at}`: a nullable typed string is not supported");
            }
            ty = format!("Option<{ty}>");
        }
        let doc = property
            .inline()
            .and_then(spec_model::description)
            .with_context(|| format!("{CONTROL_SPEC_PATH}: `{at}` has no description"))?;
        fields.push(Field {
            ident: wire.to_snake_case(),
            wire: wire.to_owned(),
            doc,
            ty,
            display,
        });
    }
    Ok(fields)
}

/// A property's Rust type, and whether it is written by its `Display`.
fn rust_type(spec: &OpenAPI, property: Prop<'_>, at: &str) -> Result<(String, bool)> {
    let named = match property.inline() {
        Some(schema) => extension_text(schema, "x-rust-type", at)?,
        None => None,
    };
    if let Some(target) = property.reference() {
        return match target.as_str() {
            "DecimalString" => Ok(("rust_decimal::Decimal".to_owned(), true)),
            "Time" => Ok(("String".to_owned(), false)),
            _ if is_object(schema(spec, &target)?) => Ok((struct_name(spec, &target)?, false)),
            _ => bail!("{CONTROL_SPEC_PATH}: `{at}`: no Rust type for `{target}`"),
        };
    }
    match (prop_type(property), named) {
        (Some("string"), Some(ty)) => Ok((ty.to_owned(), true)),
        (Some("string"), None) => Ok(("String".to_owned(), false)),
        (Some("integer"), Some(ty)) => Ok((ty.to_owned(), false)),
        (Some("integer"), None) => bail!("{CONTROL_SPEC_PATH}: `{at}`: an integer names its Rust type in `x-rust-type` (u16, u32...)"),
        (Some("object"), None) => Ok(("serde_json::Value".to_owned(), false)),
        (Some("array"), None) => {
            let items = property
                .inline()
                .and_then(items)
                .with_context(|| format!("{CONTROL_SPEC_PATH}: `{at}`: an array without items"))?;
            let (item, display) = rust_type(spec, items, at)?;
            if display {
                bail!("{CONTROL_SPEC_PATH}: `{at}`: a list of typed strings is not supported");
            }
            Ok((format!("Vec<{item}>"), false))
        }
        (kind, _) => bail!("{CONTROL_SPEC_PATH}: `{at}`: no Rust type for {kind:?}"),
    }
}

/// Whether a field's type is `Copy` (a struct of only such fields derives
/// it).
fn is_copy(ty: &str) -> bool {
    matches!(
        ty,
        "u16" | "u32" | "rust_decimal::Decimal" | "crate::settlement::PayoutSettlement"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(text: &str) -> OpenAPI {
        spec_model::parse(text, CONTROL_SPEC_PATH).unwrap()
    }

    /// The control API's document, as committed.
    fn spec() -> String {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        std::fs::read_to_string(root.join(CONTROL_SPEC_PATH)).unwrap()
    }

    const BALANCE: &str = "      required: [currency, amount]\n      properties:\n";

    /// A property added to a schema of the document reaches its struct,
    /// declared with its description and typed by its wire form; the state
    /// comes first.
    #[test]
    fn a_new_document_property_reaches_the_read_model() {
        let spec = spec().replacen(
            BALANCE,
            "      required: [currency, amount, held, heldSince]\n      properties:\n\
             \x20       held:\n\
             \x20         description: Reserved for payouts in flight.\n\
             \x20         allOf:\n\
             \x20           - $ref: '#/components/schemas/DecimalString'\n\
             \x20       heldSince:\n\
             \x20         type: string\n\
             \x20         nullable: true\n\
             \x20         description: Since when.\n",
            1,
        );
        let code = generate(&model(&spec)).unwrap();
        let balance = "/// A wallet.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = \"camelCase\")]
pub struct BalanceView {
    /// Reserved for payouts in flight.
    #[serde(serialize_with = \"display\")]
    pub held: rust_decimal::Decimal,
    /// Since when.
    pub held_since: Option<String>,
    /// `NGN`, `USD`...
    pub currency: String,
    /// The balance.
    #[serde(serialize_with = \"display\")]
    pub amount: rust_decimal::Decimal,
}
";
        assert!(code.contains(balance), "{code}");
        // The state first, then its parts; a struct of `Copy` fields is `Copy`.
        let at = |text: &str| code.find(text).unwrap();
        assert!(at("pub struct SandboxState {") < at("pub struct BalanceView {"));
        assert!(code.contains("#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]\n#[serde(rename_all = \"camelCase\")]\npub struct SettingsView {"));
    }

    /// The document must say what the sandbox writes: a property left out
    /// of `required`, an integer without its Rust type and a property
    /// without a description are each refused, named.
    #[test]
    fn a_document_that_does_not_say_what_is_written_is_refused() {
        let cases = [
            (
                spec().replacen("      required: [currency, amount]\n", "      required: [currency]\n", 1),
                "openapi/sandbox-control.yaml: `Balance.amount` is always written, so it must be in `required` (`nullable: true` when it may be null)",
            ),
            (
                spec().replacen(
                    "          description: The status answered.\n          x-rust-type: u16\n",
                    "          description: The status answered.\n",
                    1,
                ),
                "openapi/sandbox-control.yaml: `Request.status`: an integer names its Rust type in `x-rust-type` (u16, u32...)",
            ),
            (
                spec().replacen("          description: The path, without the query.\n", "", 1),
                "openapi/sandbox-control.yaml: `Request.path` has no description",
            ),
        ];
        for (spec, message) in cases {
            assert_eq!(
                format!("{:#}", generate(&model(&spec)).unwrap_err()),
                message
            );
        }
    }
}
