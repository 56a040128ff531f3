//! The business (sub-business) request of `POST /api/business` and
//! `PATCH /api/business/{businessId}`, and its rules.

use std::collections::BTreeSet;

use crate::currency::Currency;
use crate::kyb::contact::{is_e164_phone_number, is_email, EMAIL_MESSAGE, PHONE_MESSAGE};
use crate::kyb::documents::{missing_documents, DocumentKeyError, DocumentKeyRule, DocumentType};
use crate::kyb::enums::{BusinessType, ProofOfAddressType};
use crate::kyb::Mode;
use crate::money::parse_amount;
use crate::url::check_link;
use crate::views::{
    BusinessFields, DocumentRefFields, MonthlyTransactionVolumeFields, SourceOfFundFields,
};
use crate::violation::{present, Collector, Rule, Violation, Violations};
use crate::wire_enum::one_of;

/// Checks a `POST /api/business` request and reports every violation at once,
/// in the order of the specification's field table.
///
/// Required: `name`, `businessType`, `registrationNumber`, `email`,
/// `phoneNumber`, `natureOfBusiness.nature` and `.code`, the five required
/// parts of `businessAddress` (and of `operatingAddress` when it is sent),
/// `proofOfAddress.url`, `.key` and `.type`, and the documents the business
/// type requires (see [`missing_documents`]); when sent,
/// `monthlyTransactionVolume` needs a supported `currency` and a decimal
/// `amount`, and `sourceOfFund` its `type`. Each document key must be
/// recognised (`documents.<key>: Unrecognized document key: <key>`) and name
/// a type no other key names, and each document needs its `url` and `key`
/// (`documents.<key>.url: is required`). When `businessType` is valid, each missing requirement is
/// reported on `documents` as `missing <requirement>`; when it is not, an
/// empty documents map is reported as `documents: is required`.
///
/// ```
/// use crossborder_core::kyb::{validate_business_create, BusinessFields};
///
/// let fields = BusinessFields {
///     business_type: Some("Partnership"),
///     ..BusinessFields::default()
/// };
/// let violations = validate_business_create(&fields).unwrap_err();
/// assert_eq!(violations[1].to_string(), "businessType: must be one of LLC, LLP, SoleProprietorship");
/// ```
pub fn validate_business_create(fields: &BusinessFields<'_>) -> Result<(), Violations> {
    validate_business(fields, Mode::Create, DocumentKeyRule::Tolerant)
}

/// [`validate_business_create`] with the document keys read by `keys`:
/// the sandbox reads them by the specification's rule
/// ([`DocumentKeyRule::Described`], ASSUMPTIONS D42), the SDK loosely
/// ([`DocumentKeyRule::Tolerant`], what [`validate_business_create`] does).
///
/// ```
/// use crossborder_core::kyb::{validate_business_create_with, BusinessFields, DocumentKeyRule, DocumentRefFields};
///
/// let link = DocumentRefFields { url: Some("https://files.example/s.pdf"), key: Some("s") };
/// let fields = BusinessFields { documents: vec![("bn1", link)], ..BusinessFields::default() };
/// let refused = validate_business_create_with(&fields, DocumentKeyRule::Described).unwrap_err();
/// assert!(refused.iter().any(|v| v.to_string() == "documents.bn1: Unrecognized document key: bn1"));
/// let loose = validate_business_create_with(&fields, DocumentKeyRule::Tolerant).unwrap_err();
/// assert!(!loose.iter().any(|v| v.field == "documents.bn1"));
/// ```
pub fn validate_business_create_with(
    fields: &BusinessFields<'_>,
    keys: DocumentKeyRule,
) -> Result<(), Violations> {
    validate_business(fields, Mode::Create, keys)
}

