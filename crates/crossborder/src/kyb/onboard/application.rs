//! The application: the business, its directors and UBOs and their files,
//! built field by field or read from its JSON, and checked whole before
//! anything is sent.

use std::collections::{BTreeMap, BTreeSet};

use bytes::Bytes;
use crossborder_core::kyb::PersonRole;
use serde_json::Value;

use super::files::{
    business_urls, person_urls, resolved_business, resolved_person, stand_in_business_files,
    stand_in_person_files, FILE_URL_PREFIX,
};
use crate::error::{Error, Rule, Violation, Violations};
use crate::json::{business_violations_adjusted, person_violations_adjusted, BusinessRequestKind};
use crate::kyb::one_tin;
use crate::types::{CreateBusinessRequest, PersonRequest};

/// A whole onboarding application: built field by field, or read from its
/// JSON with [`Application::from_json`].
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Application {
    /// The business to create; its document URLs may be [`file_url`](super::file_url)s.
    pub business: Option<CreateBusinessRequest>,
    /// The directors, added in order; their document URLs may be file URLs.
    pub directors: Vec<PersonRequest>,
    /// The beneficial owners, added after the directors.
    pub ubos: Vec<PersonRequest>,
    /// The files to upload (JPEG, PNG or PDF, at most 20 MB), by name.
    pub files: BTreeMap<String, Bytes>,
}

/// The parts of an application's JSON.
const PARTS: [&str; 3] = ["business", "directors", "ubos"];

impl Application {
    /// Reads an application from its JSON, each part the API's own request
    /// body:
    ///
    /// ```text
    /// {"business":  {the body of POST /api/business},
    ///  "directors": [{the body of POST /api/business/{id}/director}, ...],
    ///  "ubos":      [{the body of POST /api/business/{id}/ubo}, ...]}
    /// ```
    ///
    /// Each part is checked as
    /// [`check_business_json`](crate::json::check_business_json) checks a
    /// business, and a director or UBO the same way (JSON types, fields
    /// the request does not have, named with the
    /// nearest one it has, and the KYB rules), with the same messages, and
    /// every violation is reported at once, by its path
    /// (`business.name`, `directors[0].firstName`, `ubos[1].address.city`).
    /// A document URL may be a [`file_url`](super::file_url) (`file:<name>`); the
    /// application read holds no files: add those
    /// [`referenced_files`](Application::referenced_files) names, then
    /// [`validate`](Application::validate) (which `onboard` also does).
    /// A business giving `TIN` and `tin` different values is refused
    /// (`business.TIN: differs from tin: give one tax identification
    /// number`): the SDK holds one TIN and sends it under both spellings.
    ///
    /// ```
    /// use crossborder::onboard::Application;
    /// use serde_json::json;
    ///
    /// let violations = Application::from_json(&json!({
    ///     "business": {"name": "Lagos Trading Ltd"},
    ///     "directors": [{"firstName": "Adaeze", "lastNmae": "Okafor"}],
    /// }))
    /// .unwrap_err();
    /// let shown: Vec<String> = violations.iter().map(ToString::to_string).collect();
    /// assert!(shown.contains(&"business.email: is required".to_owned()));
    /// assert!(shown.contains(&"directors[0].lastNmae: is not a field of this request (did you mean lastName?)".to_owned()));
    /// assert!(shown.contains(&"ubos: needs at least one person (the business is submitted once it has a director and a UBO)".to_owned()));
    /// ```
    pub fn from_json(json: &Value) -> Result<Application, Violations> {
        let Some(object) = json.as_object() else {
            return Err(Violation::new(
                "application",
                Rule::InvalidFormat,
                "must be a JSON object",
            )
            .into());
        };
        let mut all: Vec<Violation> = object
            .keys()
            .filter(|key| !PARTS.contains(&key.as_str()))
            .map(|key| {
                Violation::new(
                    key.clone(),
                    Rule::UnknownField,
                    "is not a part of an application (business, directors, ubos)",
                )
            })
            .collect();
        let business = business_from_json(object.get("business"), &mut all);
        let directors = people_from_json(
            object.get("directors"),
            "directors",
            PersonRole::Director,
            &mut all,
        );
        let ubos = people_from_json(object.get("ubos"), "ubos", PersonRole::Ubo, &mut all);
        if let Some(violations) = Violations::from_vec(all) {
            return Err(violations);
        }
        match (business, directors, ubos) {
            (Some(business), Some(directors), Some(ubos)) => Ok(Application {
                business: Some(business),
                directors,
                ubos,
                files: BTreeMap::new(),
            }),
            // Each part not read has said why above.
            _ => {
                Err(Violation::new("application", Rule::InvalidFormat, "could not be read").into())
            }
        }
    }

