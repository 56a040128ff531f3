//! Every example in the spec must deserialize into the generated type of its
//! schema and serialize back to the same JSON.
//!
//! Examples are found anywhere in the document next to a `schema` (media
//! types of request bodies, responses and callbacks, parameters, headers) and
//! on component schemas themselves. A `$ref`'d schema is checked with its
//! generated Rust type; an inline primitive schema (`type: string`, ...) is
//! checked for its JSON type; an inline object/array schema cannot be mapped
//! to a type and fails the test (make it a component), except on multipart
//! bodies, which the generator skips.
//!
//! Comparison is on `serde_json::Value` after two normalisations:
//! * numbers compare as decimals (`100`, `100.0` and `1e2` are equal), since
//!   YAML and `Amount`'s serializer may spell the same number differently;
//! * object members whose value is `null` are dropped, because an `Option`
//!   that is `None` is omitted on serialization and, for a reader, `null` and
//!   absent mean the same.

use crate::common;

use std::collections::BTreeMap;
use std::str::FromStr;

use common::load_spec;
use crossborder_api::decimal::{Amount, DecimalString};
use crossborder_api::timestamp::Timestamp;
use crossborder_api::types;
use rust_decimal::Decimal;
use serde_json::Value;

type RoundTrip = fn(&str) -> Result<Value, String>;

fn round_trip<T: serde::de::DeserializeOwned + serde::Serialize>(
    json: &str,
) -> Result<Value, String> {
    let parsed: T = serde_json::from_str(json).map_err(|e| format!("does not deserialize: {e}"))?;
    serde_json::to_value(&parsed).map_err(|e| format!("does not serialize back: {e}"))
}

macro_rules! table {
    ($($name:ident),* $(,)?) => {
        vec![$((stringify!($name), round_trip::<types::$name> as RoundTrip)),*]
    };
}

/// Component schema name -> round trip through its generated type.
fn type_table() -> BTreeMap<&'static str, RoundTrip> {
    let mut table: BTreeMap<&'static str, RoundTrip> = table![
        TransactionStatus,
        TransactionType,
        BusinessStatus,
        PersonRole,
        Quote,
        QuoteResponse,
        PaymentInstruction,
        Transaction,
        TransactionResponse,
        InitiatePaymentRequest,
        Balance,
        BalanceResponse,
        Bank,
        BankListResponse,
        ResolveBankRequest,
        ResolvedAccount,
        ResolveBankResponse,
        PayoutRequest,
        PayoutResponse,
        UploadedDocument,
        UploadDocumentResponse,
        Address,
        NatureOfBusiness,
        DocumentLink,
        ProofOfAddress,
        Documents,
        MonthlyTransactionVolume,
        SourceOfFund,
        CreateBusinessRequest,
        UpdateBusinessRequest,
        Business,
        BusinessResponse,
        PersonRequest,
        Person,
        PersonResponse,
        SetWebhookRequest,
        SimulateFundingRequest,
        MessageResponse,
        WebhookStatus,
        WebhookEvent,
        ErrorRequest,
        FieldError,
        ErrorResponse,
    ]
    .into_iter()
    .collect();
    // Replaced by hand-written decimal types (see xtask codegen).
    table.insert("Amount", round_trip::<Amount>);
    // PositiveAmount has the same Rust type as Amount (see xtask codegen).
    table.insert("PositiveAmount", round_trip::<Amount>);
    table.insert("DecimalString", round_trip::<DecimalString>);
    // Replaced by the hand-written RFC 3339 type (see xtask codegen).
    table.insert("Timestamp", round_trip::<Timestamp>);
    // The spec's closed enums are crossborder-core's own types (see xtask
    // codegen), so these examples also check core's wire spellings.
    table.insert("Currency", round_trip::<crossborder_core::Currency>);
    table.insert("Rail", round_trip::<crossborder_core::Rail>);
    table.insert(
        "BusinessType",
        round_trip::<crossborder_core::kyb::BusinessType>,
    );
    table.insert(
        "ProofOfAddressType",
        round_trip::<crossborder_core::kyb::ProofOfAddressType>,
    );
    table.insert("IdType", round_trip::<crossborder_core::kyb::IdType>);
    table
}

/// Numbers as normalised decimals, null members dropped (see module docs).
fn normalise(value: &Value) -> Value {
    match value {
        Value::Number(n) => {
            let text = n.to_string();
            let dec = if text.contains(['e', 'E']) {
                Decimal::from_scientific(&text)
            } else {
                Decimal::from_str(&text)
            };
            match dec {
                Ok(d) => Value::String(format!("<number {}>", d.normalize())),
                Err(_) => Value::String(format!("<number {text}>")),
            }
        }
        Value::Array(items) => Value::Array(items.iter().map(normalise).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k.clone(), normalise(v)))
                .collect(),
        ),
        other => other.clone(),
    }
}

fn component_name(schema: &Value) -> Option<&str> {
    schema
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.strip_prefix("#/components/schemas/"))
}

/// One example to check.
struct Example {
    at: String,
    schema: Value,
    /// Set for component schemas' own examples.
    component: Option<String>,
    value: Value,
}

