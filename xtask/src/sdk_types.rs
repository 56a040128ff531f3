//! `cargo xtask codegen` also writes the SDK's typed requests from the
//! spec: `types/payout_request.rs` (the payout request, whose optional text
//! fields come from the spec), `kyb/business_request.rs` (the business's
//! create and update requests), `kyb/person_request.rs` (a director or
//! UBO) and `kyb/parts.rs` (the parts of a business request), whose every
//! field comes from the spec. Each is written with `quote!`, repeating a
//! field's declaration and conversions once per property, so a field added
//! to the spec appears in the SDK's typed request and its wire conversions
//! with no edit, and its name is found by grep in the generated file:
//!
//! - the payout request's plain text fields ([`views::text_fields`]);
//! - a KYB request's required properties, held as their SDK type (a
//!   component's name is the SDK's type of that name: `Address`, `IdType`;
//!   strings, flags and lists as `String`, `bool`, `Vec<String>`);
//! - its optional properties, held as `Option` of it (a list as the list),
//!   in the request's `details`;
//! - the business update's properties that the create requires, each
//!   optional.

use anyhow::{bail, Context, Result};
use openapiv3::OpenAPI;
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use crate::rust_file::render;
use crate::views::{self, SdkField};
use crate::SPEC_PATH;

/// One field of a generated request.
#[derive(Clone)]
pub struct Item {
    pub ident: Ident,
    pub wire: String,
    pub doc: String,
    pub ty: syn::Type,
    /// The generated client's name for the field (`type_` where the SDK
    /// says `kind`).
    pub member: Ident,
}

/// The lists a request's declarations repeat: its fields, and each one's
/// Rust name, wire name, documentation, type and client field name.
struct Fields<'i> {
    ident: Vec<&'i Ident>,
    wire: Vec<&'i str>,
    doc: Vec<&'i str>,
    ty: Vec<&'i syn::Type>,
    member: Vec<&'i Ident>,
}

fn columns(items: &[Item]) -> Fields<'_> {
    Fields {
        ident: items.iter().map(|i| &i.ident).collect(),
        wire: items.iter().map(|i| i.wire.as_str()).collect(),
        doc: items.iter().map(|i| i.doc.as_str()).collect(),
        ty: items.iter().map(|i| &i.ty).collect(),
        member: items.iter().map(|i| &i.member).collect(),
    }
}

/// The generated files and their text.
pub fn generate(spec: &OpenAPI) -> Result<Vec<(&'static str, String)>> {
    let files = [
        (PAYOUT_PATH, payout_request(&payout_texts(spec)?)),
        (BUSINESS_PATH, business_request(spec)?),
        (PERSON_PATH, person_request(spec)?),
        (PARTS_PATH, kyb_parts(spec)?),
    ];
    files
        .into_iter()
        .map(|(path, tokens)| Ok((path, render(path, SPEC_PATH, tokens)?)))
        .collect()
}

pub const PAYOUT_PATH: &str = "crates/crossborder/src/types/payout_request.rs";
pub const BUSINESS_PATH: &str = "crates/crossborder/src/kyb/business_request.rs";
pub const PERSON_PATH: &str = "crates/crossborder/src/kyb/person_request.rs";
pub const PARTS_PATH: &str = "crates/crossborder/src/kyb/parts.rs";

/// The parts of a business request held as they are sent: one struct per
/// spec schema, and its `Wire` conversion (`kyb/convert.rs`).
/// (`MonthlyTransactionVolume`, an exact decimal held from a decimal
/// string, is written by hand in `kyb/volume.rs`.)
const PARTS: [&str; 4] = [
    "Address",
    "NatureOfBusiness",
    "ProofOfAddress",
    "SourceOfFund",
];