    /// The names of the files the application's document URLs reference
    /// ([`file_url`](super::file_url)), each once: what [`files`](Application::files) must
    /// hold. Only a document URL references a file (a business's
    /// `proofOfAddress.url`, `documents.<key>.url` and `sourceOfFund.url`,
    /// a person's `idDocumentUrl`, `document.url` and
    /// `additionalDocument.url`); a `file:` text anywhere else is sent as
    /// written.
    pub fn referenced_files(&self) -> BTreeSet<String> {
        self.file_references().map(str::to_owned).collect()
    }

    /// The file names of every `file:` document URL, in order, repeated.
    fn file_references(&self) -> impl Iterator<Item = &str> {
        let business = self.business.iter().flat_map(business_urls);
        let people = self
            .directors
            .iter()
            .chain(&self.ubos)
            .flat_map(person_urls);
        business
            .chain(people)
            .filter_map(|(_, url)| url.strip_prefix(FILE_URL_PREFIX))
    }

    /// Every check of the whole application, before any request: the files
    /// (type by content, size), every `file:` URL naming a file of the
    /// application, the business (as `CreateBusinessRequest::validate`) and
    /// each person (as `PersonRequest::validate` for their role), every
    /// violation at once. People are reported as `directors[0].firstName`.
    pub fn validate(&self) -> Result<(), Violations> {
        let mut all = Vec::new();
        for (name, bytes) in &self.files {
            if let Err(Error::Validation(found)) = crate::upload::check(bytes) {
                all.extend(
                    found
                        .into_iter()
                        .map(|v| prefixed(&format!("files.{name}"), v)),
                );
            }
        }
        // The rules see a stand-in URL for each file reference, so that only
        // the reference itself (to a file the application holds) is judged.
        let stand_ins = self.stand_in_links();
        match &self.business {
            Some(business) => {
                if let Err(found) = resolved_business(business, &stand_ins).validate() {
                    all.extend(found);
                }
                self.check_files(&mut all, "business", &business_urls(business));
            }
            None => all.push(Violation::new("business", Rule::Required, "is required")),
        }
        for (role, list, people) in [
            (PersonRole::Director, "directors", &self.directors),
            (PersonRole::Ubo, "ubos", &self.ubos),
        ] {
            all.extend(someone_in(list, people.len()));
            for (index, person) in people.iter().enumerate() {
                let at = format!("{list}[{index}]");
                if let Err(found) = resolved_person(person, &stand_ins).validate(role.clone()) {
                    all.extend(found.into_iter().map(|v| prefixed(&at, v)));
                }
                self.check_files(&mut all, &at, &person_urls(person));
            }
        }
        Violations::from_vec(all).map_or(Ok(()), Err)
    }

    /// A stand-in link for every file the application names, held or not.
    fn stand_in_links(&self) -> BTreeMap<String, String> {
        self.file_references()
            .map(|name| (name.to_owned(), format!("https://upload.invalid/{name}")))
            .collect()
    }

    fn check_files(&self, all: &mut Vec<Violation>, at: &str, urls: &[(String, &str)]) {
        for (field, url) in urls {
            if let Some(name) = url.strip_prefix(FILE_URL_PREFIX) {
                if !self.files.contains_key(name) {
                    all.push(Violation::new(
                        format!("{at}.{field}"),
                        Rule::InvalidFormat,
                        format!("names the file {name:?}, which the application does not hold"),
                    ));
                }
            }
        }
    }
}

/// The violation of an empty list of directors or UBOs.
fn someone_in(list: &'static str, people: usize) -> Option<Violation> {
    (people == 0).then(|| {
        Violation::new(
            list,
            Rule::Required,
            "needs at least one person (the business is submitted once it has a director and a UBO)",
        )
    })
}

/// The business part of an application's JSON, or why it cannot be read.
fn business_from_json(
    body: Option<&Value>,
    all: &mut Vec<Violation>,
) -> Option<CreateBusinessRequest> {
    let at = "business";
    let body = match body {
        None | Some(Value::Null) => {
            all.push(Violation::new(at, Rule::Required, "is required"));
            return None;
        }
        Some(body) if !body.is_object() => {
            all.push(Violation::new(
                at,
                Rule::InvalidFormat,
                "must be a JSON object",
            ));
            return None;
        }
        Some(body) => body,
    };
    let checked = business_violations_adjusted(body, BusinessRequestKind::Create, |fields| {
        stand_in_business_files(fields);
        one_tin(fields.tin, fields.tin_uppercase).err()
    });
    if let Err(found) = checked {
        all.extend(found.into_iter().map(|v| prefixed(at, v)));
        return None;
    }
    let read = from_wire_json(body, at, all)?;
    CreateBusinessRequest::from_wire(read)
        .map_err(|v| all.push(prefixed(at, v)))
        .ok()
}

