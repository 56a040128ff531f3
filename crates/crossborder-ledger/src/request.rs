//! A payout request as the ledger stores it: the API's wire JSON, keys
//! sorted, so the same request is always the same text.

use std::time::SystemTime;

use crossborder::error::Violations;
use crossborder::json::{payout_from_json_unquoted, payout_to_json};
use crossborder::types::PayoutRequest;
use serde_json::Value;

use crate::time::{from_ms, to_ms};

/// Not a wire field: when the quote's rate key expires
/// ([`PayoutRequest::rate_key_valid_until`]), kept so the dispatcher
/// refuses to send a payout of an expired quote as the SDK does.
const VALID_UNTIL: &str = "x-rateKeyValidUntilMs";

/// The stored text of `request`: its wire JSON (the SDK's
/// [`payout_to_json`], so no field is listed here), plus when its quote's
/// rate key expires.
pub(crate) fn to_text(request: &PayoutRequest) -> Result<String, crossborder::Error> {
    let mut body = payout_to_json(request)?;
    if let (Some(valid_until), Some(object)) = (request.rate_key_valid_until, body.as_object_mut())
    {
        object.insert(VALID_UNTIL.to_owned(), Value::from(to_ms(valid_until)));
    }
    Ok(canonical(&body))
}

/// The request stored as `text`.
pub(crate) fn from_text(text: &str) -> Result<PayoutRequest, String> {
    let value: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let mut request = from_value(&value).map_err(|violations| violations.to_string())?;
    request.rate_key_valid_until = value.get(VALID_UNTIL).and_then(Value::as_i64).map(from_ms);
    Ok(request)
}

/// A batch item (the API's wire JSON) read as a payout, with every
/// violation but a converting payout's missing `rateKey` (the dispatcher
/// quotes such a payout at send time).
pub(crate) fn from_value(item: &Value) -> Result<PayoutRequest, Violations> {
    payout_from_json_unquoted(item)
}

/// `value` as text with every object's keys in order, whatever order the
/// caller's JSON had, so equal items are equal text. Written straight from
/// `value`, with no sorted copy of it built first.
pub(crate) fn canonical(value: &Value) -> String {
    /// A value that serialises its objects' keys in order.
    struct Sorted<'a>(&'a Value);

    impl serde::Serialize for Sorted<'_> {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeMap;
            match self.0 {
                Value::Object(object) => {
                    let mut entries: Vec<(&String, &Value)> = object.iter().collect();
                    // Keys are unique, so an unstable sort gives one order.
                    entries.sort_unstable_by(|a, b| a.0.cmp(b.0));
                    let mut map = serializer.serialize_map(Some(entries.len()))?;
                    for (key, value) in entries {
                        map.serialize_entry(key, &Sorted(value))?;
                    }
                    map.end()
                }
                Value::Array(items) => serializer.collect_seq(items.iter().map(Sorted)),
                other => other.serialize(serializer),
            }
        }
    }

    // Writing JSON with string keys to a `Vec` cannot fail; were it to,
    // the value's own text still tells different items apart.
    serde_json::to_string(&Sorted(value)).unwrap_or_else(|_| value.to_string())
}

/// Whether `request` carries an expired quote (the SDK refuses to send it).
#[allow(dead_code)]
pub(crate) fn expired(request: &PayoutRequest) -> bool {
    request
        .rate_key_valid_until
        .is_some_and(|until| SystemTime::now() >= until)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossborder::{Currency, Decimal};
    use serde_json::json;

    #[test]
    fn a_request_survives_the_database_whole() {
        let request = PayoutRequest::new(
            "p-1",
            Decimal::new(250_050, 2),
            Currency::Ngn,
            Currency::Ngn,
        )
        .account_number("0123456789")
        .account_name("ADAEZE OKAFOR")
        .bank_name("Guaranty Trust Bank")
        .bank_code("058")
        .narration("June invoice");
        let text = to_text(&request).unwrap();
        assert_eq!(
            text,
            r#"{"accountName":"ADAEZE OKAFOR","accountNumber":"0123456789","amount":"2500.50","bankCode":"058","bankName":"Guaranty Trust Bank","fromCurrency":"NGN","narration":"June invoice","sessionId":"p-1","toCurrency":"NGN"}"#
        );
        assert_eq!(from_text(&text), Ok(request));
    }

    #[test]
    fn key_order_does_not_change_the_canonical_text() {
        assert_eq!(
            canonical(&json!({"b": 1, "a": {"d": "x", "c": [ {"f": 1, "e": 2} ]}})),
            r#"{"a":{"c":[{"e":2,"f":1}],"d":"x"},"b":1}"#
        );
    }
}
