//! The application file of `business onboard`: the whole onboarding in one
//! JSON document, each part in the API's own wire JSON,
//!
//! ```text
//! {"business": {POST /api/business body},
//!  "directors": [{POST /api/business/{id}/director body}, ...],
//!  "ubos": [{POST /api/business/{id}/ubo body}, ...]}
//! ```
//!
//! where any string `file:PATH` names a local file (relative to the
//! application file) that the SDK uploads once and replaces by its link.
//! This module only reads the file into the SDK's `onboard::Application`;
//! the rules are the SDK's (`check_business_json`, `Application::validate`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crossborder::low_level::types as wire;
use crossborder::onboard::{Application, FILE_URL_PREFIX};
use crossborder::{
    check_business_json, Address, BusinessDetails, BusinessRequestKind, CreateBusinessRequest,
    Decimal, DocumentLink, MonthlyTransactionVolume, NatureOfBusiness, PersonDetails,
    PersonRequest, ProofOfAddress, Rule, SourceOfFund, Violation, Violations,
};
use serde_json::Value;

use crate::failure::Failure;

/// The parts of an application file.
const PARTS: [&str; 3] = ["business", "directors", "ubos"];

/// Reads the application at `path` and every file it names. Everything
/// wrong with it is reported at once as a validation failure; nothing is
/// sent.
pub fn read(path: &Path) -> Result<Application, Failure> {
    let json = crate::input::read_json(path)?;
    let base = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let mut wrong = Vec::new();
    let application = parse(&json, &base, &mut wrong);
    match (application, Violations::from_vec(wrong)) {
        (Some(application), None) => Ok(application),
        (_, Some(violations)) => Err(Failure::invalid(&violations)),
        (None, None) => Err(Failure::usage("the application could not be read")),
    }
}

fn parse(json: &Value, base: &Path, wrong: &mut Vec<Violation>) -> Option<Application> {
    let Some(object) = json.as_object() else {
        wrong.push(invalid("application", "must be a JSON object"));
        return None;
    };
    for key in object.keys().filter(|key| !PARTS.contains(&key.as_str())) {
        wrong.push(invalid(
            key,
            "is not a part of an application (business, directors, ubos)",
        ));
    }
    let files = read_files(json, base, wrong);
    let business = match object.get("business") {
        None | Some(Value::Null) => {
            wrong.push(Violation::new("business", Rule::Required, "is required"));
            None
        }
        Some(body) => business(body, wrong),
    };
    let directors = people(object.get("directors"), "directors", wrong);
    let ubos = people(object.get("ubos"), "ubos", wrong);
    Some(Application {
        business: Some(business?),
        directors: directors?,
        ubos: ubos?,
        files: files
            .into_iter()
            .map(|(name, bytes)| (name, bytes.into()))
            .collect(),
    })
}

fn invalid(field: &str, message: &str) -> Violation {
    Violation::new(field.to_owned(), Rule::InvalidFormat, message.to_owned())
}

/// Every file named by a `file:PATH` string anywhere in the application,
/// read from disk, by the name written after `file:`.
fn read_files(json: &Value, base: &Path, wrong: &mut Vec<Violation>) -> BTreeMap<String, Vec<u8>> {
    let mut names = Vec::new();
    collect_file_names(json, &mut names);
    let mut files = BTreeMap::new();
    for name in names {
        if files.contains_key(&name) {
            continue;
        }
        let path: PathBuf = base.join(&name);
        match std::fs::read(&path) {
            Ok(bytes) => {
                files.insert(name, bytes);
            }
            Err(error) => wrong.push(invalid(
                &format!("files.{name}"),
                &format!("cannot read {}: {error}", path.display()),
            )),
        }
    }
    files
}

fn collect_file_names(json: &Value, names: &mut Vec<String>) {
    match json {
        Value::String(text) => {
            if let Some(name) = text.strip_prefix(FILE_URL_PREFIX) {
                names.push(name.to_owned());
            }
        }
        Value::Array(items) => items
            .iter()
            .for_each(|item| collect_file_names(item, names)),
        Value::Object(map) => map
            .values()
            .for_each(|item| collect_file_names(item, names)),
        _ => {}
    }
}

/// The business part: checked with the SDK's rules for a create request
/// (JSON types included), then read into the SDK's request.
fn business(body: &Value, wrong: &mut Vec<Violation>) -> Option<CreateBusinessRequest> {
    let verdict = check_business_json(body, BusinessRequestKind::Create);
    if !verdict.valid {
        wrong.extend(verdict.violations.into_iter().map(|v| {
            Violation::new(
                format!("business.{}", v.field),
                Rule::InvalidFormat,
                v.message,
            )
        }));
        return None;
    }
    match serde_json::from_value::<wire::CreateBusinessRequest>(body.clone()) {
        Ok(request) => from_wire_business(request, wrong),
        Err(error) => {
            wrong.push(invalid("business", &error.to_string()));
            None
        }
    }
}

