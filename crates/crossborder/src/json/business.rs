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

use crossborder_core::json::{NullFields, Policy, UnknownFields};
use crossborder_core::kyb::{
    normalise_document_key, nothing_to_update, validate_business_create, validate_business_update,
    validate_person, BusinessFields, PersonFields, PersonRole,
};
use crossborder_core::{Violation, Violations};
use serde::Serialize;
use serde_json::Value;

use super::{read_and_check, FieldMessage};
use crate::types::DocumentKeyMapping;

/// A business request's reading: `null` is absent, and a field the request
/// does not have is refused (C17).
const POLICY: Policy = Policy {
    null: NullFields::Absent,
    unknown: UnknownFields::Refuse,
};

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
    let checked = read_and_check(body, POLICY, |reader| {
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
    read_and_check(body, POLICY, |reader| {
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
