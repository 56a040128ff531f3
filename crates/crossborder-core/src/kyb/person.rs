//! The director and UBO request of `POST /api/business/{businessId}/director`
//! and `/ubo` (one shape for both), and its rules.

use rust_decimal::Decimal;

use crate::kyb::contact::{is_e164_phone_number, is_email, EMAIL_MESSAGE, PHONE_MESSAGE};
use crate::kyb::enums::{IdType, PersonRole};
use crate::money::parse_amount;
use crate::url::check_link;
use crate::views::PersonFields;
use crate::violation::{present, Collector, Rule, Violations};
use crate::wire_enum::one_of;

const DATE_MESSAGE: &str = "must be a date in the form YYYY-MM-DD, such as 1990-04-25";
const PERCENTAGE_MESSAGE: &str = "must be a percentage greater than 0 and at most 100";
const BVN_MESSAGE: &str = "must be 11 digits";
const NATIONALITY_MESSAGE: &str = "must be an ISO 3166-1 alpha-2 country code, such as NG";

/// Checks a director or UBO request and reports every violation at once, in
/// field order.
///
/// The specification gives directors and UBOs the same shape, so `role`
/// changes no rule today; it is part of the signature so a role-specific
/// rule can be added without changing callers. Optional fields sent blank
/// are treated as absent.
///
/// ```
/// use crossborder_core::kyb::{validate_person, PersonFields, PersonRole};
///
/// let fields = PersonFields { date_of_birth: Some("1990-02-30"), ..PersonFields::default() };
/// let violations = validate_person(&fields, PersonRole::Ubo).unwrap_err();
/// assert_eq!(violations[2].to_string(), "dateOfBirth: is not a real calendar date");
/// ```
pub fn validate_person(fields: &PersonFields<'_>, role: PersonRole) -> Result<(), Violations> {
    // Same rules for both roles (see above).
    let _ = role;
    let mut collector = Collector::default();

    collector.require("firstName", fields.first_name);
    collector.require("lastName", fields.last_name);
    if let Some(date) = collector.require("dateOfBirth", fields.date_of_birth) {
        if let Err((rule, message)) = check_date(date) {
            collector.push("dateOfBirth", rule, message);
        }
    }
    if let Some(code) = collector.require("nationality", fields.nationality) {
        if !(code.len() == 2 && code.bytes().all(|b| b.is_ascii_uppercase())) {
            collector.push("nationality", Rule::InvalidFormat, NATIONALITY_MESSAGE);
        }
    }
    if let Some(phone) = collector.require("phoneNumber", fields.phone_number) {
        if !is_e164_phone_number(phone) {
            collector.push("phoneNumber", Rule::InvalidFormat, PHONE_MESSAGE);
        }
    }
    collector.require("idNumber", fields.id_number);
    if let Some(id_type) = collector.require("idType", fields.id_type) {
        if id_type.parse::<IdType>().is_err() {
            collector.push(
                "idType",
                Rule::NotOneOf,
                format!("must be one of {}", one_of(&IdType::ALL, IdType::as_str)),
            );
        }
    }
    let url = collector.require("idDocumentUrl", fields.id_document_url);
    check_link(&mut collector, "idDocumentUrl", url);

    fields
        .address
        .check(&mut collector, "address", crate::kyb::Mode::Create);
    fields.document.check(&mut collector, "document");
    if let Some(additional) = &fields.additional_document {
        additional.check(&mut collector, "additionalDocument");
    }

    if let Some(email) = present(fields.email) {
        if !is_email(email) {
            collector.push("email", Rule::InvalidFormat, EMAIL_MESSAGE);
        }
    }
    if let Some(percentage) = present(fields.ownership_percentage) {
        if let Err(rule) = check_percentage(percentage) {
            collector.push("ownershipPercentage", rule, PERCENTAGE_MESSAGE);
        }
    }
    if let Some(bvn) = present(fields.bvn) {
        if bvn.len() != 11 || !bvn.bytes().all(|b| b.is_ascii_digit()) {
            collector.push("bvn", Rule::InvalidFormat, BVN_MESSAGE);
        }
    }

    collector.finish(|| ())
}

/// Checks `YYYY-MM-DD`: the shape, then that the date exists (leap years
/// included) and is not before 1900. Whether it is in the future needs a
/// clock, which this crate does not read.
fn check_date(text: &str) -> Result<(), (Rule, &'static str)> {
    let bytes = text.as_bytes();
    let shaped = bytes.len() == 10
        && bytes[4] == b'-'
        && bytes[7] == b'-'
        && bytes
            .iter()
            .enumerate()
            .all(|(index, b)| index == 4 || index == 7 || b.is_ascii_digit());
    if !shaped {
        return Err((Rule::InvalidFormat, DATE_MESSAGE));
    }
    let number = |range: std::ops::Range<usize>| {
        text.get(range)
            .and_then(|part| part.parse::<u32>().ok())
            .unwrap_or(0)
    };
    let (year, month, day) = (number(0..4), number(5..7), number(8..10));
    if year < 1900 {
        return Err((Rule::OutOfRange, "must not be before 1900-01-01"));
    }
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    let days_in_month = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => 0,
    };
    if day == 0 || day > days_in_month {
        return Err((Rule::OutOfRange, "is not a real calendar date"));
    }
    Ok(())
}

