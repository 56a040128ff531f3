//! The `schemars` feature: `schemars::JsonSchema` for core's types the SDK
//! re-exports (`Money`, `Currency`, the enums, violations) and for the
//! low-level client's wire types, forwarded from the SDK to
//! `crossborder-core` and `crossborder-api` (the crate's own tests turn it
//! on).

use crossborder::error::Violation;
use crossborder::types::PayoutKind;
use crossborder::{Currency, Money};
use serde_json::{json, Value};

fn schema_of<T: schemars::JsonSchema>() -> Value {
    serde_json::to_value(schemars::schema_for!(T)).unwrap()
}

/// The values an enumeration's schema allows: its `enum`, or each
/// documented variant's under `oneOf`.
fn spellings(schema: &Value) -> Vec<Value> {
    match schema["oneOf"].as_array() {
        Some(variants) => variants.iter().flat_map(spellings).collect(),
        None => schema["enum"].as_array().cloned().unwrap_or_default(),
    }
}

#[test]
fn money_currency_and_violations_have_the_wire_shape() {
    let money = schema_of::<Money>();
    assert_eq!(money["properties"]["amount"]["type"], "string");
    let currency = schema_of::<Currency>();
    let spellings: Vec<Value> = Currency::ALL.iter().map(|c| json!(c.as_str())).collect();
    assert_eq!(self::spellings(&currency), spellings);
    assert_eq!(
        Value::Array(self::spellings(&schema_of::<PayoutKind>())),
        json!(["same_currency", "cross_currency", "crypto"])
    );
    assert_eq!(schema_of::<Violation>()["title"], "Violation");
}

#[test]
fn the_low_level_payout_request_names_its_wire_fields_and_exact_decimals() {
    let schema = schema_of::<crossborder_api::types::PayoutRequest>();
    assert_eq!(schema["title"], "PayoutRequest");
    let properties = &schema["properties"];
    assert_eq!(properties["amount"]["$ref"], "#/definitions/DecimalString");
    assert_eq!(properties["fromCurrency"]["$ref"], "#/definitions/Currency");
    let decimal = &schema["definitions"]["DecimalString"];
    assert_eq!(decimal["type"], "string");
    assert_eq!(decimal["format"], "decimal");
    assert_eq!(decimal["pattern"], r"^[0-9]+(\.[0-9]+)?$");
}
