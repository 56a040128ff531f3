//! A JSON request body, parsed once by core's JSON reader
//! ([`crossborder_core::json`]) into a tree that the generated views of
//! `crossborder-core` read: every operation reads its body the same way, so
//! the same mistake is reported the same way everywhere.
//!
//! The body is walked once, however deep it nests: strings are unescaped
//! once, numbers keep their exact text (never through `f64`), and the
//! reader records a violation for each field of the wrong type (naming its
//! path, `businessAddress.city`) and reads it as absent, so the validator
//! still sees, and reports, every other field.

pub(crate) mod read;

use crossborder_core::json::{
    parse_object, Json, JsonReader, NullFields, Object, ParseError, Policy, UnknownFields,
};
use crossborder_core::Violation;
use rust_decimal::Decimal;

use axum::extract::{FromRequest, Request};

use crate::amount::check_max_amount;
use crate::http::body::read::{read_body, require_json_content_type, too_deep, MAX_JSON_DEPTH};
use crate::http::error::ApiError;
use crate::store::idempotency::WireFields;
use crate::store::state::AppState;

/// How the sandbox reads a body, as the service does: `null` is not a
/// string (nor any other type a field has), and a field no operation reads
/// is left alone.
const POLICY: Policy = Policy {
    null: NullFields::WrongType,
    unknown: UnknownFields::Ignore,
};

/// The reader of a [`Body`] for a generated view.
pub(crate) type BodyReader<'a> = JsonReader<'a>;

/// Appends the canonical text of `value` (see [`Body::fingerprint`]):
/// JSON, but a number is its normalised text, so values compare by what
/// they say, not by how they were written.
fn write_canonical(value: &Json, out: &mut String) {
    match value {
        Json::Null => out.push_str("null"),
        Json::Bool(value) => out.push_str(if *value { "true" } else { "false" }),
        Json::Number(number) => out.push_str(number.text()),
        Json::Text(text) => out.push_str(&serde_json::Value::from(text.as_str()).to_string()),
        Json::List(items) => {
            out.push('[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                write_canonical(item, out);
            }
            out.push(']');
        }
        Json::Object(members) => write_canonical_object(members, out),
    }
}

/// Appends the canonical text of an object's members (see [`write_canonical`]).
fn write_canonical_object(members: &Object, out: &mut String) {
    out.push('{');
    for (index, (key, value)) in members.iter().enumerate() {
        if index > 0 {
            out.push(',');
        }
        out.push_str(&serde_json::Value::from(key.as_str()).to_string());
        out.push(':');
        write_canonical(value, out);
    }
    out.push('}');
}

/// The sandbox's amount cap on every number a view reads.
fn capped(path: &str, value: Decimal) -> Result<(), Violation> {
    check_max_amount(path, value).map(drop)
}

/// A request body, decoded: a JSON object of at most
/// [`SandboxConfig::max_json_body_bytes`](crate::SandboxConfig::max_json_body_bytes).
///
/// Rejections: 413 over the limit, 400 `Request body must be a JSON object`
/// for an empty body or another JSON value, 400 `Malformed JSON body: ...`
/// for text that is not JSON, 400 `Request body is nested deeper than 32
/// levels`, and 400 `<path>: must appear only once` for a key given twice
/// in one object, since which of its values counts is up to each parser
/// (ASSUMPTIONS B40).
#[derive(Debug)]
pub(crate) struct Body {
    root: Object,
}

impl FromRequest<AppState> for Body {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &AppState) -> Result<Self, Self::Rejection> {
        let config = state.config();
        let (limit, idle) = (config.max_json_body_bytes, config.body_idle_timeout);
        let (parts, body) = request.into_parts();
        require_json_content_type(&parts.headers)?;
        let bytes = read_body(&parts.headers, body, limit, idle).await?;
        Body::parse(&bytes)
    }
}

