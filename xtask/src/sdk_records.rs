//! `cargo xtask codegen` also writes the SDK's KYB records,
//! `crates/crossborder/src/kyb/record.rs`: `Business` and `Person` as the
//! service returns them, one field per property of the spec's schema of the
//! same name, and their conversion from the generated client's type. A
//! property added to the spec appears in the SDK's record with no edit.
//!
//! A property is held as:
//! - a string, integer (`minimum: 0`: `u64`) or boolean as `String`, `u64`
//!   or `bool`;
//! - a `$ref` to a schema the generated client replaces by a core type
//!   ([`REPLACEMENTS`]) as that type, unchanged;
//! - a `$ref` to an open enum (`anyOf` of `Known<Name>` and a string) as core's enum of that
//!   name, re-exported by the SDK's `kyb` (`BusinessStatus`, `PersonRole`),
//!   read from the wire's text (an unknown word is kept, never refused);
//! - a map (`additionalProperties`) as a `BTreeMap` (ordered, for display)
//!   of what its values are held as, empty when absent;
//! - anything else is refused, named, until the generator learns it;
//!
//! optional (`Option`) unless the schema requires it (a map is empty
//! instead). Its documentation is its `description`, or the referenced
//! schema's.

use anyhow::{bail, Context, Result};
use heck::ToSnakeCase;
use openapiv3::OpenAPI;
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use crate::replacements::REPLACEMENTS;
use crate::rust_file::render;
use crate::spec_model::{
    description, map_values, minimum, open_enum_known, prop_description, prop_type, properties,
    required, schema, Prop,
};
use crate::SPEC_PATH;

/// The generated records, relative to the workspace root.
pub const RECORDS_PATH: &str = "crates/crossborder/src/kyb/record.rs";

/// The spec's record schemas, in the file's order.
const RECORDS: [&str; 2] = ["Business", "Person"];

/// How a property goes from the wire to the record.
enum Held {
    /// The same type on both sides.
    Same(syn::Type),
    /// Core's open enum, read from the wire's newtype around its text.
    Open(syn::Type),
    /// A map by wire field name.
    Map(Box<Held>),
}