/// The directors or UBOs of an application's JSON (absent is none), or
/// why they cannot be read.
fn people_from_json(
    list: Option<&Value>,
    name: &'static str,
    role: PersonRole,
    all: &mut Vec<Violation>,
) -> Option<Vec<PersonRequest>> {
    let items: &[Value] = match list {
        None | Some(Value::Null) => &[],
        Some(Value::Array(items)) => items,
        Some(_) => {
            all.push(Violation::new(
                name,
                Rule::InvalidFormat,
                "must be an array of people",
            ));
            return None;
        }
    };
    all.extend(someone_in(name, items.len()));
    let mut people = Vec::with_capacity(items.len());
    for (index, body) in items.iter().enumerate() {
        let at = format!("{name}[{index}]");
        if !body.is_object() {
            all.push(Violation::new(
                at,
                Rule::InvalidFormat,
                "must be a JSON object",
            ));
            continue;
        }
        if let Err(found) = person_violations_adjusted(body, role.clone(), stand_in_person_files) {
            all.extend(found.into_iter().map(|v| prefixed(&at, v)));
            continue;
        }
        let Some(read) = from_wire_json(body, &at, all) else {
            continue;
        };
        match PersonRequest::from_wire(read) {
            Ok(person) => people.push(person),
            Err(v) => all.push(prefixed(&at, v)),
        }
    }
    (people.len() == items.len()).then_some(people)
}

/// A part the JSON checks accepted, as the generated request type.
fn from_wire_json<T: serde::de::DeserializeOwned>(
    body: &Value,
    at: &str,
    all: &mut Vec<Violation>,
) -> Option<T> {
    serde_json::from_value(body.clone())
        .map_err(|error| {
            all.push(Violation::new(
                at.to_owned(),
                Rule::InvalidFormat,
                format!("does not match the API's schema: {error}"),
            ));
        })
        .ok()
}