fn kyb_parts(spec: &OpenAPI) -> Result<TokenStream> {
    let mut parts = Vec::new();
    for part in PARTS {
        let fields = views::sdk_fields(spec, part, &[])?;
        let (required, optional) = required_and_optional(&fields, &[])?;
        // A part with a required field of its own type (an enum) has no
        // meaningful default.
        let default = fields
            .iter()
            .filter(|f| f.required)
            .all(|f| f.base == "String")
            .then(|| quote!(Default,));
        let doc = views::schema_description(spec, part)?;
        let name = format_ident!("{part}");
        let (req, opt) = (columns(&required), columns(&optional));
        let (r_ident, r_doc, r_ty, r_member, r_wire) =
            (&req.ident, &req.doc, &req.ty, &req.member, &req.wire);
        let (o_ident, o_doc, o_ty, o_member, o_wire) =
            (&opt.ident, &opt.doc, &opt.ty, &opt.member, &opt.wire);
        parts.push(quote! {
            #[doc = #doc]
            #[derive(Debug, Clone, #default PartialEq, Eq)]
            pub struct #name {
                #(#[doc = #r_doc] pub #r_ident: #r_ty,)*
                #(#[doc = #o_doc] pub #o_ident: #o_ty,)*
            }

            impl Wire for #name {
                type Wire = wire::#name;

                fn to_wire(&self) -> wire::#name {
                    wire::#name {
                        #(#r_member: self.#r_ident.to_wire(),)*
                        #(#o_member: self.#o_ident.to_wire(),)*
                    }
                }

                fn from_wire(wire: wire::#name, _: &'static str) -> Result<Self, Violation> {
                    Ok(#name {
                        #(#r_ident: Wire::from_wire(wire.#r_member, #r_wire)?,)*
                        #(#o_ident: Wire::from_wire(wire.#o_member, #o_wire)?,)*
                    })
                }
            }
        });
    }
    Ok(quote! {
        //! The parts a business request is made of, held as they are sent: its
        //! addresses, what it does, its proof of address and its source of
        //! funds, one field per property of the spec's schema of the same name,
        //! and their wire forms. (The expected monthly volume, an exact decimal,
        //! is `volume.rs`.)

        use crossborder_api::types as wire;
        use crossborder_core::Violation;

        use super::convert::Wire;
        use crate::ProofOfAddressType;

        #(#parts)*
    })
}

fn payout_texts(spec: &OpenAPI) -> Result<Vec<Item>> {
    let lists = views::text_fields(spec)?;
    let (_, fields) = lists
        .into_iter()
        .find(|(name, _)| *name == "PayoutRequest")
        .context("no text fields listed for `PayoutRequest`")?;
    fields
        .into_iter()
        .map(|f| {
            let ident = ident(&f.ident)?;
            Ok(Item {
                member: ident.clone(),
                ident,
                wire: f.wire,
                doc: f.doc,
                ty: syn::parse_quote!(Option<String>),
            })
        })
        .collect()
}

/// The Rust identifier `name`, or an error naming it.
fn ident(name: &str) -> Result<Ident> {
    syn::parse_str(name).with_context(|| format!("`{name}` is not a Rust identifier"))
}

