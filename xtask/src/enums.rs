//! `cargo xtask codegen` also writes `crates/crossborder-core/src/enums.rs`:
//! one `wire_enum!` declaration per enumeration of the spec, so each wire
//! spelling is written once (in `openapi/crossborder.yaml`) and core's
//! modules (`currency.rs`, `rail.rs`, `status.rs`, `kyb/enums.rs`)
//! re-export the types and add their own behaviour.
//!
//! An enumeration is every component schema with an `enum` (closed) or an
//! `anyOf` of its known values `Known<Name>` and any string (open: a value
//! it does not list is kept in an `Unknown` variant; [`open_enum_known`];
//! `Known<Name>` is no type of its own). From the schema (an open one's
//! values and `x-enum-descriptions` from `Known<Name>`):
//!
//! - the type's doc is its `description`;
//! - a variant's name is its wire spelling in upper camel case
//!   (`bridge_wallet` is `BridgeWallet`, `LLC` is `Llc`);
//! - a variant's doc is its wire spelling and `x-enum-descriptions`' entry
//!   (a list parallel to the values; an empty entry adds nothing);
//! - a closed enumeration's `x-invalid-value-message` is the message of its
//!   error type `Unknown<Name>` (`{value}` the text refused, `{expected}`
//!   the spellings), which its exact, case-sensitive `FromStr` fails with.

use anyhow::{bail, Context, Result};
use heck::ToUpperCamelCase;
use openapiv3::{OpenAPI, Schema};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use crate::rust_file::{blank_lines, header};
use crate::spec_model::{
    description, enum_values, extension, open_enum_known, schema, schema_names, type_name,
};
use crate::SPEC_PATH;

/// Where the generated enumerations live, relative to the workspace root.
pub const ENUMS_PATH: &str = "crates/crossborder-core/src/enums.rs";

/// Open enumerations whose `Display` core writes by hand: a person's role
/// reads `director` in messages, not its wire spelling.
const OWN_DISPLAY: &[&str] = &["PersonRole"];

/// One value of an enumeration.
struct Variant {
    ident: String,
    wire: String,
    doc: String,
}

/// Generates the enumerations file from the spec.
pub fn generate(spec: &OpenAPI) -> Result<String> {
    let mut enums = Vec::new();
    let names = schema_names(spec);
    for &name in &names {
        let schema = schema(spec, name)?;
        if extension(schema, "x-extensible-enum").is_some() {
            bail!(
                "`{name}`: write an open enumeration as `anyOf: [{{$ref: Known{name}}}, \
                 {{type: string}}]`, which other languages' generators understand, not \
                 `x-extensible-enum`"
            );
        }
        let known = open_enum_known(spec, name, schema)?;
        if known.is_none()
            && name
                .strip_prefix("Known")
                .is_some_and(|open| names.contains(&open))
        {
            // The known values of an open enumeration, generated with it.
            continue;
        }
        let (values, open, listed) = match (enum_values(schema, name)?, known) {
            (None, None) => continue,
            (Some(values), None) => (values, false, schema),
            (None, Some(known)) => (enum_values(known, name)?.unwrap_or_default(), true, known),
            (Some(_), Some(_)) => bail!("`{name}` has both `enum` and `anyOf`"),
        };
        if type_name(schema) != Some("string") {
            bail!("`{name}`: only string enumerations are generated");
        }
        let variants = variants(name, listed, &values).with_context(|| format!("`{name}`"))?;
        let description =
            description(schema).with_context(|| format!("`{name}` has no description"))?;
        enums.push(emit(
            name,
            &description,
            &variants,
            &kind(name, schema, open)?,
        )?);
    }
    let prologue: syn::File = syn::parse2(quote! {
        //! The API's enumerations, generated from the `enum` and `x-extensible-enum`
        //! lists of `openapi/crossborder.yaml`. The modules named after each one
        //! re-export it with its own behaviour (a currency's minor unit, whether a
        //! status is terminal).

        use crate::wire_enum::wire_enum;
    })
    .context("the enumerations' prologue does not parse")?;
    Ok(format!(
        "{}{}",
        header(SPEC_PATH),
        blank_lines(&format!(
            "{}{}",
            prettyplease::unparse(&prologue),
            enums.concat()
        ))
    ))
}

