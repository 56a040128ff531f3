//! A JSON request body decoded once into a tree, and the
//! [`FieldReader`] that the generated views of `crossborder-core` read it
//! through: every operation reads its body the same way, so the same
//! mistake is reported the same way everywhere.
//!
//! Strings are unescaped once, numbers keep their exact text (never
//! through `f64`), and the reader records a violation for each field of the
//! wrong type (naming its path, `businessAddress.city`) and reads it as
//! absent, so the validator still sees, and reports, every other field.

use std::collections::BTreeMap;

use crossborder_core::{parse_scientific_exact, FieldReader, Rule, Violation};
use rust_decimal::Decimal;
use serde_json::value::RawValue;

use axum::extract::{FromRequest, Request};

use crate::amount::{amount_key, check_max_amount};
use crate::error::ApiError;
use crate::idempotency::WireFields;
use crate::json::{
    parse_object, read_body, require_json_content_type, too_deep, Keyed, MAX_JSON_DEPTH,
};
use crate::state::AppState;

/// A decoded JSON value.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Node {
    Null,
    Bool(bool),
    /// A number: its value when it can be held exactly, and its text
    /// without trailing zeros (`1e3` and `1000.00` are `1000`), which is
    /// what the validators and idempotency compare.
    Number(Option<Decimal>, String),
    Text(String),
    List(Vec<Node>),
    Object(BTreeMap<String, Node>),
}

impl Node {
    /// Appends the canonical text of this value (see [`Body::fingerprint`]):
    /// JSON, but a number is its normalised text, so values compare by what
    /// they say, not by how they were written.
    fn write_canonical(&self, out: &mut String) {
        match self {
            Node::Null => out.push_str("null"),
            Node::Bool(value) => out.push_str(if *value { "true" } else { "false" }),
            Node::Number(_, text) => out.push_str(text),
            Node::Text(text) => out.push_str(&serde_json::Value::from(text.as_str()).to_string()),
            Node::List(items) => {
                out.push('[');
                for (index, item) in items.iter().enumerate() {
                    if index > 0 {
                        out.push(',');
                    }
                    item.write_canonical(out);
                }
                out.push(']');
            }
            Node::Object(members) => write_canonical_object(members, out),
        }
    }

    /// Decodes `raw`, the value at `path` (for messages), `depth` levels
    /// down (the top-level object's members are at depth 2). Each level
    /// parses its text again, so the depth is bounded here as well as
    /// before parsing ([`MAX_JSON_DEPTH`]).
    fn decode(raw: &RawValue, path: &str, depth: usize) -> Result<Node, ApiError> {
        let text = raw.get().trim_start();
        let malformed = |error: serde_json::Error| {
            ApiError::bad_request(format!("Malformed JSON body: {error}"))
        };
        let first = text.as_bytes().first();
        if matches!(first, Some(b'{' | b'[')) && depth > MAX_JSON_DEPTH {
            return Err(too_deep());
        }
        Ok(match first {
            Some(b'{') => {
                let keyed: Keyed = serde_json::from_str(text).map_err(malformed)?;
                Node::Object(decode_object(keyed, path, depth)?)
            }
            Some(b'[') => {
                let items: Vec<Box<RawValue>> = serde_json::from_str(text).map_err(malformed)?;
                Node::List(
                    items
                        .iter()
                        .enumerate()
                        .map(|(index, item)| {
                            Node::decode(item, &format!("{path}[{index}]"), depth + 1)
                        })
                        .collect::<Result<_, _>>()?,
                )
            }
            Some(b'"') => Node::Text(serde_json::from_str(text).map_err(malformed)?),
            Some(b't' | b'f') => Node::Bool(serde_json::from_str(text).map_err(malformed)?),
            Some(b'n') => Node::Null,
            _ => {
                let text = text.trim_end();
                let value = if text.contains(['e', 'E']) {
                    // Exactly or not at all (`from_scientific` rounds).
                    parse_scientific_exact(text).ok()
                } else {
                    Decimal::from_str_exact(text).ok()
                };
                let normalised = value.map_or_else(|| text.to_owned(), amount_key);
                Node::Number(value, normalised)
            }
        })
    }
}