/// A list of people (`directors` or `ubos`); absent is empty (the SDK
/// then says at least one is needed).
fn people(
    list: Option<&Value>,
    part: &str,
    wrong: &mut Vec<Violation>,
) -> Option<Vec<PersonRequest>> {
    let items = match list {
        None | Some(Value::Null) => return Some(Vec::new()),
        Some(Value::Array(items)) => items,
        Some(_) => {
            wrong.push(invalid(part, "must be an array of people"));
            return None;
        }
    };
    let mut people = Vec::new();
    let mut all_read = true;
    for (index, item) in items.iter().enumerate() {
        let at = format!("{part}[{index}]");
        match serde_json::from_value::<wire::PersonRequest>(item.clone()) {
            Ok(person) => match from_wire_person(person, &at, wrong) {
                Some(person) => people.push(person),
                None => all_read = false,
            },
            Err(error) => {
                // The generated type names the first field it could not read.
                wrong.push(invalid(&at, &error.to_string()));
                all_read = false;
            }
        }
    }
    all_read.then_some(people)
}

fn address(wire: wire::Address) -> Address {
    let wire::Address {
        house_number,
        street,
        city,
        state,
        zip_code,
        subdivision,
    } = wire;
    Address {
        house_number,
        street,
        city,
        state,
        zip_code,
        subdivision,
    }
}

fn link(wire: wire::DocumentLink) -> DocumentLink {
    let wire::DocumentLink { key, url } = wire;
    DocumentLink::new(url, key)
}

fn from_wire_business(
    request: wire::CreateBusinessRequest,
    wrong: &mut Vec<Violation>,
) -> Option<CreateBusinessRequest> {
    // Every wire field is named: a field added to the spec does not compile
    // here until it is carried.
    let wire::CreateBusinessRequest {
        activities,
        address: street_address,
        annual_turnover,
        average_monthly_transaction_volume,
        business_address,
        business_description,
        business_purpose,
        business_type,
        business_website,
        customer_types,
        documents,
        ein,
        email,
        estimated_annual_revenue,
        financial_service,
        has_website,
        is_high_risk,
        legal_name,
        max_transfer_amount,
        monthly_payments_count,
        monthly_transaction_volume,
        name,
        nature_of_business,
        operating_address,
        phone_number,
        place_id,
        proof_of_address,
        registration_number,
        source_of_fund,
        source_of_funds_description,
        tin,
        tin_uppercase,
    } = request;
    // The SDK sends one TIN under both spellings.
    if let (Some(lower), Some(upper)) = (&tin, &tin_uppercase) {
        if lower != upper {
            wrong.push(invalid(
                "business.TIN",
                "differs from tin: give one tax identification number",
            ));
            return None;
        }
    }
    let wire::NatureOfBusiness { nature, code } = nature_of_business;
    let wire::ProofOfAddress { url, key, type_ } = proof_of_address;
    Some(CreateBusinessRequest {
        name,
        business_type,
        registration_number,
        email,
        phone_number,
        nature_of_business: NatureOfBusiness { nature, code },
        business_address: address(business_address),
        proof_of_address: ProofOfAddress {
            url,
            key,
            kind: type_,
        },
        documents: documents
            .0
            .into_iter()
            .map(|(key, document)| (key, link(document)))
            .collect(),
        details: BusinessDetails {
            operating_address: operating_address.map(address),
            activities,
            monthly_transaction_volume: monthly_transaction_volume.map(|volume| {
                MonthlyTransactionVolume {
                    currency: volume.currency,
                    amount: volume.amount.0,
                }
            }),
            has_website,
            source_of_fund: source_of_fund.map(|source| SourceOfFund {
                url: source.url,
                kind: source.type_,
                name: source.name,
            }),
            tin: tin.or(tin_uppercase),
            is_high_risk,
            business_description,
            business_website,
            ein,
            legal_name,
            address: street_address,
            place_id,
            annual_turnover,
            monthly_payments_count,
            max_transfer_amount,
            customer_types,
            source_of_funds_description,
            estimated_annual_revenue,
            average_monthly_transaction_volume,
            financial_service,
            business_purpose,
        },
    })
}

fn from_wire_person(
    person: wire::PersonRequest,
    at: &str,
    wrong: &mut Vec<Violation>,
) -> Option<PersonRequest> {
    let wire::PersonRequest {
        additional_document,
        address: home,
        bvn,
        date_of_birth,
        document,
        email,
        first_name,
        id_document_url,
        id_number,
        id_type,
        job_title,
        last_name,
        middle_name,
        nationality,
        ownership_percentage,
        phone_number,
    } = person;
    // The SDK holds the percentage as an exact decimal; the rules then
    // check its range.
    let ownership_percentage = match ownership_percentage {
        None => None,
        Some(text) => match Decimal::from_str_exact(text.trim()) {
            Ok(value) => Some(value),
            Err(_) => {
                wrong.push(invalid(
                    &format!("{at}.ownershipPercentage"),
                    "must be a decimal string such as \"25.5\"",
                ));
                return None;
            }
        },
    };
    Some(PersonRequest {
        first_name,
        last_name,
        date_of_birth,
        nationality,
        phone_number,
        id_number,
        id_type,
        id_document_url,
        address: address(home),
        document: link(document),
        details: PersonDetails {
            additional_document: additional_document.map(link),
            email,
            job_title,
            ownership_percentage,
            middle_name,
            bvn,
        },
    })
}
