//! A payout given as the API's own wire JSON (`POST /api/payout`): every
//! violation at once, and the request it makes when valid.

use crossborder_core::json::{JsonReader, NullFields, Policy, UnknownFields};
use crossborder_core::payout::PayoutFields;
use crossborder_core::Violations;
use serde::Serialize;
use serde_json::Value;

use super::{object_of, with_type_errors, FieldMessage};
use crate::types::PayoutRequest;

/// A payout's reading: `null` is absent, and other fields are left alone,
/// as the API leaves them.
const POLICY: Policy = Policy {
    null: NullFields::Absent,
    unknown: UnknownFields::Ignore,
};

/// The verdict on a payout body. Serialises as
/// `{"valid": bool, "violations": [{"field", "message"}]}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PayoutVerdict {
    /// True when the body breaks no rule.
    pub valid: bool,
    /// Every violation: the JSON type errors first, then the payout rules,
    /// each field once.
    pub violations: Vec<FieldMessage>,
}

/// Reads `body`, a payout in the API's wire JSON, into a [`PayoutRequest`]
/// with the rules of [`PayoutRequest::from_fields`], plus the JSON type of
/// each field: every field is a string (the amount too, an exact decimal
/// such as `"2500.00"`, as the API reads it), and a field of another type is
/// reported once, as `must be a string`, and not again as missing.
///
/// ```
/// use crossborder::json::payout_from_json;
/// use serde_json::json;
///
/// let body = json!({"amount": "2500.00", "fromCurrency": "NGN", "toCurrency": "NGN",
///                   "sessionId": "payout-77", "accountNumber": "0123456789",
///                   "accountName": "ADAEZE OKAFOR", "bankName": "Guaranty Trust Bank",
///                   "bankCode": "058"});
/// let payout = payout_from_json(&body).unwrap();
/// assert_eq!(payout.amount.to_string(), "2500.00");
///
/// let refused = payout_from_json(&json!({"amount": 2500, "sessionId": "payout-78"})).unwrap_err();
/// assert_eq!(
///     refused.to_string(),
///     "amount: must be a string; fromCurrency: is required; toCurrency: is required"
/// );
/// ```
pub fn payout_from_json(body: &Value) -> Result<PayoutRequest, Violations> {
    read(body, true)
}

/// [`payout_from_json`] checking everything but the quote: a converting
/// payout without `rateKey` is read (its `rate_key` `None`), every other
/// rule applies, as [`PayoutRequest::validate_unquoted`] checks it. For a
/// payout quoted later, just before it is sent (`crossborder-ledger`).
///
/// ```
/// use crossborder::json::{payout_from_json, payout_from_json_unquoted};
/// use serde_json::json;
///
/// let body = json!({"amount": "100.00", "fromCurrency": "USD", "toCurrency": "KES",
///                   "sessionId": "payout-79", "accountNumber": "1234567890",
///                   "accountName": "WANJIKU KAMAU", "bankName": "Equity Bank",
///                   "bankCode": "68"});
/// let payout = payout_from_json_unquoted(&body).unwrap();
/// assert_eq!(payout.rate_key, None);
/// assert!(payout.needs_quote());
/// assert_eq!(
///     payout_from_json(&body).unwrap_err().to_string(),
///     "rateKey: is required when fromCurrency (USD) differs from toCurrency (KES)"
/// );
/// ```
pub fn payout_from_json_unquoted(body: &Value) -> Result<PayoutRequest, Violations> {
    read(body, false)
}

/// A stand-in `rateKey`, never sent: the rules run on it where a payout is
/// read before its quote exists, and the request is left without one.
const UNQUOTED: &str = "unquoted";

fn read(body: &Value, quoted: bool) -> Result<PayoutRequest, Violations> {
    let object = object_of(body)?;
    let mut reader = JsonReader::new(&object, POLICY);
    let fields = PayoutFields::read(&mut reader);
    let stand_in = !quoted && fields.rate_key.is_none();
    let checked = if stand_in {
        PayoutFields {
            rate_key: Some(UNQUOTED),
            ..fields
        }
    } else {
        fields
    };
    let result = PayoutRequest::from_fields(&checked).map(|mut request| {
        if stand_in {
            request.rate_key = None;
        }
        request
    });
    let rules = result.as_ref().map(drop).map_err(Clone::clone);
    with_type_errors(reader.finish(), rules).and(result)
}

/// `request` as the API's wire JSON: the body
/// [`Payouts::create`](crate::Payouts::create) sends, each value in the
/// form it is sent in; [`payout_from_json`] reads it back. For code that
/// keeps payouts as text (a queue, a database) without listing their fields.
///
/// ```
/// use crossborder::json::{payout_from_json, payout_to_json};
/// use crossborder::types::PayoutRequest;
/// use crossborder::{dec, Currency};
///
/// let payout = PayoutRequest::new("payout-77", dec!(2500.00), Currency::Ngn, Currency::Ngn)
///     .account_number("0123456789")
///     .account_name("ADAEZE OKAFOR")
///     .bank_name("Guaranty Trust Bank")
///     .bank_code("058");
/// let body = payout_to_json(&payout)?;
/// assert_eq!(body["amount"], "2500.00");
/// assert_eq!(body["bankCode"], "058");
/// assert_eq!(payout_from_json(&body).unwrap(), payout);
/// # Ok::<(), crossborder::Error>(())
/// ```
pub fn payout_to_json(request: &PayoutRequest) -> crate::Result<Value> {
    let body = request.to_wire()?;
    serde_json::to_value(body).map_err(|error| crate::Error::InvalidRequest {
        message: error.to_string(),
    })
}