/// Appends the canonical text of an object's members (see [`Node::write_canonical`]).
fn write_canonical_object(members: &BTreeMap<String, Node>, out: &mut String) {
    out.push('{');
    for (index, (key, value)) in members.iter().enumerate() {
        if index > 0 {
            out.push(',');
        }
        out.push_str(&serde_json::Value::from(key.as_str()).to_string());
        out.push(':');
        value.write_canonical(out);
    }
    out.push('}');
}

/// Decodes the members of the object at `path`, `depth` levels down; a key
/// given twice is refused (`<path>: must appear only once`), since which of
/// its values counts is up to each parser (ASSUMPTIONS B40).
fn decode_object(
    keyed: Keyed,
    path: &str,
    depth: usize,
) -> Result<BTreeMap<String, Node>, ApiError> {
    let member = |key: &str| {
        if path.is_empty() {
            key.to_owned()
        } else {
            format!("{path}.{key}")
        }
    };
    if let Some(key) = keyed.repeated {
        return Err(ApiError::repeated(member(&key)));
    }
    keyed
        .object
        .iter()
        .map(|(key, raw)| Ok((key.clone(), Node::decode(raw, &member(key), depth + 1)?)))
        .collect()
}

/// The object a value of the wrong type reads as.
static EMPTY: BTreeMap<String, Node> = BTreeMap::new();

/// A request body, decoded: a JSON object of at most
/// [`SandboxConfig::max_json_body_bytes`](crate::SandboxConfig::max_json_body_bytes).
///
/// Rejections: 413 over the limit, 400 `Request body must be a JSON object`
/// for an empty body or another JSON value, 400 `Malformed JSON body: ...`
/// for text that is not JSON.
#[derive(Debug)]
pub(crate) struct Body {
    root: BTreeMap<String, Node>,
}

impl FromRequest<AppState> for Body {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &AppState) -> Result<Self, Self::Rejection> {
        let config = state.config();
        let (limit, idle) = (config.max_json_body_bytes, config.body_idle_timeout);
        let (parts, body) = request.into_parts();
        require_json_content_type(&parts.headers)?;
        let bytes = read_body(&parts.headers, body, limit, idle).await?;
        Body::decode(parse_object(&bytes)?)
    }
}

impl Body {
    /// Reads the body into a view with the view's generated `read`, and
    /// returns it with the violations of fields of the wrong type (each
    /// then read as absent), for [`ApiError::checked`].
    pub(crate) fn read<'a, V>(
        &'a self,
        read: impl FnOnce(&mut BodyReader<'a>) -> V,
    ) -> (V, Vec<Violation>) {
        let mut reader = self.reader();
        let view = read(&mut reader);
        (view, reader.into_violations())
    }

    /// Decodes a body already parsed as a JSON object.
    pub(crate) fn decode(object: Keyed) -> Result<Body, ApiError> {
        Ok(Body {
            root: decode_object(object, "", 1)?,
        })
    }

    /// A reader of the top-level object, with no violation yet.
    pub(crate) fn reader(&self) -> BodyReader<'_> {
        BodyReader {
            current: &self.root,
            prefix: String::new(),
            violations: Vec::new(),
        }
    }

    /// A canonical text of the whole body (keys sorted, numbers as their
    /// text without trailing zeros, strings unescaped): two bodies with the
    /// same fingerprint say the same thing, however they were written
    /// (`1`, `1.0` and `1e0` alike).
    pub(crate) fn fingerprint(&self) -> String {
        let mut text = String::new();
        write_canonical_object(&self.root, &mut text);
        text
    }

    /// Whether the top-level field `name` was sent with a value (`null`
    /// counts as not sent).
    pub(crate) fn has(&self, name: &str) -> bool {
        self.root
            .get(name)
            .is_some_and(|node| !matches!(node, Node::Null))
    }
}