/// Collects examples next to a `schema` anywhere under `node`.
fn collect(
    spec: &Value,
    node: &Value,
    at: &str,
    out: &mut Vec<Example>,
    skipped: &mut Vec<String>,
) {
    match node {
        Value::Object(map) => {
            if let Some(schema) = map.get("schema").filter(|s| s.is_object()) {
                let multipart = at.contains("multipart~1");
                let mut push = |where_: String, value: Value| {
                    if multipart {
                        skipped.push(where_);
                    } else {
                        out.push(Example {
                            at: where_,
                            schema: schema.clone(),
                            component: None,
                            value,
                        });
                    }
                };
                if let Some(example) = map.get("example") {
                    push(format!("{at}/example"), example.clone());
                }
                if let Some(examples) = map.get("examples").and_then(Value::as_object) {
                    for (name, ex) in examples {
                        let ex = match ex.get("$ref").and_then(Value::as_str) {
                            Some(r) => {
                                spec.pointer(r.trim_start_matches('#')).unwrap_or_else(|| {
                                    panic!("{at}/examples/{name}: dangling $ref {r}")
                                })
                            }
                            None => ex,
                        };
                        if let Some(value) = ex.get("value") {
                            push(format!("{at}/examples/{name}"), value.clone());
                        }
                    }
                }
            }
            for (key, child) in map {
                let escaped = key.replace('~', "~0").replace('/', "~1");
                collect(spec, child, &format!("{at}/{escaped}"), out, skipped);
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                collect(spec, child, &format!("{at}/{i}"), out, skipped);
            }
        }
        _ => {}
    }
}

fn all_examples(spec: &Value) -> (Vec<Example>, Vec<String>) {
    let mut out = Vec::new();
    let mut skipped = Vec::new();
    collect(spec, &spec["paths"], "#/paths", &mut out, &mut skipped);
    for section in ["responses", "requestBodies", "parameters", "headers"] {
        if let Some(node) = spec["components"].get(section) {
            collect(
                spec,
                node,
                &format!("#/components/{section}"),
                &mut out,
                &mut skipped,
            );
        }
    }
    if let Some(schemas) = spec["components"]["schemas"].as_object() {
        for (name, schema) in schemas {
            if let Some(example) = schema.get("example") {
                out.push(Example {
                    at: format!("#/components/schemas/{name}/example"),
                    schema: schema.clone(),
                    component: Some(name.clone()),
                    value: example.clone(),
                });
            }
        }
    }
    (out, skipped)
}

fn check_primitive(schema: &Value, value: &Value) -> Result<(), String> {
    let ok = match schema.get("type").and_then(Value::as_str) {
        Some("string") => value.is_string(),
        Some("number") => value.is_number(),
        Some("integer") => value.is_i64() || value.is_u64(),
        Some("boolean") => value.is_boolean(),
        other => {
            return Err(format!(
                "inline schema of type {other:?} cannot be mapped to a generated type; make it a component schema"
            ))
        }
    };
    if ok {
        Ok(())
    } else {
        Err(format!(
            "example {value} does not match inline schema type {}",
            schema["type"]
        ))
    }
}

#[test]
fn every_example_round_trips_through_its_generated_type() {
    let spec = load_spec();
    let table = type_table();
    let (examples, skipped) = all_examples(&spec);
    let mut failures = Vec::new();
    let mut typed = 0;
    let mut primitive = 0;
    for ex in &examples {
        let name = ex
            .component
            .as_deref()
            .or_else(|| component_name(&ex.schema));
        let result = match name {
            Some(name) => match table.get(name) {
                Some(round_trip) => {
                    typed += 1;
                    let json = serde_json::to_string(&ex.value).unwrap();
                    round_trip(&json).and_then(|back| {
                        if normalise(&back) == normalise(&ex.value) {
                            Ok(())
                        } else {
                            Err(format!(
                                "round trip through `{name}` changed it:\n  example: {}\n  back:    {}",
                                ex.value, back
                            ))
                        }
                    })
                    .map_err(|e| format!("`{name}`: {e}"))
                }
                None => Err(format!(
                    "schema `{name}` is not in the type table of tests/examples.rs; add it"
                )),
            },
            None => {
                primitive += 1;
                check_primitive(&ex.schema, &ex.value)
            }
        };
        if let Err(e) = result {
            failures.push(format!("{}: {e}", ex.at));
        }
    }
    println!(
        "checked {} examples: {typed} through generated types, {primitive} inline primitives; skipped {} multipart examples",
        examples.len(),
        skipped.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {} examples do not fit their schema:\n{}",
        failures.len(),
        examples.len(),
        failures.join("\n")
    );
    // Guard against silently checking nothing (e.g. a broken walk).
    assert!(typed >= 30, "only {typed} typed examples were checked");
}

#[test]
fn a_bad_example_is_caught() {
    let table = type_table();
    let quote = table["Quote"];
    assert!(quote(r#"{"rate": "not a number"}"#).is_err());
    let currency = table["Currency"];
    assert!(currency(r#""XYZ""#).is_err());
}