/// An exact decimal greater than 0 and at most 100.
fn check_percentage(text: &str) -> Result<(), Rule> {
    let value = parse_amount(text).map_err(|_| Rule::InvalidFormat)?;
    if value.is_zero() || value > Decimal::ONE_HUNDRED {
        return Err(Rule::OutOfRange);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support;
    use crate::url::URL_MESSAGE;
    use crate::views::{AddressFields, DocumentRefFields};

    fn complete() -> PersonFields<'static> {
        PersonFields {
            first_name: Some("Ada"),
            last_name: Some("Obi"),
            date_of_birth: Some("1988-02-29"),
            nationality: Some("NG"),
            phone_number: Some("+2348012345678"),
            id_number: Some("A01234567"),
            id_type: Some("currentPassport"),
            id_document_url: Some("https://files.example/id.pdf"),
            address: AddressFields {
                house_number: Some("3"),
                street: Some("Allen Avenue"),
                city: Some("Ikeja"),
                state: Some("Lagos"),
                zip_code: Some("100271"),
                subdivision: None,
            },
            document: DocumentRefFields {
                url: Some("https://files.example/utility.pdf"),
                key: Some("doc-1"),
            },
            ..PersonFields::default()
        }
    }

    fn violations(fields: &PersonFields<'_>) -> Vec<(String, Rule, String)> {
        test_support::violations(validate_person(fields, PersonRole::Director))
    }

    #[test]
    fn wire_strings() {
        assert_eq!(
            IdType::ALL.map(IdType::as_str),
            [
                "IdCard",
                "BioMetricResidencePermit",
                "BirthCertificate",
                "currentPassport",
                "driverLicense",
                "bvnNumber",
                "nationalId",
            ]
        );
        for id_type in IdType::ALL {
            assert_eq!(id_type.as_str().parse::<IdType>(), Ok(id_type));
        }
        assert_eq!(
            "CurrentPassport".parse::<IdType>().unwrap_err().to_string(),
            "Invalid ID type: CurrentPassport (expected one of IdCard, BioMetricResidencePermit, \
             BirthCertificate, currentPassport, driverLicense, bvnNumber, nationalId)"
        );
        assert_eq!(PersonRole::Ubo.path_segment(), Some("ubo"));
        assert_eq!(PersonRole::Director.path_segment(), Some("director"));
    }

    #[test]
    fn a_complete_person_is_valid_in_both_roles() {
        let full = PersonFields {
            additional_document: Some(DocumentRefFields {
                url: Some("https://files.example/extra.pdf"),
                key: Some("doc-2"),
            }),
            email: Some("ada@example.com"),
            job_title: Some("CEO"),
            ownership_percentage: Some("100"),
            middle_name: Some("N."),
            bvn: Some("22345678901"),
            ..complete()
        };
        for fields in [complete(), full] {
            for role in [PersonRole::Director, PersonRole::Ubo] {
                assert_eq!(validate_person(&fields, role), Ok(()));
            }
        }
    }

    #[test]
    fn every_required_field_is_named() {
        let error = validate_person(&PersonFields::default(), PersonRole::Ubo).unwrap_err();
        assert_eq!(
            error.fields().collect::<Vec<_>>(),
            [
                "firstName",
                "lastName",
                "dateOfBirth",
                "nationality",
                "phoneNumber",
                "idNumber",
                "idType",
                "idDocumentUrl",
                "address.houseNumber",
                "address.street",
                "address.city",
                "address.state",
                "address.zipCode",
                "document.url",
                "document.key",
            ]
        );
        assert!(error
            .iter()
            .all(|v| v.rule == Rule::Required && v.message == "is required"));
    }

    #[test]
    fn date_of_birth_rules() {
        const NOT_A_DATE: Option<(Rule, &str)> =
            Some((Rule::OutOfRange, "is not a real calendar date"));
        let table = [
            ("1990-04-25", None),
            ("2000-02-29", None),
            ("1900-01-01", None),
            ("1990-12-31", None),
            ("1990-4-25", Some((Rule::InvalidFormat, DATE_MESSAGE))),
            ("25-04-1990", Some((Rule::InvalidFormat, DATE_MESSAGE))),
            ("1990/04/25", Some((Rule::InvalidFormat, DATE_MESSAGE))),
            (
                "1990-04-25T00:00:00Z",
                Some((Rule::InvalidFormat, DATE_MESSAGE)),
            ),
            ("199a-04-25", Some((Rule::InvalidFormat, DATE_MESSAGE))),
            ("+990-04-25", Some((Rule::InvalidFormat, DATE_MESSAGE))),
            ("1990-13-01", NOT_A_DATE),
            ("1990-00-10", NOT_A_DATE),
            ("1990-04-31", NOT_A_DATE),
            ("1990-04-00", NOT_A_DATE),
            ("1900-02-29", NOT_A_DATE),
            ("2023-02-29", NOT_A_DATE),
            (
                "1899-12-31",
                Some((Rule::OutOfRange, "must not be before 1900-01-01")),
            ),
        ];
        for (date, expected) in table {
            let fields = PersonFields {
                date_of_birth: Some(date),
                ..complete()
            };
            let expected: Vec<_> = expected
                .map(|(rule, message)| ("dateOfBirth".to_owned(), rule, message.to_owned()))
                .into_iter()
                .collect();
            assert_eq!(violations(&fields), expected, "{date}");
        }
    }

    #[test]
    fn field_rules() {
        type Edit = fn(&mut PersonFields<'static>);
        let table: [(Edit, &str, Rule, &str); 22] = [
            (|f| f.first_name = Some(" "), "firstName", Rule::Required, "is required"),
            (|f| f.nationality = None, "nationality", Rule::Required, "is required"),
            (|f| f.nationality = Some("Nigerian"), "nationality", Rule::InvalidFormat, NATIONALITY_MESSAGE),
            (|f| f.nationality = Some("ng"), "nationality", Rule::InvalidFormat, NATIONALITY_MESSAGE),
            (|f| f.id_number = Some(""), "idNumber", Rule::Required, "is required"),
            (|f| f.phone_number = Some("+2340"), "phoneNumber", Rule::InvalidFormat, PHONE_MESSAGE),
            (|f| f.id_type = Some("passport"), "idType", Rule::NotOneOf, "must be one of IdCard, BioMetricResidencePermit, BirthCertificate, currentPassport, driverLicense, bvnNumber, nationalId"),
            (|f| f.id_document_url = Some("ftp://files.example/id.pdf"), "idDocumentUrl", Rule::InvalidFormat, URL_MESSAGE),
            (|f| f.id_document_url = Some("https://"), "idDocumentUrl", Rule::InvalidFormat, URL_MESSAGE),
            (|f| f.id_document_url = Some("files.example/id.pdf"), "idDocumentUrl", Rule::InvalidFormat, URL_MESSAGE),
            (|f| f.id_document_url = Some("https://files.example/my id.pdf"), "idDocumentUrl", Rule::InvalidFormat, URL_MESSAGE),
            (|f| f.document.url = Some("not a url"), "document.url", Rule::InvalidFormat, URL_MESSAGE),
            (|f| f.additional_document = Some(DocumentRefFields { url: Some("/uploads/a.pdf"), key: Some("a") }), "additionalDocument.url", Rule::InvalidFormat, URL_MESSAGE),
            (|f| f.address.street = None, "address.street", Rule::Required, "is required"),
            (|f| f.document.key = Some(" "), "document.key", Rule::Required, "is required"),
            (|f| f.additional_document = Some(DocumentRefFields { url: Some("https://x.example/a"), key: None }), "additionalDocument.key", Rule::Required, "is required"),
            (|f| f.email = Some("ada-at-example.com"), "email", Rule::InvalidFormat, EMAIL_MESSAGE),
            (|f| f.ownership_percentage = Some("0"), "ownershipPercentage", Rule::OutOfRange, PERCENTAGE_MESSAGE),
            (|f| f.ownership_percentage = Some("100.01"), "ownershipPercentage", Rule::OutOfRange, PERCENTAGE_MESSAGE),
            (|f| f.ownership_percentage = Some("25%"), "ownershipPercentage", Rule::InvalidFormat, PERCENTAGE_MESSAGE),
            (|f| f.bvn = Some("1234567890"), "bvn", Rule::InvalidFormat, BVN_MESSAGE),
            (|f| f.bvn = Some("1234567890a"), "bvn", Rule::InvalidFormat, BVN_MESSAGE),
        ];
        for (edit, field, rule, message) in table {
            let mut fields = complete();
            edit(&mut fields);
            assert_eq!(
                violations(&fields),
                vec![(field.to_owned(), rule, message.to_owned())],
                "{field}"
            );
        }
        // Optional fields: absent or blank is fine; percentages in range pass.
        for percentage in ["0.01", "25", "33.333", "100", "100.00"] {
            let fields = PersonFields {
                ownership_percentage: Some(percentage),
                email: Some(""),
                bvn: Some(" "),
                job_title: Some(""),
                ..complete()
            };
            assert_eq!(violations(&fields), Vec::new(), "{percentage}");
        }
    }

    #[test]
    fn every_violation_is_reported_at_once() {
        let fields = PersonFields {
            last_name: None,
            date_of_birth: Some("1990-02-30"),
            id_type: Some("Passport"),
            document: DocumentRefFields::default(),
            bvn: Some("123"),
            ..complete()
        };
        let error = validate_person(&fields, PersonRole::Ubo).unwrap_err();
        assert_eq!(
            error.to_string(),
            "lastName: is required; \
             dateOfBirth: is not a real calendar date; \
             idType: must be one of IdCard, BioMetricResidencePermit, BirthCertificate, currentPassport, driverLicense, bvnNumber, nationalId; \
             document.url: is required; \
             document.key: is required; \
             bvn: must be 11 digits"
        );
    }
}