/// The fields of a flat view that were read, by wire name: what
/// idempotency compares to tell a repeat from a different request.
pub(crate) fn wire_fields<'a>(
    names: &[&'static str],
    get: impl Fn(&str) -> Option<&'a str>,
) -> WireFields {
    names
        .iter()
        .filter_map(|name| Some((*name, get(name)?.to_owned())))
        .collect()
}

/// Reads a [`Body`] for a generated view, recording wrong types.
pub(crate) struct BodyReader<'a> {
    current: &'a BTreeMap<String, Node>,
    prefix: String,
    violations: Vec<Violation>,
}

impl<'a> BodyReader<'a> {
    /// The violations recorded while reading: one per field of the wrong
    /// type, in reading (spec) order.
    pub(crate) fn into_violations(self) -> Vec<Violation> {
        self.violations
    }

    fn path(&self, name: &str) -> String {
        format!("{}{name}", self.prefix)
    }

    fn wrong_type(&mut self, name: &str, message: &str) {
        let path = self.path(name);
        self.violations
            .push(Violation::new(path, Rule::InvalidFormat, message));
    }

    fn node(&self, name: &str) -> Option<&'a Node> {
        self.current.get(name)
    }

    fn descend<T>(
        &mut self,
        object: &'a BTreeMap<String, Node>,
        path: String,
        read: impl FnOnce(&mut Self) -> T,
    ) -> T {
        let outer = std::mem::replace(&mut self.current, object);
        let outer_prefix = std::mem::replace(&mut self.prefix, format!("{path}."));
        let value = read(self);
        self.current = outer;
        self.prefix = outer_prefix;
        value
    }
}

