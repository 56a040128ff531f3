//! Checking a business request given as the API's own wire JSON, as a tool
//! holds it (the CLI's `business validate`, a CI check of onboarding
//! files): the verdict, every violation, and how each document key
//! normalises and is sent. Nothing is sent.
//!
//! A field the request does not have is refused, naming the nearest field
//! it has (ASSUMPTIONS C17): a misspelt `businessWebiste` would otherwise
//! be dropped without a word, and an update made only of misspelt fields
//! would go out as `{}`. An update that changes nothing is refused too
//! (C18).

use std::collections::BTreeMap;

use crossborder_core::kyb::{
    normalise_document_key, nothing_to_update, validate_business_create, validate_business_update,
    validate_person, BusinessFields, PersonFields, PersonRole,
};
use crossborder_core::suggest::nearest_name;
use crossborder_core::{FieldReader, Rule, Violation, Violations};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::DocumentKeyMapping;

/// Which request the JSON is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BusinessRequestKind {
    /// `POST /api/business`.
    Create,
    /// `PATCH /api/business/{businessId}`.
    Update,
}

/// The verdict on a business request. Serialises as
/// `{"valid": bool, "violations": [{"field", "message"}], "documents": {"<key as given>": "<type>" or null},
/// "document_keys": [{"given", "sent", "type"}]}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BusinessVerdict {
    /// True when the request breaks no rule.
    pub valid: bool,
    /// Every violation, type errors and unknown fields first, each field
    /// once.
    pub violations: Vec<FieldMessage>,
    /// Each key of the `documents` map as given, with the document type it
    /// names (`DocumentType::as_str`), or `None` for an unknown key.
    pub documents: BTreeMap<String, Option<String>>,
    /// Each key of the `documents` map as given, with the key it is sent as
    /// (ASSUMPTIONS B10) and the type it names; both `None` for an unknown
    /// key, which is not sent. In the order of the keys.
    pub document_keys: Vec<DocumentKeyMapping>,
}

/// One violation: the field's wire path and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FieldMessage {
    /// The wire name, dotted for nested fields (`businessAddress.city`).
    pub field: String,
    /// What is wrong (`is required`).
    pub message: String,
}

impl From<Violation> for FieldMessage {
    fn from(violation: Violation) -> FieldMessage {
        FieldMessage {
            field: violation.field.into_owned(),
            message: violation.message,
        }
    }
}

/// `typed` (each field of the wrong JSON type) followed by the rule
/// violations found on every other field: a wrong-typed field is reported
/// once, as a type error, and nothing on it or inside it again.
pub(crate) fn with_type_errors(
    mut typed: Vec<Violation>,
    rules: Result<(), Violations>,
) -> Result<(), Violations> {
    let fields: Vec<String> = typed.iter().map(|v| v.field.to_string()).collect();
    if let Err(found) = rules {
        typed.extend(found.into_iter().filter(|v| {
            !fields
                .iter()
                .any(|t| v.field == t.as_str() || v.field.starts_with(&format!("{t}.")))
        }));
    }
    Violations::from_vec(typed).map_or(Ok(()), Err)
}

/// Checks `body` as a business request of `kind` with the API's KYB rules
/// (those `CreateBusinessRequest::validate` applies), plus the JSON types of
/// its fields, fields the request does not have (refused with the nearest
/// field it has, ASSUMPTIONS C17) and, for an update, that it changes
/// something (C18).
///
/// ```
/// use crossborder::{json::{BusinessRequestKind, check_business_json}};
/// use serde_json::json;
///
/// let verdict = check_business_json(
///     &json!({"email": 42, "documents": {"Bank-Statement": {"url": "https://f.example/s.pdf", "key": "s"},
///                                        "selfie": {"url": "https://f.example/x.png", "key": "x"}}}),
///     BusinessRequestKind::Update,
/// );
/// assert!(!verdict.valid);
/// assert_eq!(verdict.violations[0].field, "email");
/// assert_eq!(verdict.violations[0].message, "must be a string");
/// assert_eq!(verdict.documents["Bank-Statement"].as_deref(), Some("BANK_STATEMENT"));
/// assert_eq!(verdict.documents["selfie"], None);
/// assert_eq!(verdict.document_keys[0].sent.as_deref(), Some("bank_statement"));
/// assert_eq!(verdict.document_keys[1].sent, None);
///
/// let verdict = check_business_json(&json!({"businessWebiste": "https://lagos.ng"}), BusinessRequestKind::Update);
/// assert_eq!(verdict.violations[0].field, "businessWebiste");
/// assert_eq!(verdict.violations[0].message, "is not a field of this request (did you mean businessWebsite?)");
/// assert_eq!(verdict.violations[1].field, "body");
/// assert_eq!(verdict.violations[1].message, "an update must change at least one field");
/// ```
pub fn check_business_json(body: &Value, kind: BusinessRequestKind) -> BusinessVerdict {
    let violations = business_violations(body, kind)
        .err()
        .map(Violations::into_vec)
        .unwrap_or_default();
    let keys: Vec<&String> = body
        .get(BusinessFields::DOCUMENTS)
        .and_then(Value::as_object)
        .map(|map| map.keys().collect())
        .unwrap_or_default();
    let documents = keys
        .iter()
        .map(|key| {
            let kind = normalise_document_key(key)
                .ok()
                .map(|t| t.as_str().to_owned());
            ((*key).clone(), kind)
        })
        .collect();
    let document_keys = keys
        .iter()
        .map(|key| DocumentKeyMapping::of(key, false))
        .collect();
    BusinessVerdict {
        valid: violations.is_empty(),
        violations: violations.into_iter().map(FieldMessage::from).collect(),
        documents,
        document_keys,
    }
}