/// Checks `body`, a payout in the API's wire JSON, as [`payout_from_json`]
/// reads it, and returns the verdict.
///
/// ```
/// use crossborder::json::check_payout_json;
/// use serde_json::json;
///
/// let verdict = check_payout_json(&json!({"amount": true, "fromCurrency": "NGN",
///                                         "toCurrency": "NGN", "sessionId": "p-1"}));
/// assert!(!verdict.valid);
/// assert_eq!(verdict.violations[0].field, "amount");
/// assert_eq!(verdict.violations[0].message, "must be a string");
/// ```
pub fn check_payout_json(body: &Value) -> PayoutVerdict {
    verdict(payout_from_json(body))
}

/// [`check_payout_json`] of everything but the quote, as
/// [`payout_from_json_unquoted`] reads the body: a converting payout
/// without `rateKey` is valid when every other rule holds.
///
/// ```
/// use crossborder::json::check_payout_json_unquoted;
/// use serde_json::json;
///
/// let verdict = check_payout_json_unquoted(&json!({"amount": "100.00", "fromCurrency": "USD",
///     "toCurrency": "NGN", "sessionId": "p-1", "accountNumber": "0123456789"}));
/// let fields: Vec<&str> = verdict.violations.iter().map(|v| v.field.as_str()).collect();
/// assert_eq!(fields, ["accountName", "bankName", "bankCode"]);
/// ```
pub fn check_payout_json_unquoted(body: &Value) -> PayoutVerdict {
    verdict(payout_from_json_unquoted(body))
}

fn verdict(read: Result<PayoutRequest, Violations>) -> PayoutVerdict {
    let violations = read.err().map(Violations::into_vec).unwrap_or_default();
    PayoutVerdict {
        valid: violations.is_empty(),
        violations: violations.into_iter().map(FieldMessage::from).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Currency;
    use serde_json::json;

    fn ngn() -> Value {
        json!({"amount": "2500.00", "fromCurrency": "NGN", "toCurrency": "NGN",
               "sessionId": "payout-77", "accountNumber": "0123456789",
               "accountName": "ADAEZE OKAFOR", "bankName": "Guaranty Trust Bank",
               "bankCode": "058", "narration": "June invoice"})
    }

    fn pairs(verdict: &PayoutVerdict) -> Vec<(&str, &str)> {
        verdict
            .violations
            .iter()
            .map(|v| (v.field.as_str(), v.message.as_str()))
            .collect()
    }

    #[test]
    fn a_valid_body_makes_the_request_with_every_field() {
        let payout = payout_from_json(&ngn()).unwrap();
        assert_eq!(payout.session_id, "payout-77");
        assert_eq!(payout.amount.to_string(), "2500.00");
        assert_eq!(
            (payout.from_currency, payout.to_currency),
            (Currency::Ngn, Currency::Ngn)
        );
        assert_eq!(payout.account_number.as_deref(), Some("0123456789"));
        assert_eq!(payout.bank_code.as_deref(), Some("058"));
        assert_eq!(payout.narration.as_deref(), Some("June invoice"));
        let verdict = check_payout_json(&ngn());
        assert_eq!(
            serde_json::to_value(&verdict).unwrap(),
            json!({"valid": true, "violations": []})
        );
    }

    #[test]
    fn type_errors_come_first_each_field_once_then_the_rules() {
        let mut body = ngn();
        body["amount"] = json!(true);
        body["bankCode"] = json!(58);
        body["sessionId"] = json!("payout 77");
        body["accountNumber"] = json!("01234");
        assert_eq!(
            pairs(&check_payout_json(&body)),
            [
                ("amount", "must be a string"),
                ("bankCode", "must be a string"),
                (
                    "sessionId",
                    "must be 1 to 100 characters of letters, digits, '-' or '_'"
                ),
                (
                    "accountNumber",
                    "must be a 10-digit NUBAN account number, such as 0123456789"
                ),
            ]
        );
    }

    #[test]
    fn a_number_amount_is_refused_as_the_api_refuses_it() {
        // JSON numbers pass through binary floating point in most readers;
        // the API reads the payout amount as a decimal string (ASSUMPTIONS A5).
        let mut body = ngn();
        body["amount"] = json!(2500.10);
        assert_eq!(
            pairs(&check_payout_json(&body)),
            [("amount", "must be a string")]
        );
    }

    #[test]
    fn null_is_absent_and_missing_fields_are_each_reported() {
        let verdict = check_payout_json(&json!({"amount": "5", "narration": null}));
        assert_eq!(
            pairs(&verdict),
            [
                ("fromCurrency", "is required"),
                ("toCurrency", "is required"),
                ("sessionId", "is required"),
            ]
        );
        assert!(!verdict.valid);
    }

    #[test]
    fn a_body_that_is_not_an_object_is_one_violation() {
        for body in [json!([ngn()]), json!("payout"), json!(null)] {
            assert_eq!(
                pairs(&check_payout_json(&body)),
                [("body", "must be a JSON object")],
                "{body}"
            );
        }
    }
}