/// Checks a `PATCH /api/business/{businessId}` request: every top-level
/// field is optional, but a field that is sent must be valid and not blank,
/// and an object that is sent is whole (every part its schema requires;
/// ASSUMPTIONS C6). `name`
/// and `registrationNumber` cannot be updated. Document keys that are sent
/// must be recognised and distinct, each with its `url` and `key`; the
/// required set is not enforced, since
/// an update sends only what changes. For the same reason `hasWebsite: true`
/// does not require `businessWebsite` (the stored record may have one).
///
/// ```
/// use crossborder_core::kyb::{validate_business_update, BusinessFields, DocumentRefFields};
///
/// let certificate = DocumentRefFields { url: Some("https://files.example/tcc.pdf"), key: Some("tcc") };
/// let fields = BusinessFields {
///     documents: vec![("tax_clearance_certificate", certificate)],
///     ..BusinessFields::default()
/// };
/// assert!(validate_business_update(&fields).is_ok());
///
/// let fields = BusinessFields {
///     documents: vec![("tax_clearance_certificate", DocumentRefFields { key: None, ..certificate })],
///     ..BusinessFields::default()
/// };
/// assert_eq!(
///     validate_business_update(&fields).unwrap_err().to_string(),
///     "documents.tax_clearance_certificate.key: is required"
/// );
///
/// let fields = BusinessFields { name: Some("New name"), ..BusinessFields::default() };
/// assert_eq!(
///     validate_business_update(&fields).unwrap_err().to_string(),
///     "name: cannot be changed after creation"
/// );
/// ```
pub fn validate_business_update(fields: &BusinessFields<'_>) -> Result<(), Violations> {
    validate_business(fields, Mode::Update, DocumentKeyRule::Tolerant)
}

/// [`validate_business_update`] with the document keys read by `keys`, as
/// [`validate_business_create_with`].
pub fn validate_business_update_with(
    fields: &BusinessFields<'_>,
    keys: DocumentKeyRule,
) -> Result<(), Violations> {
    validate_business(fields, Mode::Update, keys)
}

fn validate_business(
    fields: &BusinessFields<'_>,
    mode: Mode,
    keys: DocumentKeyRule,
) -> Result<(), Violations> {
    let mut collector = Collector::default();

    mode.fixed(&mut collector, "name", fields.name);

    let business_type = mode
        .field(&mut collector, "businessType", fields.business_type)
        .and_then(|text| match text.parse::<BusinessType>() {
            Ok(business_type) => Some(business_type),
            Err(_) => {
                collector.push(
                    "businessType",
                    Rule::NotOneOf,
                    format!(
                        "must be one of {}",
                        one_of(&BusinessType::ALL, BusinessType::as_str)
                    ),
                );
                None
            }
        });

    mode.fixed(
        &mut collector,
        "registrationNumber",
        fields.registration_number,
    );

    if let Some(email) = mode.field(&mut collector, "email", fields.email) {
        if !is_email(email) {
            collector.push("email", Rule::InvalidFormat, EMAIL_MESSAGE);
        }
    }
    if let Some(phone) = mode.field(&mut collector, "phoneNumber", fields.phone_number) {
        if !is_e164_phone_number(phone) {
            collector.push("phoneNumber", Rule::InvalidFormat, PHONE_MESSAGE);
        }
    }

    // An object sent on update is complete, as its schema requires: only
    // the top-level fields of an update are optional.
    let whole = |sent: bool| if sent { Mode::Create } else { mode };

    let nature = &fields.nature_of_business;
    let nature_mode = whole(nature.nature.is_some() || nature.code.is_some());
    nature_mode.field(&mut collector, "natureOfBusiness.nature", nature.nature);
    nature_mode.field(&mut collector, "natureOfBusiness.code", nature.code);

    let address = &fields.business_address;
    address.check(
        &mut collector,
        "businessAddress",
        whole(!address.is_empty()),
    );
    if let Some(address) = &fields.operating_address {
        address.check(&mut collector, "operatingAddress", Mode::Create);
    }

    let proof = &fields.proof_of_address;
    let proof_mode = whole(proof.url.is_some() || proof.key.is_some() || proof.kind.is_some());
    let proof_url = proof_mode.field(&mut collector, "proofOfAddress.url", proof.url);
    check_link(&mut collector, "proofOfAddress.url", proof_url);
    proof_mode.field(&mut collector, "proofOfAddress.key", proof.key);
    if let Some(kind) = proof_mode.field(&mut collector, "proofOfAddress.type", proof.kind) {
        if kind.parse::<ProofOfAddressType>().is_err() {
            collector.push(
                "proofOfAddress.type",
                Rule::NotOneOf,
                format!(
                    "must be one of {}",
                    one_of(&ProofOfAddressType::ALL, ProofOfAddressType::as_str)
                ),
            );
        }
    }

    check_documents(&mut collector, &fields.documents, business_type, mode, keys);

    if let Some(volume) = &fields.monthly_transaction_volume {
        check_volume(&mut collector, volume);
    }

    if mode == Mode::Create && fields.has_website == Some(true) {
        if present(fields.business_website).is_none() {
            collector.push(
                BusinessFields::BUSINESS_WEBSITE,
                Rule::Required,
                "is required when hasWebsite is true",
            );
        }
    } else if mode == Mode::Update {
        let website = fields.business_website;
        mode.field(&mut collector, BusinessFields::BUSINESS_WEBSITE, website);
    }

    if let Some(source) = &fields.source_of_fund {
        let url = format!(
            "{}.{}",
            BusinessFields::SOURCE_OF_FUND,
            SourceOfFundFields::URL
        );
        check_link(&mut collector, url, present(source.url));
        collector.require(
            format!(
                "{}.{}",
                BusinessFields::SOURCE_OF_FUND,
                SourceOfFundFields::KIND
            ),
            source.kind,
        );
    }

    collector.finish(|| ())
}