impl<'a> FieldReader<'a> for BodyReader<'a> {
    fn text(&mut self, name: &'static str) -> Option<&'a str> {
        match self.node(name)? {
            Node::Text(text) => Some(text),
            _ => {
                self.wrong_type(name, "must be a string");
                None
            }
        }
    }

    fn number(&mut self, name: &'static str) -> Option<&'a str> {
        let Some(Node::Number(value, text)) = self.node(name) else {
            self.node(name)?;
            self.wrong_type(name, "must be a number");
            return None;
        };
        let Some(amount) = value else {
            let path = self.path(name);
            self.violations.push(Violation::new(
                path,
                Rule::InvalidFormat,
                "has more digits than can be represented exactly",
            ));
            return None;
        };
        match check_max_amount(&self.path(name), *amount) {
            Ok(_) => Some(text),
            Err(violation) => {
                self.violations.push(violation);
                None
            }
        }
    }

    fn flag(&mut self, name: &'static str) -> Option<bool> {
        match self.node(name)? {
            Node::Bool(value) => Some(*value),
            _ => {
                self.wrong_type(name, "must be a boolean");
                None
            }
        }
    }

    fn list(&mut self, name: &'static str) -> Option<Vec<&'a str>> {
        let Some(Node::List(items)) = self.node(name) else {
            self.node(name)?;
            self.wrong_type(name, "must be an array of strings");
            return None;
        };
        let texts: Option<Vec<&'a str>> = items
            .iter()
            .map(|item| match item {
                Node::Text(text) => Some(text.as_str()),
                _ => None,
            })
            .collect();
        if texts.is_none() {
            self.wrong_type(name, "must be an array of strings");
        }
        texts
    }

    fn object<T>(&mut self, name: &'static str, read: impl FnOnce(&mut Self) -> T) -> Option<T> {
        let Some(Node::Object(object)) = self.node(name) else {
            self.node(name)?;
            self.wrong_type(name, "must be an object");
            return None;
        };
        let path = self.path(name);
        Some(self.descend(object, path, read))
    }

    fn map<T>(
        &mut self,
        name: &'static str,
        mut read: impl FnMut(&mut Self) -> T,
    ) -> Option<Vec<(&'a str, T)>> {
        let Some(Node::Object(map)) = self.node(name) else {
            self.node(name)?;
            self.wrong_type(name, "must be an object");
            return None;
        };
        let mut entries = Vec::with_capacity(map.len());
        for (key, value) in map {
            let path = format!("{}.{key}", self.path(name));
            match value {
                Node::Object(object) => {
                    entries.push((key.as_str(), self.descend(object, path, &mut read)));
                }
                _ => {
                    // The key was sent, so it counts (a required document is
                    // not also reported missing); its parts read as absent.
                    self.violations.push(Violation::new(
                        path.clone(),
                        Rule::InvalidFormat,
                        "must be an object",
                    ));
                    entries.push((key.as_str(), self.descend(&EMPTY, path, &mut read)));
                }
            }
        }
        Some(entries)
    }
}

#[cfg(test)]
mod tests {
    use crossborder_core::collection::CollectionFields;
    use crossborder_core::kyb::BusinessFields;
    use crossborder_core::payout::PayoutFields;

    use super::*;
    use crate::json::parse_object;

    fn parse(text: &str) -> Body {
        let Ok(object) = parse_object(text.as_bytes()) else {
            panic!("not an object: {text}");
        };
        Body::decode(object).unwrap()
    }

    fn messages(violations: &[Violation]) -> Vec<String> {
        violations.iter().map(ToString::to_string).collect()
    }

    fn refusal(text: &str) -> ApiError {
        match parse_object(text.as_bytes()).and_then(Body::decode) {
            Ok(body) => panic!("{text} decoded: {body:?}"),
            Err(error) => error,
        }
    }

    #[test]
    fn a_repeated_key_is_refused_naming_its_path() {
        for (text, field) in [
            (r#"{"amount": "1", "amount": "1000000"}"#, "amount"),
            (
                r#"{"businessAddress": {"city": "Lekki", "city": "Ikeja"}}"#,
                "businessAddress.city",
            ),
            (
                r#"{"documents": {"cac": {"url": "a"}, "cac": {"url": "b"}}}"#,
                "documents.cac",
            ),
            (r#"{"activities": [{"a": 1, "a": 2}]}"#, "activities[0].a"),
        ] {
            let error = refusal(text);
            assert_eq!(error.status(), axum::http::StatusCode::BAD_REQUEST);
            assert_eq!(error.message(), format!("{field}: must appear only once"));
            assert_eq!(error.errors[0].field, field);
        }
    }

    #[test]
    fn nesting_is_bounded() {
        let nested = |levels: usize| {
            // `levels` counts the top-level object.
            let inner = levels - 1;
            format!("{{\"x\":{}{}}}", "[".repeat(inner), "]".repeat(inner))
        };
        parse(&nested(MAX_JSON_DEPTH));
        // Brackets in strings are not nesting.
        parse(&format!("{{\"x\":\"{}\\\"[\"}}", "[{".repeat(100)));
        let objects =
            |levels: usize| format!("{}1{}", "{\"a\":".repeat(levels), "}".repeat(levels));
        parse(&objects(MAX_JSON_DEPTH));
        for text in [
            nested(MAX_JSON_DEPTH + 1),
            nested(100_000),
            objects(MAX_JSON_DEPTH + 1),
        ] {
            assert_eq!(
                refusal(&text).message(),
                "Request body is nested deeper than 32 levels"
            );
        }
        // Decoding stops at the same depth on its own.
        let raw = RawValue::from_string(format!("{}{}", "[".repeat(40), "]".repeat(40))).unwrap();
        let Err(error) = Node::decode(&raw, "x", 2) else {
            panic!("decoded 41 levels");
        };
        assert_eq!(
            error.message(),
            "Request body is nested deeper than 32 levels"
        );
    }

    #[test]
    fn a_wrong_type_is_recorded_and_read_as_absent() {
        let body = parse(r#"{"sessionId": 5, "amount": "10", "sortCode": "12-34-56", "x": 1}"#);
        let mut reader = body.reader();
        let view = PayoutFields::read(&mut reader);
        assert_eq!(view.session_id, None);
        assert_eq!(view.amount, Some("10"));
        assert_eq!(view.sort_code, Some("12-34-56"));
        assert_eq!(
            messages(&reader.into_violations()),
            ["sessionId: must be a string"]
        );
    }

    #[test]
    fn numbers_are_exact_and_normalised() {
        for (sent, read) in [("1e3", "1000"), ("100.50", "100.5"), ("-5", "-5")] {
            let body = parse(&format!(r#"{{"amount": {sent}}}"#));
            let (view, violations) = body.read(CollectionFields::read);
            assert_eq!(view.amount, Some(read));
            assert!(violations.is_empty());
        }

        let body = parse(
            r#"{"amount": "10", "paymentReference": 7, "toCurrency": null,
                "rateKey": 1.00000000000000000000000000000001}"#,
        );
        let mut reader = body.reader();
        let view = CollectionFields::read(&mut reader);
        assert_eq!(view.amount, None);
        assert_eq!(
            messages(&reader.into_violations()),
            [
                "amount: must be a number",
                "toCurrency: must be a string",
                "paymentReference: must be a string",
                "rateKey: must be a string",
            ]
        );

        // Also in exponent notation, which is never rounded to fit (found by
        // tests/hostile: it read as 1).
        for sent in [
            "1.00000000000000000000000000000001",
            "1.0000000000000000000000000000001e0",
        ] {
            let body = parse(&format!(r#"{{"amount": {sent}}}"#));
            let mut reader = body.reader();
            CollectionFields::read(&mut reader);
            assert_eq!(
                messages(&reader.into_violations()),
                ["amount: has more digits than can be represented exactly"],
                "{sent}"
            );
        }
        let body = parse(r#"{"amount": 1.00000000000000000000000000000001}"#);
        let mut reader = body.reader();
        CollectionFields::read(&mut reader);
        assert_eq!(
            messages(&reader.into_violations()),
            ["amount: has more digits than can be represented exactly"]
        );
        let body = parse(r#"{"amount": 1000000000000000.01}"#);
        let mut reader = body.reader();
        CollectionFields::read(&mut reader);
        assert_eq!(
            messages(&reader.into_violations()),
            ["amount: must be at most 1000000000000000"]
        );
    }

    #[test]
    fn nested_objects_maps_and_lists_name_their_path() {
        let body = parse(
            r#"{"businessAddress": {"city": 1, "street": "Marina"},
                "operatingAddress": "nowhere",
                "documents": {"cac": {"url": "https://f/c.pdf", "key": 2}, "bank_statement": 3},
                "activities": ["a", 1], "hasWebsite": "yes",
                "monthlyTransactionVolume": {"currency": "NGN", "amount": 5}}"#,
        );
        let mut reader = body.reader();
        let view = BusinessFields::read(&mut reader);
        assert_eq!(view.business_address.street, Some("Marina"));
        assert_eq!(view.business_address.city, None);
        assert_eq!(view.operating_address, None);
        assert_eq!(view.documents.len(), 2);
        assert_eq!(view.documents[0].0, "bank_statement");
        assert_eq!(view.documents[0].1, Default::default());
        assert_eq!(view.documents[1].0, "cac");
        assert_eq!(view.documents[1].1.url, Some("https://f/c.pdf"));
        assert_eq!(
            messages(&reader.into_violations()),
            [
                "businessAddress.city: must be a string",
                "operatingAddress: must be an object",
                "documents.bank_statement: must be an object",
                "documents.cac.key: must be a string",
                "activities: must be an array of strings",
                "monthlyTransactionVolume.amount: must be a string",
                "hasWebsite: must be a boolean",
            ]
        );
    }
}