/// `field` as held required or optional (an optional list is the list).
fn item(field: &SdkField, optional: bool) -> Result<Item> {
    let base: syn::Type = syn::parse_str(&field.base)
        .with_context(|| format!("`{}` is not a Rust type", field.base))?;
    let ty = if optional && !field.list {
        syn::parse_quote!(Option<#base>)
    } else {
        base
    };
    Ok(Item {
        ident: ident(&field.ident)?,
        wire: field.wire.clone(),
        doc: field.doc.clone(),
        ty,
        member: ident(&member_name(field))?,
    })
}

/// The generated client's field for `field`: the same snake-case name,
/// but `type_` for the wire's `type`, which the SDK calls `kind`.
fn member_name(field: &SdkField) -> String {
    if field.wire == "type" {
        "type_".to_owned()
    } else {
        field.ident.clone()
    }
}

/// The required and optional properties of `fields` (`skip` left to the
/// hand-written part of the request).
fn required_and_optional(fields: &[SdkField], skip: &[&str]) -> Result<(Vec<Item>, Vec<Item>)> {
    let kept = || fields.iter().filter(|f| !skip.contains(&f.wire.as_str()));
    Ok((
        kept()
            .filter(|f| f.required)
            .map(|f| item(f, false))
            .collect::<Result<_>>()?,
        kept()
            .filter(|f| !f.required)
            .map(|f| item(f, true))
            .collect::<Result<_>>()?,
    ))
}

/// The TIN: the SDK holds one and sends it under both spellings, so the
/// generator declares it by hand.
const TIN: &[&str] = &["tin", "TIN"];

fn business_request(spec: &OpenAPI) -> Result<TokenStream> {
    let create = views::sdk_fields(spec, "CreateBusinessRequest", &[])?;
    let update = views::sdk_fields(spec, "UpdateBusinessRequest", &[])?;
    let (required, optional) = required_and_optional(&create, TIN)?;
    let mut changes = Vec::new();
    for field in update.iter().filter(|f| !TIN.contains(&f.wire.as_str())) {
        let in_create = create.iter().find(|c| c.wire == field.wire);
        match in_create {
            Some(c) if c.required => changes.push(item(field, true)?),
            // The update shares the create's optional fields.
            Some(_) => {}
            None => bail!(
                "`UpdateBusinessRequest.{}` is not a field of the create",
                field.wire
            ),
        }
    }
    for field in optional.iter() {
        if !update.iter().any(|u| u.wire == field.wire) {
            bail!("`{}` is optional in the create but not a field of the update, which shares the create's details", field.wire);
        }
    }
    let (req, opt, upd) = (columns(&required), columns(&optional), columns(&changes));
    let (r_ident, r_doc, r_ty, r_wire) = (&req.ident, &req.doc, &req.ty, &req.wire);
    let (o_ident, o_doc, o_ty, o_wire) = (&opt.ident, &opt.doc, &opt.ty, &opt.wire);
    let (u_ident, u_doc, u_ty) = (&upd.ident, &upd.doc, &upd.ty);
    Ok(quote! {
        //! The business requests: the create, the update and the optional details
        //! they share, one field per property of the spec's
        //! `CreateBusinessRequest` (the update's are the same, optional), and their
        //! wire bodies. The rules they are checked by are core's (`business.rs`).

        use crossborder_api::types as wire;
        use crossborder_core::Violation;

        use super::convert::{one_tin, Wire};
        use super::documents::Documents;
        use super::parts::{Address, NatureOfBusiness, ProofOfAddress, SourceOfFund};
        use super::volume::MonthlyTransactionVolume;
        use crate::BusinessType;

        /// A Nigerian sub-business to create (`POST /api/business`).
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub struct CreateBusinessRequest {
            #(#[doc = #r_doc] pub #r_ident: #r_ty,)*
            /// The optional fields.
            pub details: BusinessDetails,
        }

        /// Changes to a business (`PATCH /api/business/{businessId}`): every field
        /// is optional, and each field sent is reset to `PENDING` and re-reviewed.
        /// The name and registration number cannot be changed.
        #[derive(Debug, Clone, Default, PartialEq, Eq)]
        pub struct UpdateBusinessRequest {
            #(#[doc = #u_doc] pub #u_ident: #u_ty,)*
            /// The optional fields; only those set are sent.
            pub details: BusinessDetails,
        }

        /// The optional fields of a business, shared by create and update.
        #[derive(Debug, Clone, Default, PartialEq, Eq)]
        pub struct BusinessDetails {
            #(#[doc = #o_doc] pub #o_ident: #o_ty,)*
            /// The tax identification number, sent as both `TIN` and `tin` (the
            /// service reads both spellings).
            pub tin: Option<String>,
        }

        impl CreateBusinessRequest {
            /// The request the API's JSON body of a create reads as, once the JSON
            /// checks passed (`business_check`); `TIN` and `tin` become its one TIN
            /// ([`one_tin`]).
            pub(crate) fn from_wire(request: wire::CreateBusinessRequest) -> Result<Self, Violation> {
                let wire::CreateBusinessRequest { #(#r_ident,)* #(#o_ident,)* tin, tin_uppercase } = request;
                Ok(CreateBusinessRequest {
                    #(#r_ident: Wire::from_wire(#r_ident, #r_wire)?,)*
                    details: BusinessDetails {
                        #(#o_ident: Wire::from_wire(#o_ident, #o_wire)?,)*
                        tin: one_tin(tin.as_deref(), tin_uppercase.as_deref())?.map(str::to_owned),
                    },
                })
            }

            /// The body sent.
            pub(crate) fn to_wire(&self) -> wire::CreateBusinessRequest {
                let details = &self.details;
                wire::CreateBusinessRequest {
                    #(#r_ident: self.#r_ident.to_wire(),)*
                    #(#o_ident: details.#o_ident.to_wire(),)*
                    tin: details.tin.clone(),
                    tin_uppercase: details.tin.clone(),
                }
            }
        }

        impl UpdateBusinessRequest {
            /// The body sent: only the fields set.
            pub(crate) fn to_wire(&self) -> wire::UpdateBusinessRequest {
                let details = &self.details;
                wire::UpdateBusinessRequest {
                    #(#u_ident: self.#u_ident.to_wire(),)*
                    #(#o_ident: details.#o_ident.to_wire(),)*
                    tin: details.tin.clone(),
                    tin_uppercase: details.tin.clone(),
                }
            }
        }
    })
}

fn person_request(spec: &OpenAPI) -> Result<TokenStream> {
    // A percentage is a decimal string on the wire, held exact.
    let person = views::sdk_fields(spec, "PersonRequest", &[("ownershipPercentage", "Decimal")])?;
    let (required, optional) = required_and_optional(&person, &[])?;
    let (req, opt) = (columns(&required), columns(&optional));
    let (r_ident, r_doc, r_ty, r_wire) = (&req.ident, &req.doc, &req.ty, &req.wire);
    let (o_ident, o_doc, o_ty, o_wire) = (&opt.ident, &opt.doc, &opt.ty, &opt.wire);
    Ok(quote! {
        //! A director or UBO to add: one field per property of the spec's
        //! `PersonRequest`, and its wire body. The rules it is checked by are
        //! core's (`person.rs`).

        use crossborder_api::types as wire;
        use crossborder_core::Violation;
        use rust_decimal::Decimal;

        use super::convert::Wire;
        use super::documents::DocumentLink;
        use super::parts::Address;
        use crate::IdType;

        /// A director or UBO to add (the two share one shape; the same person may
        /// be added as both).
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub struct PersonRequest {
            #(#[doc = #r_doc] pub #r_ident: #r_ty,)*
            /// The optional fields.
            pub details: PersonDetails,
        }

        /// The optional fields of a director or UBO.
        #[derive(Debug, Clone, Default, PartialEq, Eq)]
        pub struct PersonDetails {
            #(#[doc = #o_doc] pub #o_ident: #o_ty,)*
        }

        impl PersonRequest {
            /// The request the API's JSON body of a director or UBO reads as, once
            /// the JSON checks passed (`business_check`): `ownershipPercentage`, a
            /// decimal string on the wire, is held as an exact decimal (blank is
            /// absent, as the rules treat it).
            pub(crate) fn from_wire(person: wire::PersonRequest) -> Result<Self, Violation> {
                let wire::PersonRequest { #(#r_ident,)* #(#o_ident,)* } = person;
                Ok(PersonRequest {
                    #(#r_ident: Wire::from_wire(#r_ident, #r_wire)?,)*
                    details: PersonDetails {
                        #(#o_ident: Wire::from_wire(#o_ident, #o_wire)?,)*
                    },
                })
            }

            /// The body sent.
            pub(crate) fn to_wire(&self) -> wire::PersonRequest {
                let details = &self.details;
                wire::PersonRequest {
                    #(#r_ident: self.#r_ident.to_wire(),)*
                    #(#o_ident: details.#o_ident.to_wire(),)*
                }
            }
        }
    })
}

fn payout_request(texts: &[Item]) -> TokenStream {
    let Fields {
        ident, wire, doc, ..
    } = columns(texts);
    let setter_doc: Vec<String> = wire.iter().map(|w| format!("Sets `{w}`.")).collect();
    quote! {
        //! The typed payout request: its fields, setters, validation and wire
        //! body, with one optional text field per destination field of the spec's
        //! `PayoutRequest`.

        use std::time::SystemTime;

        use crossborder_api::types as wire;
        use crossborder_core::payout::{normalized, validate_payout, PayoutFields, ValidatedPayout};
        use rust_decimal::Decimal;

        use crate::error::Error;
        use crate::{Currency, Violations};

        /// A payout to a bank account or a crypto wallet (`POST /api/payout`).
        ///
        /// The `session_id` is the payout's idempotency key and tracking id: keep it,
        /// and send the same id again if you retry, so the payout is never made
        /// twice. Which destination fields are required depends on the currencies;
        /// [`PayoutRequest::validate`] (called by `payouts().create`) reports every
        /// missing or malformed field at once, with the rules of
        /// [`crossborder_core::payout`].
        ///
        /// ```
        /// use crossborder::{Currency, Decimal, types::PayoutRequest};
        ///
        /// let payout = PayoutRequest::new("payout-0001", Decimal::new(10000, 2), Currency::Usd, Currency::Ngn)
        ///     .rate_key("rk_9f2c4e1a7b3d4c5e")
        ///     .account_number("0123456789")
        ///     .account_name("ADAEZE OKAFOR")
        ///     .bank_name("Guaranty Trust Bank")
        ///     .bank_code("058")
        ///     .narration("Invoice 2291");
        /// assert!(payout.validate().is_ok());
        ///
        /// let incomplete = PayoutRequest::new("payout-0002", Decimal::new(10000, 2), Currency::Usd, Currency::Ngn);
        /// let violations = incomplete.validate().unwrap_err();
        /// assert_eq!(
        ///     violations.fields().collect::<Vec<_>>(),
        ///     ["rateKey", "accountNumber", "accountName", "bankName", "bankCode"]
        /// );
        /// ```
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub struct PayoutRequest {
            /// `sessionId`: the caller's unique id for this payout.
            pub session_id: String,
            /// `amount`: the amount debited, in `from_currency`.
            pub amount: Decimal,
            /// `fromCurrency`: the wallet debited.
            pub from_currency: Currency,
            /// `toCurrency`: the currency the recipient receives.
            pub to_currency: Currency,
            /// `narration`: free text, at most 140 characters.
            pub narration: Option<String>,
            /// When the rate key stops being usable, for a payout built with
            /// [`PayoutRequest::from_quote`]: `payouts().create` refuses the
            /// payout from then on ([`Error::QuoteExpired`]). Not sent.
            pub rate_key_valid_until: Option<SystemTime>,
            #(#[doc = #doc] pub #ident: Option<String>,)*
        }

        impl PayoutRequest {
            /// A payout of `amount` from the `from` wallet, received in `to`, under
            /// the caller's `session_id`.
            pub fn new(
                session_id: impl Into<String>,
                amount: Decimal,
                from: Currency,
                to: Currency,
            ) -> PayoutRequest {
                PayoutRequest {
                    session_id: session_id.into(),
                    amount,
                    from_currency: from,
                    to_currency: to,
                    narration: None,
                    rate_key_valid_until: None,
                    #(#ident: None,)*
                }
            }

            /// Sets `narration`.
            pub fn narration(mut self, value: impl Into<String>) -> PayoutRequest {
                self.narration = Some(value.into());
                self
            }

            #(
                #[doc = #setter_doc]
                pub fn #ident(mut self, value: impl Into<String>) -> PayoutRequest {
                    self.#ident = Some(value.into());
                    self
                }
            )*

            /// A request built from the API's wire fields (a JSON object, a
            /// CSV row, command-line flags), for callers who build payouts
            /// from data; it passes the same rules as
            /// [`validate`](PayoutRequest::validate) first and reports every
            /// violation at once.
            ///
            /// ```
            /// use crossborder::rules::payout::PayoutFields;
            /// use crossborder::{Currency, types::PayoutRequest};
            ///
            /// let fields = PayoutFields {
            ///     amount: Some("2500.00"),
            ///     from_currency: Some("NGN"),
            ///     to_currency: Some("NGN"),
            ///     session_id: Some("payout-77"),
            ///     account_number: Some("0123456789"),
            ///     account_name: Some("ADAEZE OKAFOR"),
            ///     bank_name: Some("Guaranty Trust Bank"),
            ///     bank_code: Some("058"),
            ///     ..PayoutFields::default()
            /// };
            /// let payout = PayoutRequest::from_fields(&fields).unwrap();
            /// assert_eq!(payout.to_currency, Currency::Ngn);
            /// assert_eq!(payout.amount.to_string(), "2500.00");
            ///
            /// let short = PayoutFields { bank_code: Some("5"), ..fields };
            /// assert_eq!(
            ///     PayoutRequest::from_fields(&short).unwrap_err().to_string(),
            ///     "bankCode: must be 2 to 6 digits, a bank code from the NGN bank list such as 058"
            /// );
            /// ```
            pub fn from_fields(fields: &PayoutFields<'_>) -> Result<PayoutRequest, Violations> {
                let valid = validate_payout(fields)?;
                Ok(PayoutRequest {
                    session_id: fields.session_id.unwrap_or_default().to_owned(),
                    amount: valid.amount,
                    from_currency: valid.from,
                    to_currency: valid.to,
                    narration: fields.narration.map(str::to_owned),
                    rate_key_valid_until: None,
                    #(#ident: fields.#ident.map(str::to_owned),)*
                })
            }

            /// Checks the request against every payout rule of the API and returns
            /// all violations at once.
            pub fn validate(&self) -> Result<ValidatedPayout, Violations> {
                let amount = self.amount.to_string();
                validate_payout(&PayoutFields {
                    amount: Some(&amount),
                    from_currency: Some(self.from_currency.as_str()),
                    to_currency: Some(self.to_currency.as_str()),
                    narration: self.narration.as_deref(),
                    session_id: Some(&self.session_id),
                    #(#ident: self.#ident.as_deref(),)*
                })
            }

            /// The generated request body (after validation), each value in
            /// the form it is sent in
            /// ([`normalized`](crossborder_core::payout::normalized): a sort
            /// code without dashes, an IBAN without spaces, a BIC in capitals).
            pub(crate) fn to_wire(&self) -> Result<wire::PayoutRequest, Error> {
                let invalid = |message: String| Error::InvalidRequest { message };
                Ok(wire::PayoutRequest {
                    amount: crossborder_api::decimal::DecimalString::new(self.amount),
                    from_currency: self.from_currency,
                    to_currency: self.to_currency,
                    session_id: self
                        .session_id
                        .as_str()
                        .try_into()
                        .map_err(|e| invalid(format!("sessionId: {e}")))?,
                    narration: self
                        .narration
                        .as_deref()
                        .map(|text| {
                            text.try_into()
                                .map_err(|e| invalid(format!("narration: {e}")))
                        })
                        .transpose()?,
                    #(#ident: self
                        .#ident
                        .as_deref()
                        .map(|value| normalized(#wire, value, self.to_currency).into_owned()),)*
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_spec::{model, spec, spec_with_purpose_code};

    /// Where the create's and the update's properties start in the spec.
    const CREATE: &str = "proofOfAddress, documents]\n      properties:\n";
    const UPDATE: &str = "each updated field is reset to PENDING.\n      properties:\n";
    const TAX_OFFICE: &str = "        taxOffice:\n          type: string\n";

    fn file<'f>(files: &'f [(&str, String)], path: &str) -> &'f str {
        &files.iter().find(|(p, _)| *p == path).unwrap().1
    }

    /// A field added to the spec's business and person requests reaches the
    /// SDK's typed requests: declared (required at the top, optional in the
    /// details, a `$ref` as the SDK type of that name) and converted both
    /// ways.
    #[test]
    fn new_spec_fields_reach_the_kyb_requests() {
        let spec = spec()
            .replacen(CREATE, &format!("{CREATE}{TAX_OFFICE}"), 1)
            .replacen(UPDATE, &format!("{UPDATE}{TAX_OFFICE}"), 1)
            .replacen(
                "      required: [firstName, lastName,",
                "      required: [homeAddress, firstName, lastName,",
                1,
            )
            .replacen(
                "        firstName:\n          type: string\n",
                "        homeAddress:\n          $ref: '#/components/schemas/Address'\n        firstName:\n          type: string\n",
                1,
            );
        let files = generate(&model(&spec)).unwrap();
        let business = file(&files, "crates/crossborder/src/kyb/business_request.rs");
        for line in [
            "    pub tax_office: Option<String>,\n",
            "            tax_office,\n",
            "                tax_office: Wire::from_wire(tax_office, \"taxOffice\")?,\n",
            "            tax_office: details.tax_office.to_wire(),\n",
        ] {
            assert!(business.contains(line), "{line}");
        }
        // In the create's and the update's body.
        assert_eq!(
            business
                .matches("tax_office: details.tax_office.to_wire()")
                .count(),
            2
        );
        let person = file(&files, "crates/crossborder/src/kyb/person_request.rs");
        for line in [
            "    pub home_address: Address,\n",
            "            home_address: Wire::from_wire(home_address, \"homeAddress\")?,\n",
            "            home_address: self.home_address.to_wire(),\n",
        ] {
            assert!(person.contains(line), "{line}");
        }
        // Money stays typed.
        assert!(person.contains("    pub ownership_percentage: Option<Decimal>,\n"));
    }

    /// A field added to one of the parts' schemas (`Address`) reaches the
    /// SDK's part, declared and converted both ways; the part whose required
    /// field is an enum (`ProofOfAddress`) has no `Default`.
    #[test]
    fn new_spec_fields_reach_the_kyb_parts() {
        let spec = spec().replacen(
            "        zipCode:\n          type: string\n        subdivision:\n",
            "        zipCode:\n          type: string\n        landmark:\n          type: string\n          description: A place nearby.\n        subdivision:\n",
            1,
        );
        let files = generate(&model(&spec)).unwrap();
        let parts = file(&files, PARTS_PATH);
        for line in [
            "    ///`landmark`: A place nearby.\n    pub landmark: Option<String>,\n",
            "            landmark: self.landmark.to_wire(),\n",
            "            landmark: Wire::from_wire(wire.landmark, \"landmark\")?,\n",
            "            kind: Wire::from_wire(wire.type_, \"type\")?,\n",
            "#[derive(Debug, Clone, PartialEq, Eq)]\npub struct ProofOfAddress {\n",
            "#[derive(Debug, Clone, Default, PartialEq, Eq)]\npub struct Address {\n",
        ] {
            assert!(parts.contains(line), "{line}");
        }
    }

    /// An optional field of the create that the update lacks cannot share
    /// the details: the generation says so.
    #[test]
    fn a_create_field_missing_from_the_update_is_refused() {
        let spec = spec().replacen(CREATE, &format!("{CREATE}{TAX_OFFICE}"), 1);
        assert_eq!(
            format!("{:#}", generate(&model(&spec)).unwrap_err()),
            "`taxOffice` is optional in the create but not a field of the update, which shares the create's details"
        );
    }

    /// A text field added to the spec's payout request reaches the SDK's
    /// typed request: its field, its setter, its validation and its wire body.
    #[test]
    fn a_new_spec_field_reaches_the_sdk_request() {
        let spec = spec_with_purpose_code();
        let files = generate(&model(&spec)).unwrap();
        let (path, payout) = &files[0];
        assert_eq!(*path, "crates/crossborder/src/types/payout_request.rs");
        assert!(payout.contains("    pub purpose_code: Option<String>,\n"));
        assert!(payout.contains(
            "    pub fn purpose_code(mut self, value: impl Into<String>) -> PayoutRequest {"
        ));
        assert!(payout.contains("purpose_code: self.purpose_code.as_deref(),"));
        assert!(payout.contains("normalized(\"purposeCode\", value, self.to_currency)"));
    }
}