/// The expected monthly volume, when sent: a supported currency and an
/// exact decimal amount (the spec's sample carries it as a string).
fn check_volume(collector: &mut Collector, volume: &MonthlyTransactionVolumeFields<'_>) {
    let field = |part: &str| format!("{}.{part}", BusinessFields::MONTHLY_TRANSACTION_VOLUME);
    let currency = field(MonthlyTransactionVolumeFields::CURRENCY);
    if let Some(code) = collector.require(currency.clone(), volume.currency) {
        if let Err(error) = code.parse::<Currency>() {
            collector.push(currency, Rule::UnknownCurrency, error.to_string());
        }
    }
    let amount = field(MonthlyTransactionVolumeFields::AMOUNT);
    if let Some(text) = collector.require(amount.clone(), volume.amount) {
        if parse_amount(text).is_err() {
            collector.push(
                amount,
                Rule::InvalidFormat,
                "must be a decimal number such as 1500.50",
            );
        }
    }
}

/// Reports unrecognised and duplicate keys on `documents.<key>` and missing
/// parts of each `{ url, key }` on `documents.<key>.url` and `.key`, then (on
/// create) the missing requirements on `documents`.
fn check_documents(
    collector: &mut Collector,
    documents: &[(&str, DocumentRefFields<'_>)],
    business_type: Option<BusinessType>,
    mode: Mode,
    keys: DocumentKeyRule,
) {
    let mut present = BTreeSet::new();
    let mut first_keys: Vec<(DocumentType, &str)> = Vec::new();
    for (key, link) in documents {
        match keys.document_type(key) {
            Err(unknown) => collector.push(
                format!("documents.{key}"),
                Rule::UnknownDocumentKey,
                unknown.to_string(),
            ),
            Ok(document) => {
                if let Some((_, first)) = first_keys.iter().find(|(seen, _)| *seen == document) {
                    let duplicate = DocumentKeyError::Duplicate {
                        first: (*first).to_owned(),
                        second: (*key).to_owned(),
                        document,
                    };
                    collector.push(
                        format!("documents.{key}"),
                        Rule::DuplicateDocument,
                        duplicate.to_string(),
                    );
                } else {
                    first_keys.push((document, key));
                    present.insert(document);
                }
            }
        }
        link.check(collector, &format!("documents.{key}"));
    }

    if mode == Mode::Update {
        return;
    }
    match business_type {
        Some(business_type) => {
            for requirement in missing_documents(business_type, &present) {
                collector.push(
                    "documents",
                    Rule::MissingDocument,
                    format!("missing {requirement}"),
                );
            }
        }
        None if documents.is_empty() => collector.push("documents", Rule::Required, "is required"),
        None => {}
    }
}

/// The violation of an update that changes nothing: it would go out as
/// `{}` (ASSUMPTIONS C18). The typed update and the JSON check both give it.
pub fn nothing_to_update() -> Violation {
    Violation::new(
        "body",
        Rule::NothingToUpdate,
        "an update must change at least one field",
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{messages, one, violations};
    use crate::views::{AddressFields, NatureOfBusinessFields, ProofOfAddressFields};

    /// Documents map entries with both parts of each `{ url, key }`.
    fn documents(keys: &[&'static str]) -> Vec<(&'static str, DocumentRefFields<'static>)> {
        keys.iter()
            .map(|key| {
                let link = DocumentRefFields {
                    url: Some("https://files.example/doc.pdf"),
                    key: Some(key),
                };
                (*key, link)
            })
            .collect()
    }

    fn complete() -> BusinessFields<'static> {
        BusinessFields {
            name: Some("Acme Trading Ltd"),
            business_type: Some("LLC"),
            registration_number: Some("RC1234567"),
            email: Some("ops@acme.ng"),
            phone_number: Some("+2348012345678"),
            nature_of_business: NatureOfBusinessFields {
                nature: Some("Import and export"),
                code: Some("4690"),
            },
            business_address: AddressFields {
                house_number: Some("12"),
                street: Some("Marina Road"),
                city: Some("Lagos"),
                state: Some("Lagos"),
                zip_code: Some("101001"),
                subdivision: None,
            },
            proof_of_address: ProofOfAddressFields {
                url: Some("https://files.example/poa.pdf"),
                key: Some("poa-1"),
                kind: Some("Utility bill"),
            },
            operating_address: None,
            documents: documents(&[
                "cac",
                "bank_statement",
                "application_letter",
                "cac_status_report",
            ]),
            has_website: Some(false),
            ..BusinessFields::default()
        }
    }

    /// ASSUMPTIONS D44: every link of a KYB request is an absolute http(s)
    /// URL, with the one message, on create and on update, for the SDK and
    /// the sandbox alike (both call these rules).
    #[test]
    fn every_link_is_an_absolute_http_url() {
        for bad in [
            "not a url",
            "files.example/a.pdf",
            "ftp://files.example/a.pdf",
            "https://",
            "https://files.example/a b.pdf",
        ] {
            let mut fields = complete();
            fields.proof_of_address.url = Some(bad);
            fields.documents[0].1.url = Some(bad);
            fields.source_of_fund = Some(SourceOfFundFields {
                url: Some(bad),
                kind: Some("Revenue"),
                name: None,
            });
            let expected = [
                "proofOfAddress.url: must be an absolute http or https URL",
                "documents.cac.url: must be an absolute http or https URL",
                "sourceOfFund.url: must be an absolute http or https URL",
            ];
            assert_eq!(
                messages(validate_business_create(&fields)),
                expected,
                "{bad}"
            );
            let described = validate_business_create_with(&fields, DocumentKeyRule::Described);
            assert_eq!(messages(described), expected, "{bad}");
            let update = BusinessFields {
                proof_of_address: fields.proof_of_address,
                documents: fields.documents.clone(),
                source_of_fund: fields.source_of_fund,
                ..BusinessFields::default()
            };
            assert_eq!(
                messages(validate_business_update(&update)),
                expected,
                "{bad}"
            );
        }
        for good in [
            "https://files.example/a.pdf",
            "http://127.0.0.1:8080/v1/files/a",
        ] {
            let mut fields = complete();
            fields.proof_of_address.url = Some(good);
            fields.documents[0].1.url = Some(good);
            fields.source_of_fund = Some(SourceOfFundFields {
                url: Some(good),
                kind: Some("Revenue"),
                name: None,
            });
            assert!(validate_business_create(&fields).is_ok(), "{good}");
        }
    }

    #[test]
    fn wire_strings() {
        assert_eq!(
            BusinessType::ALL.map(BusinessType::as_str),
            ["LLC", "LLP", "SoleProprietorship"]
        );
        assert_eq!(
            ProofOfAddressType::ALL.map(ProofOfAddressType::as_str),
            [
                "Utility bill",
                "Tax Bill",
                "Electricity Bill",
                "Lease agreement",
                "Tenancy agreement",
                "Recent utility bill",
                "Council tax bill",
            ]
        );
        for kind in ProofOfAddressType::ALL {
            assert_eq!(kind.as_str().parse::<ProofOfAddressType>(), Ok(kind));
        }
        assert_eq!(
            "utility bill".parse::<ProofOfAddressType>().unwrap_err().to_string(),
            "Invalid proof of address type: utility bill (expected one of Utility bill, Tax Bill, \
             Electricity Bill, Lease agreement, Tenancy agreement, Recent utility bill, Council tax bill)"
        );
        assert_eq!(
            "Llc".parse::<BusinessType>().unwrap_err().to_string(),
            "Invalid business type: Llc (expected one of LLC, LLP, SoleProprietorship)"
        );
        assert_eq!(
            serde_json::to_string(&BusinessType::Llp).unwrap(),
            "\"LLP\""
        );
    }

    #[test]
    fn a_complete_business_is_valid_for_every_type() {
        for business_type in BusinessType::ALL {
            let fields = BusinessFields {
                business_type: Some(business_type.as_str()),
                ..complete()
            };
            assert_eq!(violations(validate_business_create(&fields)), Vec::new());
        }
    }

    #[test]
    fn every_required_field_is_named() {
        let error = validate_business_create(&BusinessFields::default()).unwrap_err();
        assert_eq!(
            error.fields().collect::<Vec<_>>(),
            [
                "name",
                "businessType",
                "registrationNumber",
                "email",
                "phoneNumber",
                "natureOfBusiness.nature",
                "natureOfBusiness.code",
                "businessAddress.houseNumber",
                "businessAddress.street",
                "businessAddress.city",
                "businessAddress.state",
                "businessAddress.zipCode",
                "proofOfAddress.url",
                "proofOfAddress.key",
                "proofOfAddress.type",
                "documents",
            ]
        );
        assert!(error
            .iter()
            .all(|v| v.rule == Rule::Required && v.message == "is required"));
    }

    #[test]
    fn field_rules() {
        type Edit = fn(&mut BusinessFields<'static>);
        let table: [(Edit, &str, Rule, &str); 12] = [
            (|f| f.name = Some("  "), "name", Rule::Required, "is required"),
            (|f| f.business_type = Some("Partnership"), "businessType", Rule::NotOneOf, "must be one of LLC, LLP, SoleProprietorship"),
            (|f| f.business_type = Some("llc"), "businessType", Rule::NotOneOf, "must be one of LLC, LLP, SoleProprietorship"),
            (|f| f.registration_number = Some(""), "registrationNumber", Rule::Required, "is required"),
            (|f| f.email = Some("ops.acme.ng"), "email", Rule::InvalidFormat, "must be an email address such as name@example.com"),
            (|f| f.phone_number = Some("08012345678"), "phoneNumber", Rule::InvalidFormat, "must be in E.164 format, such as +2348012345678"),
            (|f| f.phone_number = Some("+234 801 234 5678"), "phoneNumber", Rule::InvalidFormat, "must be in E.164 format, such as +2348012345678"),
            (|f| f.nature_of_business.code = None, "natureOfBusiness.code", Rule::Required, "is required"),
            (|f| f.business_address.zip_code = Some(" "), "businessAddress.zipCode", Rule::Required, "is required"),
            (|f| f.proof_of_address.kind = Some("Bank statement"), "proofOfAddress.type", Rule::NotOneOf, "must be one of Utility bill, Tax Bill, Electricity Bill, Lease agreement, Tenancy agreement, Recent utility bill, Council tax bill"),
            (|f| f.proof_of_address.url = None, "proofOfAddress.url", Rule::Required, "is required"),
            (|f| f.has_website = Some(true), "businessWebsite", Rule::Required, "is required when hasWebsite is true"),
        ];
        for (edit, field, rule, message) in table {
            let mut fields = complete();
            edit(&mut fields);
            assert_eq!(
                violations(validate_business_create(&fields)),
                one(field, rule, message),
                "{field}"
            );
        }
        // Optional parts and a website when there is one.
        let fields = BusinessFields {
            has_website: Some(true),
            business_website: Some("https://acme.ng"),
            business_address: AddressFields {
                subdivision: Some("Ikoyi"),
                ..complete().business_address
            },
            ..complete()
        };
        assert_eq!(violations(validate_business_create(&fields)), Vec::new());
    }

    #[test]
    fn document_keys_are_checked_one_by_one() {
        let fields = BusinessFields {
            documents: documents(&[
                "cac",
                "bank_statement",
                "selfie",
                "application_letter",
                "bn1",
                "cac_document",
            ]),
            ..complete()
        };
        assert_eq!(
            violations(validate_business_create(&fields)),
            vec![
                ("documents.selfie".to_owned(), Rule::UnknownDocumentKey, "Unrecognized document key: selfie".to_owned()),
                (
                    "documents.cac_document".to_owned(),
                    Rule::DuplicateDocument,
                    "Duplicate document: cac and cac_document both map to CERTIFICATE_OF_INCORPORATION".to_owned()
                ),
            ]
        );
    }

    #[test]
    fn missing_documents_are_reported_per_requirement() {
        let fields = BusinessFields {
            business_type: Some("SoleProprietorship"),
            documents: documents(&["business_license"]),
            ..complete()
        };
        assert_eq!(
            violations(validate_business_create(&fields)),
            vec![
                (
                    "documents".to_owned(),
                    Rule::MissingDocument,
                    "missing a six-month bank statement (bank_statement)".to_owned()
                ),
                (
                    "documents".to_owned(),
                    Rule::MissingDocument,
                    "missing an application letter (application_letter)".to_owned()
                ),
                (
                    "documents".to_owned(),
                    Rule::MissingDocument,
                    "missing a CAC status report (cac_status_report) or a BN Form 1 (bn_form_1)"
                        .to_owned()
                ),
            ]
        );
        let fields = BusinessFields {
            documents: Vec::new(),
            ..complete()
        };
        assert_eq!(
            messages(validate_business_create(&fields)),
            [
                "documents: missing a certificate of incorporation (cac_document, cac, certificate_of_incorporation) or a business license (business_license)",
                "documents: missing a six-month bank statement (bank_statement)",
                "documents: missing an application letter (application_letter)",
                "documents: missing a CAC status report (cac_status_report) or a BN Form 1 (bn_form_1)",
            ]
        );
        // An unknown type cannot say what is missing, so no noise; unknown keys still count.
        let fields = BusinessFields {
            business_type: Some("NGO"),
            documents: documents(&["passport"]),
            ..complete()
        };
        assert_eq!(
            violations(validate_business_create(&fields))
                .into_iter()
                .map(|v| v.0)
                .collect::<Vec<_>>(),
            ["businessType", "documents.passport"]
        );
    }

    #[test]
    fn update_checks_only_what_is_sent() {
        assert_eq!(
            violations(validate_business_update(&BusinessFields::default())),
            Vec::new()
        );
        let fields = BusinessFields {
            email: Some("ops@acme.ng"),
            phone_number: Some("+2348012345678"),
            business_type: Some("LLP"),
            documents: documents(&["memart"]),
            ..BusinessFields::default()
        };
        assert_eq!(violations(validate_business_update(&fields)), Vec::new());

        let fields = BusinessFields {
            name: Some("Acme"),
            business_type: Some("Coop"),
            registration_number: Some("RC1"),
            email: Some(""),
            phone_number: Some("+0123"),
            business_address: AddressFields {
                city: Some(" "),
                subdivision: Some(""),
                ..AddressFields::default()
            },
            proof_of_address: ProofOfAddressFields {
                kind: Some("Selfie"),
                ..ProofOfAddressFields::default()
            },
            documents: documents(&["cv"]),
            has_website: Some(true),
            business_website: Some(""),
            ..BusinessFields::default()
        };
        assert_eq!(
            messages(validate_business_update(&fields)),
            [
                "name: cannot be changed after creation",
                "businessType: must be one of LLC, LLP, SoleProprietorship",
                "registrationNumber: cannot be changed after creation",
                "email: must not be empty",
                "phoneNumber: must be in E.164 format, such as +2348012345678",
                // An object sent on update is whole, as its schema requires.
                "businessAddress.houseNumber: is required",
                "businessAddress.street: is required",
                "businessAddress.city: is required",
                "businessAddress.state: is required",
                "businessAddress.zipCode: is required",
                "proofOfAddress.url: is required",
                "proofOfAddress.key: is required",
                "proofOfAddress.type: must be one of Utility bill, Tax Bill, Electricity Bill, Lease agreement, Tenancy agreement, Recent utility bill, Council tax bill",
                "documents.cv: Unrecognized document key: cv",
                "businessWebsite: must not be empty",
            ]
        );
    }

    /// ASSUMPTIONS C8: `businessWebsite` is required on create when
    /// `hasWebsite` is true, never on update (the stored record may have
    /// it), and never empty when sent.
    #[test]
    fn a_website_is_required_on_create_only() {
        let declared = BusinessFields {
            has_website: Some(true),
            ..complete()
        };
        assert_eq!(
            violations(validate_business_create(&declared)),
            one(
                "businessWebsite",
                Rule::Required,
                "is required when hasWebsite is true"
            )
        );
        let update = BusinessFields {
            has_website: Some(true),
            ..BusinessFields::default()
        };
        assert_eq!(violations(validate_business_update(&update)), Vec::new());
        let with_site = BusinessFields {
            business_website: Some("https://acme.ng"),
            ..declared
        };
        assert_eq!(violations(validate_business_create(&with_site)), Vec::new());
        let without = BusinessFields {
            has_website: Some(false),
            ..complete()
        };
        assert_eq!(violations(validate_business_create(&without)), Vec::new());
    }

    #[test]
    fn operating_address_has_the_rules_of_business_address_when_sent() {
        let operating = AddressFields {
            street: Some(" "),
            ..complete().business_address
        };
        let fields = BusinessFields {
            operating_address: Some(operating),
            ..complete()
        };
        assert_eq!(
            violations(validate_business_create(&fields)),
            one("operatingAddress.street", Rule::Required, "is required")
        );
        let fields = BusinessFields {
            operating_address: Some(AddressFields::default()),
            ..complete()
        };
        assert_eq!(
            validate_business_create(&fields)
                .unwrap_err()
                .fields()
                .collect::<Vec<_>>(),
            [
                "operatingAddress.houseNumber",
                "operatingAddress.street",
                "operatingAddress.city",
                "operatingAddress.state",
                "operatingAddress.zipCode",
            ]
        );
        let fields = BusinessFields {
            operating_address: Some(complete().business_address),
            ..complete()
        };
        assert_eq!(violations(validate_business_create(&fields)), Vec::new());

        // An update sends whole objects: the schema's required parts too.
        let fields = BusinessFields {
            operating_address: Some(AddressFields {
                zip_code: Some(""),
                ..complete().business_address
            }),
            ..BusinessFields::default()
        };
        assert_eq!(
            violations(validate_business_update(&fields)),
            one("operatingAddress.zipCode", Rule::Required, "is required")
        );
    }

    /// ASSUMPTIONS C6: `natureOfBusiness` sent on update is whole, as
    /// every object of an update is.
    #[test]
    fn nature_of_business_sent_on_update_is_whole() {
        let update = BusinessFields {
            nature_of_business: NatureOfBusinessFields {
                nature: Some("Retail"),
                code: None,
            },
            ..BusinessFields::default()
        };
        assert_eq!(
            violations(validate_business_update(&update)),
            one("natureOfBusiness.code", Rule::Required, "is required")
        );
    }

    #[test]
    fn each_document_needs_its_url_and_key() {
        let mut fields = complete();
        fields.documents[1].1.url = Some(" ");
        fields.documents[3].1 = DocumentRefFields::default();
        assert_eq!(
            validate_business_create(&fields)
                .unwrap_err()
                .iter()
                .map(|v| (v.field.as_ref(), v.rule))
                .collect::<Vec<_>>(),
            [
                ("documents.bank_statement.url", Rule::Required),
                ("documents.cac_status_report.url", Rule::Required),
                ("documents.cac_status_report.key", Rule::Required),
            ]
        );
        // On update too: a document that is sent must be complete.
        let fields = BusinessFields {
            documents: vec![("memart", DocumentRefFields::default())],
            ..BusinessFields::default()
        };
        assert_eq!(
            validate_business_update(&fields).unwrap_err().to_string(),
            "documents.memart.url: is required; documents.memart.key: is required"
        );
    }

    /// The rules of the optional nested objects hold on create and update
    /// alike: sent means complete.
    #[test]
    fn monthly_volume_and_source_of_fund_when_sent() {
        use crate::views::{MonthlyTransactionVolumeFields, SourceOfFundFields};

        let fields = BusinessFields {
            monthly_transaction_volume: Some(MonthlyTransactionVolumeFields {
                currency: Some("ZZZ"),
                amount: Some("12,5"),
            }),
            source_of_fund: Some(SourceOfFundFields {
                url: Some("https://files.example/sof.pdf"),
                ..SourceOfFundFields::default()
            }),
            ..complete()
        };
        let expected = vec![
            (
                "monthlyTransactionVolume.currency".to_owned(),
                Rule::UnknownCurrency,
                "Invalid currency: ZZZ".to_owned(),
            ),
            (
                "monthlyTransactionVolume.amount".to_owned(),
                Rule::InvalidFormat,
                "must be a decimal number such as 1500.50".to_owned(),
            ),
            (
                "sourceOfFund.type".to_owned(),
                Rule::Required,
                "is required".to_owned(),
            ),
        ];
        assert_eq!(violations(validate_business_create(&fields)), expected);
        let update = BusinessFields {
            monthly_transaction_volume: fields.monthly_transaction_volume,
            source_of_fund: fields.source_of_fund,
            ..BusinessFields::default()
        };
        assert_eq!(violations(validate_business_update(&update)), expected);

        let empty = BusinessFields {
            monthly_transaction_volume: Some(MonthlyTransactionVolumeFields::default()),
            ..complete()
        };
        assert_eq!(
            violations(validate_business_create(&empty)),
            [
                (
                    "monthlyTransactionVolume.currency",
                    Rule::Required,
                    "is required"
                ),
                (
                    "monthlyTransactionVolume.amount",
                    Rule::Required,
                    "is required"
                ),
            ]
            .map(|(f, r, m)| (f.to_owned(), r, m.to_owned()))
        );
        let valid = BusinessFields {
            monthly_transaction_volume: Some(MonthlyTransactionVolumeFields {
                currency: Some("NGN"),
                amount: Some("2500000.00"),
            }),
            source_of_fund: Some(SourceOfFundFields {
                kind: Some("Revenue"),
                ..SourceOfFundFields::default()
            }),
            ..complete()
        };
        assert_eq!(violations(validate_business_create(&valid)), []);
    }
}