/// The strings of `key` in `schema`, parallel to `len` values, if present.
fn parallel<'s>(schema: &'s Schema, key: &str, len: usize) -> Result<Option<Vec<&'s str>>> {
    let Some(list) = extension(schema, key) else {
        return Ok(None);
    };
    let list = list
        .as_array()
        .with_context(|| format!("`{key}` is not a list"))?;
    if list.len() != len {
        bail!("`{key}` has {} entries for {len} values", list.len());
    }
    let texts = list
        .iter()
        .map(|entry| {
            entry
                .as_str()
                .with_context(|| format!("`{key}` holds a non-string"))
        })
        .collect::<Result<_>>()?;
    Ok(Some(texts))
}

fn variants(name: &str, schema: &Schema, values: &[&str]) -> Result<Vec<Variant>> {
    let docs = parallel(schema, "x-enum-descriptions", values.len())?;
    let mut variants: Vec<Variant> = Vec::new();
    for (index, wire) in values.iter().enumerate() {
        let ident = wire.to_upper_camel_case();
        if variants.iter().any(|v| v.ident == ident) || ident == "Unknown" {
            bail!("the value `{wire}` of `{name}` would be the variant `{ident}`, which is taken");
        }
        let doc = match docs.as_ref().map(|docs| one_line(docs[index])) {
            Some(doc) if !doc.is_empty() => format!("`{wire}`: {doc}"),
            _ => format!("`{wire}`."),
        };
        variants.push(Variant {
            ident,
            wire: (*wire).to_owned(),
            doc,
        });
    }
    Ok(variants)
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `text` as the lines of a doc comment (each `#[doc]` a line, with its
/// leading space) indented by `indent` columns, wrapped before 80 columns.
fn doc_lines(indent: usize, text: &str) -> Vec<String> {
    let mut lines = Vec::new();
    for (index, paragraph) in text.split("\n\n").enumerate() {
        if index > 0 {
            lines.push(String::new());
        }
        let mut line = String::new();
        for word in paragraph.split_whitespace() {
            if !line.is_empty() && indent + 4 + line.len() + 1 + word.len() > 79 {
                lines.push(format!(" {line}"));
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
        lines.push(format!(" {line}"));
    }
    lines
}

/// Whether an enumeration keeps other values (open) or refuses them with
/// its message (closed).
enum Kind<'s> {
    Open,
    Closed { message: &'s str },
}

fn kind<'s>(name: &str, schema: &'s Schema, open: bool) -> Result<Kind<'s>> {
    let message = extension(schema, "x-invalid-value-message");
    match (open, message) {
        (true, None) => Ok(Kind::Open),
        (true, Some(_)) => {
            bail!("`{name}` is open and refuses no value: drop `x-invalid-value-message`")
        }
        (false, Some(message)) => Ok(Kind::Closed {
            message: message
                .as_str()
                .with_context(|| format!("`{name}`: `x-invalid-value-message` is not a string"))?,
        }),
        (false, None) => bail!("`{name}` is closed and needs `x-invalid-value-message`"),
    }
}

/// One enumeration: its `wire_enum!` declaration, and the `Display` of an
/// open one.
///
/// prettyplease prints the inside of a macro call as bare tokens (docs as
/// `#[doc = r"..."]`, everything on a few long lines), so the declaration
/// is printed as the body of a function, which is valid Rust (an enum item
/// and, for an open one, the statement `Unknown(String);`), and that
/// function's name is made the macro's.
fn emit(name: &str, description: &str, variants: &[Variant], kind: &Kind) -> Result<String> {
    let error = format!("Unknown{name}");
    let note = match kind {
        Kind::Open => {
            format!("A value this version does not know is kept, as sent, in [`{name}::Unknown`].")
        }
        Kind::Closed { .. } => format!(
            "Serialised as its wire spelling; parsing accepts exactly those spellings \
             (case-sensitive) and fails with [`{error}`]."
        ),
    };
    let doc = doc_lines(4, &format!("{}\n\n{note}", one_line(description)));
    let ident = format_ident!("{name}");
    let variant_docs: Vec<TokenStream> = variants
        .iter()
        .map(|v| {
            let lines = doc_lines(8, &v.doc);
            quote!(#(#[doc = #lines])*)
        })
        .collect();
    let variant: Vec<Ident> = variants
        .iter()
        .map(|v| format_ident!("{}", v.ident))
        .collect();
    let wire: Vec<&str> = variants.iter().map(|v| v.wire.as_str()).collect();
    let rest = match kind {
        Kind::Open => quote! {
            /// A value this version does not know, as sent.
            Unknown(String);
        },
        Kind::Closed { message } => {
            let shown = message
                .replace("{value}", "<value>")
                .replace("{expected}", "<the spellings>");
            let error_doc = doc_lines(
                4,
                &format!("A text that is not a spelling of [`{name}`]: `{shown}`."),
            );
            let format = message.replace("{value}", "{0}");
            let expected = format.contains("{expected}").then(
                || quote!(, expected = crate::wire_enum::one_of(&#ident::ALL, #ident::as_str)),
            );
            let error = format_ident!("{error}");
            quote! {
                #(#[doc = #error_doc])*
                #[error(#format #expected)]
                pub struct #error(pub String);
            }
        }
    };
    let body = quote! {
        fn wire_enum() {
            #(#[doc = #doc])*
            pub enum #ident {
                #(#variant_docs #variant = #wire,)*
            }

            #rest
        }
    };
    let file: syn::File = syn::parse2(body).with_context(|| format!("`{name}` does not parse"))?;
    let printed = prettyplease::unparse(&file);
    let inside = printed
        .strip_prefix("fn wire_enum() {\n")
        .with_context(|| format!("`{name}`: prettyplease printed its body otherwise"))?;
    let mut code = format!("wire_enum! {{\n{inside}");
    if matches!(kind, Kind::Open) && !OWN_DISPLAY.contains(&name) {
        let display = quote! {
            impl std::fmt::Display for #ident {
                /// The wire spelling (an unknown value as sent).
                fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                    f.write_str(self.as_str())
                }
            }
        };
        let file: syn::File = syn::parse2(display).context("a `Display` does not parse")?;
        code.push('\n');
        code.push_str(&prettyplease::unparse(&file));
    }
    Ok(code)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_spec::{model, spec};

    /// A value added to a spec enumeration reaches core's type: its variant,
    /// named from the wire spelling, documented from `x-enum-descriptions`.
    #[test]
    fn new_spec_values_reach_the_core_enums() {
        let spec = spec()
            .replacen(
                "enum: [ach, iban, swift, wire, pix, ethereum, bridge_wallet, nip]",
                "enum: [ach, iban, swift, wire, pix, ethereum, bridge_wallet, nip, faster_payments]",
                1,
            )
            .replacen(
                "        - NIBSS Instant Payment, Nigeria's interbank transfer system.\n",
                "        - NIBSS Instant Payment, Nigeria's interbank transfer system.\n        - UK Faster Payments.\n",
                1,
            )
            .replacen(
                "enum: [DIRECTOR, UBO]",
                "enum: [DIRECTOR, UBO, SIGNATORY]",
                1,
            )
            .replacen(
                "        - 'Added with `POST /api/business/{businessId}/ubo`.'\n",
                "        - 'Added with `POST /api/business/{businessId}/ubo`.'\n        - ''\n",
                1,
            );
        let code = generate(&model(&spec)).unwrap();
        for text in [
            "        /// `faster_payments`: UK Faster Payments.\n        FasterPayments = \"faster_payments\",\n    }\n",
            "    #[error(\n        \"Invalid rail: {0} (expected one of {expected})\",\n        expected = crate::wire_enum::one_of(&Rail::ALL, Rail::as_str)\n    )]\n    pub struct UnknownRail(pub String);\n",
            "        /// `SIGNATORY`.\n        Signatory = \"SIGNATORY\",\n    }\n\n    /// A value this version does not know, as sent.\n    Unknown(String);\n",
        ] {
            assert!(code.contains(text), "{text}\nnot in\n{code}");
        }
        // A person's role displays in core's own words.
        assert!(!code.contains("impl std::fmt::Display for PersonRole"));
        assert!(code.contains("impl std::fmt::Display for TransactionStatus"));
    }

    /// A description list that does not match the values is refused, naming
    /// the enumeration.
    #[test]
    fn descriptions_must_match_the_values() {
        let spec = spec().replacen("        - Bridge wallet.\n", "", 1);
        assert_eq!(
            format!("{:#}", generate(&model(&spec)).unwrap_err()),
            "`Rail`: `x-enum-descriptions` has 7 entries for 8 values"
        );
    }
}