fn prefixed(at: &str, violation: Violation) -> Violation {
    Violation::new(
        format!("{at}.{}", violation.field),
        violation.rule,
        violation.message,
    )
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::kyb::onboard::file_url;
    use crate::types::IdType;
    use crate::Decimal;

    fn business() -> Value {
        let document = |key: &str| json!({"url": file_url("company.pdf"), "key": key});
        json!({
            "name": "Lagos Trading Ltd",
            "businessType": "LLC",
            "registrationNumber": "RC7000001",
            "email": "compliance@lagostrading.ng",
            "phoneNumber": "+2348012345678",
            "natureOfBusiness": {"nature": "Wholesale", "code": "4652"},
            "businessAddress": {"houseNumber": "12", "street": "Admiralty Way", "city": "Lekki",
                                "state": "Lagos", "zipCode": "106104"},
            "proofOfAddress": {"url": file_url("utility.png"), "key": "utility", "type": "Utility bill"},
            "documents": {
                "cac_document": document("cac"),
                "Bank-Statement": document("statement"),
                "application_letter": document("letter"),
                "cac_status_report": document("status"),
            },
        })
    }

    fn person() -> Value {
        json!({
            "firstName": "Adaeze",
            "lastName": "Okafor",
            "dateOfBirth": "1985-04-12",
            "nationality": "NG",
            "phoneNumber": "+2348031234567",
            "idNumber": "A12345678",
            "idType": "currentPassport",
            "idDocumentUrl": file_url("passport.png"),
            "address": {"houseNumber": "7", "street": "Bourdillon Road", "city": "Ikoyi",
                        "state": "Lagos", "zipCode": "101233"},
            "document": {"url": "https://files.example/utility.pdf", "key": "utility"},
        })
    }

    fn shown(violations: &Violations) -> Vec<String> {
        violations.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn an_application_is_read_from_its_json() {
        let mut business = business();
        business["tin"] = json!("12345678-0001");
        business["TIN"] = json!("12345678-0001");
        business["sourceOfFund"] = json!({"type": "Revenue", "url": file_url("accounts.pdf")});
        let mut ubo = person();
        ubo["ownershipPercentage"] = json!("25.50");
        ubo["additionalDocument"] = json!({"url": file_url("deed.pdf"), "key": "deed"});
        let application = Application::from_json(
            &json!({"business": business, "directors": [person()], "ubos": [ubo]}),
        )
        .unwrap();

        let business = application.business.as_ref().unwrap();
        assert_eq!(business.name, "Lagos Trading Ltd");
        assert_eq!(business.details.tin.as_deref(), Some("12345678-0001"));
        // The key as given; it is sent in its canonical form.
        assert_eq!(business.documents["Bank-Statement"].url, "file:company.pdf");
        assert_eq!(application.directors[0].id_type, IdType::CurrentPassport);
        assert_eq!(application.directors[0].details.ownership_percentage, None);
        assert_eq!(
            application.ubos[0].details.ownership_percentage,
            Some(Decimal::new(2550, 2))
        );
        assert!(application.files.is_empty());
        assert_eq!(
            application
                .referenced_files()
                .into_iter()
                .collect::<Vec<_>>(),
            [
                "accounts.pdf",
                "company.pdf",
                "deed.pdf",
                "passport.png",
                "utility.png"
            ]
        );
        // Without its files, the application says which it lacks.
        assert_eq!(
            application.validate().unwrap_err()[0].to_string(),
            "business.proofOfAddress.url: names the file \"utility.png\", which the application does not hold"
        );
    }

    /// Only a document URL names a file: `file:` text elsewhere is sent as
    /// written, and a document URL that is not a file reference is sent as
    /// given.
    #[test]
    fn only_document_urls_reference_files() {
        let mut business = business();
        business["businessDescription"] = json!("file:secrets.txt");
        business["businessWebsite"] = json!("file:site.html");
        let mut director = person();
        director["jobTitle"] = json!("file:title.txt");
        director["idDocumentUrl"] = json!("https://files.example/passport.png");
        let application = Application::from_json(
            &json!({"business": business, "directors": [director], "ubos": [person()]}),
        )
        .unwrap();
        assert_eq!(
            application
                .referenced_files()
                .into_iter()
                .collect::<Vec<_>>(),
            ["company.pdf", "passport.png", "utility.png"]
        );
        let business = application.business.as_ref().unwrap();
        assert_eq!(
            business.details.business_description.as_deref(),
            Some("file:secrets.txt")
        );
        assert_eq!(
            application.directors[0].details.job_title.as_deref(),
            Some("file:title.txt")
        );
    }

    /// Every violation at once, by its path, with the messages of
    /// `create_json` and `add_director_json`: JSON types, misspelt fields
    /// (named with the nearest field), the KYB rules, parts of the wrong
    /// shape.
    #[test]
    fn every_violation_of_an_application_is_reported_at_once() {
        let mut business = business();
        business["email"] = json!(42);
        business["businessWebiste"] = json!("https://lagos.ng");
        business["tin"] = json!("12345678-0001");
        business["TIN"] = json!("87654321-0001");
        let mut director = person();
        director.as_object_mut().unwrap().remove("firstName");
        director["lastNmae"] = json!("Okafor");
        director["nationality"] = json!("Nigeria");
        let mut second_ubo = person();
        second_ubo["address"]
            .as_object_mut()
            .unwrap()
            .remove("city");
        second_ubo["ownershipPercentage"] = json!("25%");
        let violations = Application::from_json(&json!({
            "business": business,
            "directors": [director, "Chinedu"],
            "ubos": [person(), second_ubo],
            "notes": "call first",
        }))
        .unwrap_err();
        assert_eq!(
            shown(&violations),
            [
                "notes: is not a part of an application (business, directors, ubos)",
                "business.email: must be a string",
                "business.businessWebiste: is not a field of this request (did you mean businessWebsite?)",
                "business.TIN: differs from tin: give one tax identification number",
                "directors[0].lastNmae: is not a field of this request (did you mean lastName?)",
                "directors[0].firstName: is required",
                "directors[0].nationality: must be an ISO 3166-1 alpha-2 country code, such as NG",
                "directors[1]: must be a JSON object",
                "ubos[1].address.city: is required",
                "ubos[1].ownershipPercentage: must be a percentage greater than 0 and at most 100",
            ]
        );

        let violations = Application::from_json(&json!({"directors": {}, "ubos": []})).unwrap_err();
        assert_eq!(
            shown(&violations),
            [
                "business: is required",
                "directors: must be an array of people",
                "ubos: needs at least one person (the business is submitted once it has a director and a UBO)",
            ]
        );
        let violations = Application::from_json(&json!(["business"])).unwrap_err();
        assert_eq!(shown(&violations), ["application: must be a JSON object"]);
    }

    /// One TIN: given once under either spelling, or twice the same.
    #[test]
    fn a_tin_is_read_from_either_spelling() {
        for (tin, upper, read) in [
            (Some("1"), None, Some("1")),
            (None, Some("2"), Some("2")),
            (Some("3"), Some("3"), Some("3")),
            (Some(" "), Some("4"), Some("4")),
            (None, None, None),
        ] {
            let mut business = business();
            if let Some(tin) = tin {
                business["tin"] = json!(tin);
            }
            if let Some(upper) = upper {
                business["TIN"] = json!(upper);
            }
            let application = Application::from_json(
                &json!({"business": business, "directors": [person()], "ubos": [person()]}),
            )
            .unwrap();
            assert_eq!(
                application.business.unwrap().details.tin.as_deref(),
                read,
                "{tin:?} {upper:?}"
            );
        }
    }
}