impl Held {
    /// The record's type, without the `Option` of an optional property.
    fn ty(&self) -> TokenStream {
        match self {
            Held::Same(ty) | Held::Open(ty) => quote!(#ty),
            Held::Map(value) => {
                let value = value.ty();
                quote!(std::collections::BTreeMap<String, #value>)
            }
        }
    }

    /// How the wire value `from` is read.
    fn read(&self, from: TokenStream) -> TokenStream {
        match self {
            Held::Same(_) => from,
            Held::Open(_) => quote!(open(#from.0)),
            Held::Map(value) => {
                let value = value.read(quote!(v));
                quote!(#from.into_iter().map(|(k, v)| (k, #value)).collect())
            }
        }
    }
}

/// Generates the records' file text from the spec.
pub fn generate(spec: &OpenAPI) -> Result<String> {
    let mut records = Vec::new();
    for name in RECORDS {
        let schema = schema(spec, name)?;
        let required = required(schema);
        let mut fields = Vec::new();
        let mut reads = Vec::new();
        for (wire_name, property) in properties(schema, name)? {
            let at = format!("{name}.{wire_name}");
            let ident: Ident = syn::parse_str(&wire_name.to_snake_case())
                .with_context(|| format!("`{at}` is not a Rust name in snake case"))?;
            let optional = !required.contains(&wire_name);
            let held = held(spec, property, &at)?;
            let value = quote!(value.#ident);
            let (ty, read) = match (&held, optional) {
                // An absent map reads as an empty one.
                (Held::Map(_), _) | (_, false) => (held.ty(), held.read(value)),
                (_, true) => {
                    let ty = held.ty();
                    let read = match held {
                        Held::Same(_) => value,
                        _ => {
                            let read = held.read(quote!(v));
                            quote!(#value.map(|v| #read))
                        }
                    };
                    (quote!(Option<#ty>), read)
                }
            };
            let doc = match prop_description(property) {
                Some(doc) => doc,
                None => property
                    .reference()
                    .and_then(|target| description(schema_of(spec, &target)?))
                    .with_context(|| format!("`{at}` has no description"))?,
            };
            let doc = format!(" {doc}");
            fields.push(quote!(#[doc = #doc] pub #ident: #ty,));
            reads.push(quote!(#ident: #read,));
        }
        let doc = description(schema).with_context(|| format!("`{name}` has no description"))?;
        let doc = format!(" {doc}");
        let name = format_ident!("{name}");
        records.push(quote! {
            #[doc = #doc]
            #[derive(Debug, Clone, PartialEq, Eq)]
            pub struct #name { #(#fields)* }

            impl From<wire::#name> for #name {
                fn from(value: wire::#name) -> Self {
                    #name { #(#reads)* }
                }
            }
        });
    }
    render(
        RECORDS_PATH,
        SPEC_PATH,
        quote! {
            //! A sub-business and a director or UBO as the service records them, one
            //! field per property of the spec's schema of the same name, read from the
            //! generated client's types.

            use crossborder_api::types as wire;

            /// An open enum's value from its wire text: every text reads, a word
            /// this version does not know as its `Unknown` variant.
            fn open<T: std::str::FromStr<Err = std::convert::Infallible>>(text: String) -> T {
                match text.parse() {
                    Ok(value) => value,
                    Err(never) => match never {},
                }
            }

            #(#records)*
        },
    )
}

/// The component schema `name`, if there is one.
fn schema_of<'s>(spec: &'s OpenAPI, name: &str) -> Option<&'s openapiv3::Schema> {
    schema(spec, name).ok()
}

/// The Rust type `path`, or an error naming it.
fn rust_type(path: &str) -> Result<syn::Type> {
    syn::parse_str(path).with_context(|| format!("`{path}` is not a Rust type"))
}

fn held(spec: &OpenAPI, property: Prop<'_>, at: &str) -> Result<Held> {
    if let Some(target) = property.reference() {
        if let Some((_, ty)) = REPLACEMENTS.iter().find(|(name, _)| *name == target) {
            // Named from inside the generated client, whose `crate` is
            // `crossborder_api` from the SDK.
            let path = match ty.strip_prefix("crate::") {
                Some(inside) => format!("crossborder_api::{inside}"),
                None => (*ty).to_owned(),
            };
            return Ok(Held::Same(rust_type(&path)?));
        }
        if open_enum_known(spec, &target, schema(spec, &target)?)?.is_some() {
            return Ok(Held::Open(rust_type(&format!("crate::kyb::{target}"))?));
        }
        bail!("`{at}`: no SDK type for `{target}`");
    }
    let inline = property.inline();
    let kind = prop_type(property);
    match kind {
        Some("string") => Ok(Held::Same(syn::parse_quote!(String))),
        Some("boolean") => Ok(Held::Same(syn::parse_quote!(bool))),
        Some("integer") if inline.and_then(minimum) == Some(0) => {
            Ok(Held::Same(syn::parse_quote!(u64)))
        }
        Some("object") => match inline.and_then(map_values) {
            Some(values) => Ok(Held::Map(Box::new(held(spec, values, at)?))),
            None => bail!("`{at}`: an object is held only as a map of one schema"),
        },
        _ => bail!("`{at}`: no SDK type for {kind:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_spec::{model, spec};

    /// A property added to the spec's business record reaches the SDK's
    /// `Business`, declared and read; a property the generator cannot hold
    /// is refused, named.
    #[test]
    fn a_new_record_property_reaches_the_sdk() {
        let anchor = "        submittedAt:\n          type: string\n          description: Submission time (ISO 8601).\n";
        let spec_with = |property: &str| spec().replacen(anchor, &format!("{anchor}{property}"), 1);
        let code = generate(&model(&spec_with(
            "        reviewer:\n          type: string\n          description: Who reviewed it.\n",
        )))
        .unwrap();
        assert!(
            code.contains("    /// Who reviewed it.\n    pub reviewer: Option<String>,\n}\n"),
            "{code}"
        );
        assert!(
            code.contains("            reviewer: value.reviewer,\n"),
            "{code}"
        );
        assert!(
            code.contains("            status: open(value.status.0),\n"),
            "{code}"
        );

        let refused =
            spec_with("        score:\n          type: number\n          description: A score.\n");
        assert_eq!(
            format!("{:#}", generate(&model(&refused)).unwrap_err()),
            "`Business.score`: no SDK type for Some(\"number\")"
        );
    }
}
