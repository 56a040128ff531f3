//! `cargo xtask codegen` also writes `crates/crossborder-core/src/views.rs`:
//! the borrowed, unparsed views of every JSON request body that
//! `crossborder-core`'s rules read, derived from the spec so that each
//! field's wire name is declared once (in `openapi/crossborder.yaml`).
//!
//! Each view is a struct of `Option<&str>` (strings and enums as their
//! raw text, JSON numbers as their exact text), `Option<bool>`, `Option<Vec<&str>>` (string arrays),
//! nested views (a required object is its view, defaulted when absent; an
//! optional one is `Option<view>`) and `Vec<(&str, view)>` for maps. Every
//! view gets its wire-name constants, `WIRE_NAMES`, `REQUIRED` and a
//! `read` constructor from a `FieldReader`; flat views also get `get` and
//! `from_fn`. The optional, unconstrained text fields of the views listed
//! with `sdk_text_fields` are also handed to `sdk_types.rs`
//! ([`text_fields`]), which writes the SDK's typed payout request with
//! them, and so is every property of the KYB requests ([`sdk_fields`]), so
//! the SDK declares its typed requests without naming those fields by hand.

use std::collections::BTreeSet;

use anyhow::{bail, Context, Result};
use heck::{ToShoutySnakeCase, ToSnakeCase};
use openapiv3::{OpenAPI, Schema};
use proc_macro2::{Ident, Literal, TokenStream};
use quote::{format_ident, quote};

use crate::rust_file::render;
use crate::spec_model::{
    self, constrained_string, description, items, map_values, prop_description, prop_type,
    properties, schema, type_name, Prop,
};
use crate::SPEC_PATH;

/// Where the generated views live, relative to the workspace root.
pub const VIEWS_PATH: &str = "crates/crossborder-core/src/views.rs";

/// A request schema and the view generated for it.
struct ViewSpec {
    schema: &'static str,
    view: &'static str,
    /// Schemas whose properties must all be properties of `schema` (the
    /// update request reuses the create request's view).
    subsets: &'static [&'static str],
    /// Whether the SDK's typed request takes this view's plain text fields
    /// from the spec ([`text_fields`]).
    sdk_text_fields: bool,
}

const VIEWS: &[ViewSpec] = &[
    ViewSpec {
        schema: "PayoutRequest",
        view: "PayoutFields",
        subsets: &[],
        sdk_text_fields: true,
    },
    ViewSpec {
        schema: "InitiatePaymentRequest",
        view: "CollectionFields",
        subsets: &[],
        sdk_text_fields: false,
    },
    ViewSpec {
        schema: "SimulateFundingRequest",
        view: "SimulateFundingFields",
        subsets: &[],
        sdk_text_fields: false,
    },
    ViewSpec {
        schema: "ResolveBankRequest",
        view: "ResolveBankFields",
        subsets: &[],
        sdk_text_fields: false,
    },
    ViewSpec {
        schema: "SetWebhookRequest",
        view: "SetWebhookFields",
        subsets: &[],
        sdk_text_fields: false,
    },
    ViewSpec {
        schema: "CreateBusinessRequest",
        view: "BusinessFields",
        subsets: &["UpdateBusinessRequest"],
        sdk_text_fields: false,
    },
    ViewSpec {
        schema: "PersonRequest",
        view: "PersonFields",
        subsets: &[],
        sdk_text_fields: false,
    },
    ViewSpec {
        schema: "Address",
        view: "AddressFields",
        subsets: &[],
        sdk_text_fields: false,
    },
    ViewSpec {
        schema: "NatureOfBusiness",
        view: "NatureOfBusinessFields",
        subsets: &[],
        sdk_text_fields: false,
    },
    ViewSpec {
        schema: "ProofOfAddress",
        view: "ProofOfAddressFields",
        subsets: &[],
        sdk_text_fields: false,
    },
    ViewSpec {
        schema: "DocumentLink",
        view: "DocumentRefFields",
        subsets: &[],
        sdk_text_fields: false,
    },
    ViewSpec {
        schema: "MonthlyTransactionVolume",
        view: "MonthlyTransactionVolumeFields",
        subsets: &[],
        sdk_text_fields: false,
    },
    ViewSpec {
        schema: "SourceOfFund",
        view: "SourceOfFundFields",
        subsets: &[],
        sdk_text_fields: false,
    },
];