/// Every violation of a business request in wire JSON: type errors and
/// unknown fields first, then the KYB rules, each field once; last, for an
/// update with no field of the request set, that it changes nothing.
pub(crate) fn business_violations(
    body: &Value,
    kind: BusinessRequestKind,
) -> Result<(), Violations> {
    business_violations_adjusted(body, kind, |_| None)
}

/// [`business_violations`], with `adjust` applied to the fields as read
/// before the rules see them; the violation it returns is added to theirs.
pub(crate) fn business_violations_adjusted(
    body: &Value,
    kind: BusinessRequestKind,
    adjust: impl FnOnce(&mut BusinessFields<'_>) -> Option<Violation>,
) -> Result<(), Violations> {
    let checked = read_and_check(body, |reader| {
        let mut fields = BusinessFields::read(reader);
        let found = adjust(&mut fields);
        let rules = match kind {
            BusinessRequestKind::Create => validate_business_create(&fields),
            BusinessRequestKind::Update => validate_business_update(&fields),
        };
        with(rules, found)
    });
    let changes_something = body.as_object().is_none_or(|object| {
        object.iter().any(|(name, value)| {
            !value.is_null() && BusinessFields::WIRE_NAMES.contains(&name.as_str())
        })
    });
    if kind == BusinessRequestKind::Create || changes_something {
        return checked;
    }
    let mut all = checked.err().map(Violations::into_vec).unwrap_or_default();
    all.push(nothing_to_update());
    Violations::from_vec(all).map_or(Ok(()), Err)
}

/// Every violation of a director or UBO in wire JSON, as
/// [`business_violations`] does for a business.
pub(crate) fn person_violations(body: &Value, role: PersonRole) -> Result<(), Violations> {
    person_violations_adjusted(body, role, |_| ())
}

/// [`person_violations`], with `adjust` applied to the fields as read
/// before the rules see them.
pub(crate) fn person_violations_adjusted(
    body: &Value,
    role: PersonRole,
    adjust: impl FnOnce(&mut PersonFields<'_>),
) -> Result<(), Violations> {
    read_and_check(body, |reader| {
        let mut fields = PersonFields::read(reader);
        adjust(&mut fields);
        validate_person(&fields, role)
    })
}

/// The violations of `result`, and `more` after them.
fn with(result: Result<(), Violations>, more: Option<Violation>) -> Result<(), Violations> {
    let mut all = result.err().map(Violations::into_vec).unwrap_or_default();
    all.extend(more);
    Violations::from_vec(all).map_or(Ok(()), Err)
}

fn read_and_check(
    body: &Value,
    check: impl for<'r, 'a> FnOnce(&'r mut JsonReader<'a>) -> Result<(), Violations>,
) -> Result<(), Violations> {
    let Some(object) = body.as_object() else {
        return Err(Violation::new("body", Rule::InvalidFormat, "must be a JSON object").into());
    };
    let mut reader = JsonReader {
        current: object,
        path: Vec::new(),
        wrong: Vec::new(),
        asked: Vec::new(),
        unknown: Vec::new(),
    };
    let rules = check(&mut reader);
    reader.refuse_unknown_fields();
    let mut all: Vec<Violation> = reader
        .wrong
        .iter()
        .map(|(field, message)| Violation::new(field.clone(), Rule::InvalidFormat, *message))
        .collect();
    all.extend(reader.unknown);
    with_type_errors(all, rules)
}

/// Reads a JSON object for the generated views, recording each field of
/// the wrong JSON type, and each field of an object that the view did not
/// ask for (the views ask for every field the request has, so such a field
/// is not one of them). Business requests have no number fields, so
/// `number` reads none.
struct JsonReader<'a> {
    current: &'a Map<String, Value>,
    path: Vec<String>,
    wrong: Vec<(String, &'static str)>,
    /// The fields the view asked for in the current object.
    asked: Vec<&'static str>,
    /// A violation for each field no view asked for.
    unknown: Vec<Violation>,
}

impl<'a> JsonReader<'a> {
    fn at(&self, name: &str) -> String {
        self.path
            .iter()
            .map(String::as_str)
            .chain([name])
            .collect::<Vec<_>>()
            .join(".")
    }

    /// The value of `name`, or `None` when absent or null.
    fn get(&mut self, name: &'static str) -> Option<&'a Value> {
        self.asked.push(name);
        self.current.get(name).filter(|value| !value.is_null())
    }

    /// Refuses each field of the current object the view did not ask for,
    /// naming the nearest field it did ask for when one is close.
    fn refuse_unknown_fields(&mut self) {
        for name in self.current.keys() {
            if self.asked.contains(&name.as_str()) {
                continue;
            }
            let message = match nearest_name(name, self.asked.iter().copied()) {
                Some(near) => format!("is not a field of this request (did you mean {near}?)"),
                None => "is not a field of this request".to_owned(),
            };
            let at = self.at(name);
            self.unknown
                .push(Violation::new(at, Rule::UnknownField, message));
        }
    }

    fn refuse(&mut self, name: &str, message: &'static str) {
        let at = self.at(name);
        self.wrong.push((at, message));
    }

    fn inside<T>(
        &mut self,
        step: String,
        object: &'a Map<String, Value>,
        read: impl FnOnce(&mut Self) -> T,
    ) -> T {
        let outer = std::mem::replace(&mut self.current, object);
        let outer_asked = std::mem::take(&mut self.asked);
        self.path.push(step);
        let value = read(self);
        self.refuse_unknown_fields();
        self.path.pop();
        self.current = outer;
        self.asked = outer_asked;
        value
    }
}

impl<'a> FieldReader<'a> for JsonReader<'a> {
    fn text(&mut self, name: &'static str) -> Option<&'a str> {
        match self.get(name)? {
            Value::String(text) => Some(text),
            _ => {
                self.refuse(name, "must be a string");
                None
            }
        }
    }

    fn number(&mut self, name: &'static str) -> Option<&'a str> {
        if self.get(name).is_some() {
            self.refuse(
                name,
                "is not read by this checker (no business field is a number)",
            );
        }
        None
    }

    fn flag(&mut self, name: &'static str) -> Option<bool> {
        match self.get(name)? {
            Value::Bool(flag) => Some(*flag),
            _ => {
                self.refuse(name, "must be true or false");
                None
            }
        }
    }

    fn list(&mut self, name: &'static str) -> Option<Vec<&'a str>> {
        let items = self
            .get(name)?
            .as_array()
            .and_then(|items| items.iter().map(Value::as_str).collect::<Option<Vec<_>>>());
        if items.is_none() {
            self.refuse(name, "must be an array of strings");
        }
        items
    }

    fn object<T>(&mut self, name: &'static str, read: impl FnOnce(&mut Self) -> T) -> Option<T> {
        match self.get(name)? {
            Value::Object(object) => Some(self.inside(name.to_owned(), object, read)),
            _ => {
                self.refuse(name, "must be an object");
                None
            }
        }
    }

    fn map<T>(
        &mut self,
        name: &'static str,
        mut read: impl FnMut(&mut Self) -> T,
    ) -> Option<Vec<(&'a str, T)>> {
        let Value::Object(map) = self.get(name)? else {
            self.refuse(name, "must be an object");
            return None;
        };
        let mut entries = Vec::with_capacity(map.len());
        for (key, value) in map {
            match value {
                Value::Object(object) => {
                    let entry = self.inside(format!("{name}.{key}"), object, &mut read);
                    entries.push((key.as_str(), entry));
                }
                _ => self.refuse(&format!("{name}.{key}"), "must be an object"),
            }
        }
        Some(entries)
    }
}