impl Body {
    /// Parses a body's bytes, in one pass.
    pub(crate) fn parse(bytes: &[u8]) -> Result<Body, ApiError> {
        match parse_object(bytes, MAX_JSON_DEPTH) {
            Ok(root) => Ok(Body { root }),
            Err(ParseError::NotAnObject) => {
                Err(ApiError::bad_request("Request body must be a JSON object"))
            }
            Err(ParseError::Malformed(error)) => Err(ApiError::bad_request(format!(
                "Malformed JSON body: {error}"
            ))),
            Err(ParseError::TooDeep { .. }) => Err(too_deep()),
            Err(ParseError::Repeated(path)) => Err(ApiError::repeated(path)),
        }
    }

    /// Reads the body into a view with the view's generated `read`, and
    /// returns it with the violations of fields of the wrong type (each
    /// then read as absent), for [`ApiError::checked`].
    pub(crate) fn read<'a, V>(
        &'a self,
        read: impl FnOnce(&mut BodyReader<'a>) -> V,
    ) -> (V, Vec<Violation>) {
        let mut reader = self.reader();
        let view = read(&mut reader);
        (view, reader.finish())
    }

    /// A reader of the top-level object, with no violation yet.
    pub(crate) fn reader(&self) -> BodyReader<'_> {
        JsonReader::new(&self.root, POLICY).with_number_check(capped)
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
            .is_some_and(|value| !matches!(value, Json::Null))
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

#[cfg(test)]
mod tests {
    use crossborder_core::collection::CollectionFields;
    use crossborder_core::kyb::BusinessFields;
    use crossborder_core::payout::PayoutFields;

    use super::*;

    fn parse(text: &str) -> Body {
        match Body::parse(text.as_bytes()) {
            Ok(body) => body,
            Err(error) => panic!("{text}: {}", error.message()),
        }
    }

    fn messages(violations: &[Violation]) -> Vec<String> {
        violations.iter().map(ToString::to_string).collect()
    }

    fn refusal(text: &str) -> ApiError {
        match Body::parse(text.as_bytes()) {
            Ok(body) => panic!("{text} decoded: {body:?}"),
            Err(error) => error,
        }
    }

    #[test]
    fn bodies_that_are_not_objects_are_refused() {
        for text in ["", "  ", "[]", "42", "\"x\"", "null"] {
            assert_eq!(
                refusal(text).message(),
                "Request body must be a JSON object",
                "{text:?}"
            );
        }
        let message = refusal("{\"amount\": ").message().to_owned();
        assert!(message.starts_with("Malformed JSON body: "), "{message}");
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
    }

    #[test]
    fn a_wrong_type_is_recorded_and_read_as_absent() {
        let body = parse(r#"{"sessionId": 5, "amount": "10", "sortCode": "12-34-56", "x": 1}"#);
        let mut reader = body.reader();
        let view = PayoutFields::read(&mut reader);
        assert_eq!(view.session_id, None);
        assert_eq!(view.amount, Some("10"));
        assert_eq!(view.sort_code, Some("12-34-56"));
        assert_eq!(messages(&reader.finish()), ["sessionId: must be a string"]);
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
            messages(&reader.finish()),
            [
                "amount: must be a number",
                "toCurrency: must be a string",
                "paymentReference: must be a string",
                "rateKey: must be a string",
            ]
        );

        // Too many digits, also in exponent notation, which is never
        // rounded to fit (found by tests/hostile: it read as 1); and more
        // than the sandbox's amount cap.
        let inexact = "amount: has more digits than can be represented exactly";
        for (sent, message) in [
            ("1.00000000000000000000000000000001", inexact),
            ("1.0000000000000000000000000000001e0", inexact),
            (
                "1000000000000000.01",
                "amount: must be at most 1000000000000000",
            ),
        ] {
            let body = parse(&format!(r#"{{"amount": {sent}}}"#));
            let (_, violations) = body.read(CollectionFields::read);
            assert_eq!(messages(&violations), [message], "{sent}");
        }
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
            messages(&reader.finish()),
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