/// How a property is held in a view.
enum Kind {
    Text,
    /// A JSON number (an `Amount`), read as its exact text.
    Number,
    Flag,
    List,
    /// A nested object and its view; `required` decides `View` or `Option<View>`.
    Object(&'static str),
    /// A map of keys to objects of a view.
    Map(&'static str),
}

struct Field {
    wire: String,
    ident: String,
    constant: String,
    kind: Kind,
    required: bool,
    /// A text field with no constraint of its own: no enum, `$ref`, length,
    /// pattern or format.
    plain: bool,
    /// The component a `$ref` names (`Address`, `IdType`).
    reference: Option<String>,
    doc: String,
}

/// Generates the views file from the spec.
pub fn generate(spec: &OpenAPI) -> Result<String> {
    let mut views = Vec::new();
    for view in VIEWS {
        let body = schema(spec, view.schema)?;
        let fields = fields_of(spec, view.schema, body)?;
        for subset in view.subsets {
            let names: BTreeSet<&str> = fields.iter().map(|f| f.wire.as_str()).collect();
            for (property, _) in properties(schema(spec, subset)?, subset)? {
                if !names.contains(property) {
                    bail!("`{subset}.{property}` is not a property of `{}`, whose view `{}` it shares", view.schema, view.view);
                }
            }
        }
        views.push(emit_view(view, body, &fields)?);
    }
    render(
        VIEWS_PATH,
        SPEC_PATH,
        quote! {
            //! Borrowed, unparsed views of the API's JSON request bodies, generated from
            //! `openapi/crossborder.yaml` so that every field's wire name is declared
            //! once. The rules that read them live in the modules named after each
            //! request; this file holds only the field lists.

            use crate::field_reader::FieldReader;

            #(#views)*
        },
    )
}

/// An optional text field with no rule of its own: its Rust name, wire name
/// and documentation.
pub struct TextField {
    pub ident: String,
    pub wire: String,
    pub doc: String,
}

/// The plain text fields of each request schema whose SDK type takes them
/// from the spec: optional, unconstrained, and not the TIN (which the SDK
/// holds once for both spellings).
pub fn text_fields(spec: &OpenAPI) -> Result<Vec<(&'static str, Vec<TextField>)>> {
    let mut lists = Vec::new();
    for view in VIEWS.iter().filter(|view| view.sdk_text_fields) {
        let fields = fields_of(spec, view.schema, schema(spec, view.schema)?)?;
        let plain = fields
            .into_iter()
            .filter(|f| f.plain && !f.required && !f.wire.eq_ignore_ascii_case("tin"))
            .map(|f| TextField {
                ident: f.ident,
                wire: f.wire,
                doc: f.doc,
            })
            .collect();
        lists.push((view.schema, plain));
    }
    Ok(lists)
}

/// A property of a request schema as the SDK's typed request holds it.
pub struct SdkField {
    pub ident: String,
    pub wire: String,
    pub doc: String,
    pub required: bool,
    /// The SDK's type for it: a `$ref`'d component's name (the SDK has a
    /// type of that name), `String`, `bool` or `Vec<String>`; optional
    /// fields other than lists are wrapped in `Option` by the caller.
    pub base: String,
    pub list: bool,
}

/// The `description` of the component schema `name`, on one line.
pub fn schema_description(spec: &OpenAPI, name: &str) -> Result<String> {
    description(schema(spec, name)?).with_context(|| format!("schema `{name}` has no description"))
}

/// Every property of the request schema `name`, in the spec's order, with
/// the SDK type it is held as. `typed` gives a plain string property a type
/// of its own (`ownershipPercentage` is a decimal string, held exact).
pub fn sdk_fields(spec: &OpenAPI, name: &str, typed: &[(&str, &str)]) -> Result<Vec<SdkField>> {
    fields_of(spec, name, schema(spec, name)?)?
        .into_iter()
        .map(|f| {
            let base = match (&f.reference, &f.kind) {
                _ if typed.iter().any(|(wire, _)| *wire == f.wire) => typed
                    .iter()
                    .find(|(wire, _)| *wire == f.wire)
                    .map(|(_, ty)| (*ty).to_owned())
                    .unwrap_or_default(),
                (Some(reference), _) => reference.clone(),
                (None, Kind::Text) => "String".to_owned(),
                (None, Kind::Flag) => "bool".to_owned(),
                (None, Kind::List) => "Vec<String>".to_owned(),
                (None, _) => bail!("`{name}.{}`: no SDK type for this property", f.wire),
            };
            Ok(SdkField {
                list: matches!(f.kind, Kind::List),
                ident: f.ident,
                wire: f.wire,
                doc: f.doc,
                required: f.required,
                base,
            })
        })
        .collect()
}

/// The view of the component schema `name`, if it has one.
fn view_of(name: &str) -> Option<&'static str> {
    VIEWS.iter().find(|v| v.schema == name).map(|v| v.view)
}

fn fields_of(spec: &OpenAPI, owner: &str, body: &Schema) -> Result<Vec<Field>> {
    let required: BTreeSet<&str> = spec_model::required(body).into_iter().collect();
    let props = properties(body, owner)?;
    let lower: Vec<String> = props.iter().map(|(k, _)| k.to_lowercase()).collect();
    let mut fields = Vec::new();
    for (wire, property) in props {
        let wire = wire.to_owned();
        let mut kind = Kind::Text;
        let plain;
        let reference = match property {
            Prop::Ref(reference) => Some(
                property
                    .bare_reference()
                    .with_context(|| format!("unsupported $ref `{reference}`"))?,
            ),
            Prop::Inline(_) => None,
        };
        if let Some(name) = &reference {
            plain = false;
            if let Some(view) = view_of(name) {
                kind = Kind::Object(view);
            } else {
                // A component that is not an object view (Currency, an
                // amount, an enum) is read as its raw text.
                let target = schema(spec, name)?;
                if matches!(type_name(target), Some("number" | "integer")) {
                    kind = Kind::Number;
                } else if type_name(target) == Some("object") {
                    if let Some(values) = map_values(target).and_then(Prop::bare_reference) {
                        let view = view_of(&values).with_context(|| {
                            format!("`{owner}.{wire}`: map values have no view")
                        })?;
                        kind = Kind::Map(view);
                    } else {
                        bail!("`{owner}.{wire}` refers to object `{name}`, which has no view in xtask/src/views.rs");
                    }
                }
            }
        } else {
            let inline = property.inline();
            match prop_type(property) {
                Some("string") => {
                    plain = !inline.is_some_and(constrained_string);
                }
                Some("number") | Some("integer") => {
                    kind = Kind::Number;
                    plain = false;
                }
                Some("boolean") => {
                    kind = Kind::Flag;
                    plain = false;
                }
                Some("array") if inline.and_then(items).and_then(prop_type) == Some("string") => {
                    kind = Kind::List;
                    plain = false;
                }
                other => bail!("`{owner}.{wire}`: unsupported property type {other:?}"),
            }
        }
        // Names that differ only by case (`TIN`, `tin`) get distinct
        // identifiers, as in the generated client.
        let clashes = lower.iter().filter(|l| **l == wire.to_lowercase()).count() > 1;
        let mut ident = wire.to_snake_case();
        if clashes && wire.chars().all(|c| !c.is_ascii_lowercase()) {
            ident.push_str("_uppercase");
        }
        let ident = match ident.as_str() {
            "type" => "kind".to_owned(),
            _ => ident,
        };
        let constant = ident.to_shouty_snake_case();
        let doc = match (prop_description(property), required.contains(wire.as_str())) {
            (Some(d), true) => format!("`{wire}` (required): {d}"),
            (Some(d), false) => format!("`{wire}`: {d}"),
            (None, true) => format!("`{wire}` (required)."),
            (None, false) => format!("`{wire}`."),
        };
        fields.push(Field {
            wire: wire.clone(),
            ident,
            constant,
            kind,
            required: required.contains(wire.as_str()),
            plain,
            reference,
            doc,
        });
    }
    Ok(fields)
}

fn rust_type(field: &Field) -> TokenStream {
    match field.kind {
        Kind::Text | Kind::Number => quote!(Option<&'a str>),
        Kind::Flag => quote!(Option<bool>),
        Kind::List => quote!(Option<Vec<&'a str>>),
        Kind::Object(view) => {
            let view = format_ident!("{view}");
            if field.required {
                quote!(#view<'a>)
            } else {
                quote!(Option<#view<'a>>)
            }
        }
        Kind::Map(view) => {
            let view = format_ident!("{view}");
            quote!(Vec<(&'a str, #view<'a>)>)
        }
    }
}

fn emit_view(spec: &ViewSpec, body: &Schema, fields: &[Field]) -> Result<TokenStream> {
    let view = format_ident!("{}", spec.view);
    let schema = spec.schema;
    let copy = fields
        .iter()
        .all(|f| !matches!(f.kind, Kind::List | Kind::Map(_)))
        .then(|| quote!(Copy,));
    let flat = fields
        .iter()
        .all(|f| matches!(f.kind, Kind::Text | Kind::Number));
    let description = description(body).unwrap_or_default();
    let doc = format!(" A borrowed, unparsed view of `{schema}`: {description}");

    let ident = fields
        .iter()
        .map(|f| syn::parse_str::<Ident>(&f.ident))
        .collect::<syn::Result<Vec<_>>>()
        .with_context(|| format!("a field of `{schema}` is not a Rust name"))?;
    let constant: Vec<Ident> = fields
        .iter()
        .map(|f| format_ident!("{}", f.constant))
        .collect();
    let wire: Vec<&str> = fields.iter().map(|f| f.wire.as_str()).collect();
    let field_doc: Vec<String> = fields.iter().map(|f| format!(" {}", f.doc)).collect();
    let constant_doc: Vec<String> = fields
        .iter()
        .map(|f| format!(" Wire name of [`{}::{}`].", spec.view, f.ident))
        .collect();
    let ty: Vec<TokenStream> = fields.iter().map(rust_type).collect();
    let count = Literal::usize_unsuffixed(fields.len());
    let required: Vec<&Ident> = fields
        .iter()
        .zip(&constant)
        .filter(|(f, _)| f.required)
        .map(|(_, c)| c)
        .collect();
    let required_count = Literal::usize_unsuffixed(required.len());
    let read: Vec<TokenStream> = fields
        .iter()
        .zip(&constant)
        .map(|(field, c)| match field.kind {
            Kind::Text => quote!(reader.text(Self::#c)),
            Kind::Number => quote!(reader.number(Self::#c)),
            Kind::Flag => quote!(reader.flag(Self::#c)),
            Kind::List => quote!(reader.list(Self::#c)),
            Kind::Object(v) => {
                let v = format_ident!("{v}");
                if field.required {
                    quote!(reader.object(Self::#c, #v::read).unwrap_or_default())
                } else {
                    quote!(reader.object(Self::#c, #v::read))
                }
            }
            Kind::Map(v) => {
                let v = format_ident!("{v}");
                quote!(reader.map(Self::#c, #v::read).unwrap_or_default())
            }
        })
        .collect();

    let flat_methods = flat.then(|| {
        quote! {
            /// The field with the given wire name (`None` for an unknown name or an absent field).
            pub fn get(&self, wire_name: &str) -> Option<&'a str> {
                match wire_name {
                    #(Self::#constant => self.#ident,)*
                    _ => None,
                }
            }

            /// Builds the view by asking `lookup` for each wire name, for callers
            /// that hold the request as a map (a JSON object, CLI flags).
            pub fn from_fn(mut lookup: impl FnMut(&'static str) -> Option<&'a str>) -> #view<'a> {
                #view {
                    #(#ident: lookup(Self::#constant),)*
                }
            }

            /// Every field with its wire name, in wire order (as [`Self::WIRE_NAMES`]),
            /// for rules that visit each field without looking it up by name.
            pub fn entries(&self) -> [(&'static str, Option<&'a str>); #count] {
                [#((Self::#constant, self.#ident),)*]
            }
        }
    });

    Ok(quote! {
        #[doc = #doc]
        ///
        /// Each field is the raw value as sent, `None` when absent.
        #[derive(Debug, Clone, #copy Default, PartialEq, Eq)]
        pub struct #view<'a> {
            #(#[doc = #field_doc] pub #ident: #ty,)*
        }

        impl<'a> #view<'a> {
            #(#[doc = #constant_doc] pub const #constant: &'static str = #wire;)*

            /// Every wire name, in the order of the specification.
            pub const WIRE_NAMES: [&'static str; #count] = [#(Self::#constant),*];

            /// The wire names the specification requires.
            pub const REQUIRED: [&'static str; #required_count] = [#(Self::#required),*];

            /// Reads the view field by field from `reader`.
            pub fn read<R: FieldReader<'a>>(reader: &mut R) -> #view<'a> {
                #view {
                    #(#ident: #read,)*
                }
            }

            #flat_methods
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_spec::{model, spec, spec_with_purpose_code};

    /// A plain text field added to the payout request reaches the view, its
    /// wire-name list and reader, and the list the SDK's typed request is
    /// generated from: no other edit is needed.
    #[test]
    fn a_new_payout_field_reaches_every_list() {
        let text = spec_with_purpose_code();
        let views = generate(&model(&text)).unwrap();
        assert!(views.contains("    pub purpose_code: Option<&'a str>,\n"));
        assert!(views.contains("pub const PURPOSE_CODE: &'static str = \"purposeCode\";"));
        assert!(views.contains(
            "        Self::SWIFT_CODE,\n        Self::PURPOSE_CODE,\n        Self::RECIPIENT_NAME,\n    ];"
        ));
        assert!(views.contains("            purpose_code: reader.text(Self::PURPOSE_CODE),\n"));
        let lists = text_fields(&model(&text)).unwrap();
        let (schema, payout) = &lists[0];
        assert_eq!(*schema, "PayoutRequest");
        let names: Vec<&str> = payout.iter().map(|f| f.wire.as_str()).collect();
        assert_eq!(names[names.len() - 2..], ["purposeCode", "recipientName"]);
    }

    /// A field with a rule of its own is left to the hand-written code, and
    /// an update field that the create request lacks is an error.
    #[test]
    fn constrained_fields_and_stray_update_fields() {
        let lists = text_fields(&model(&spec())).unwrap();
        let payout: Vec<&str> = lists[0].1.iter().map(|f| f.wire.as_str()).collect();
        assert!(!payout.contains(&"narration"), "maxLength: hand-written");
        assert!(!payout.contains(&"sessionId"), "required: hand-written");
        assert!(payout.contains(&"swiftCode"));
        assert_eq!(
            lists.len(),
            1,
            "the KYB requests take every field (sdk_fields)"
        );
        let business = sdk_fields(&model(&spec()), "CreateBusinessRequest", &[]).unwrap();
        let types: Vec<(&str, &str)> = business
            .iter()
            .map(|f| (f.wire.as_str(), f.base.as_str()))
            .collect();
        for expected in [
            ("businessWebsite", "String"),
            ("businessType", "BusinessType"),
            ("monthlyTransactionVolume", "MonthlyTransactionVolume"),
            ("hasWebsite", "bool"),
            ("activities", "Vec<String>"),
        ] {
            assert!(types.contains(&expected), "{expected:?}");
        }

        let text = spec().replacen(
            "      description: Fields to update (all optional); each updated field is reset to PENDING.\n      properties:\n",
            "      description: Fields to update (all optional); each updated field is reset to PENDING.\n      properties:\n        nickname:\n          type: string\n",
            1,
        );
        let error = generate(&model(&text)).unwrap_err().to_string();
        assert_eq!(
            error,
            "`UpdateBusinessRequest.nickname` is not a property of `CreateBusinessRequest`, whose view `BusinessFields` it shares"
        );
    }
}
