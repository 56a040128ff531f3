//! spec_parity: the spec (`openapi/crossborder.yaml`) and core's rules agree.
//!
//! For every JSON request schema, the test walks every property (through
//! `$ref`s, nested objects and maps) and every constraint the spec states
//! (`required`, `enum`, `pattern`, `minLength`, `maxLength`, `format`,
//! `minimum`, `exclusiveMinimum`), breaks it on a valid request, and checks
//! that core refuses the result on that field. Conversely it gives every
//! field a value the spec accepts and checks that core accepts it too, unless
//! the field carries a rule of core's own that the spec cannot express,
//! listed in `CORE_ONLY` (`CORE_ONLY_PAYOUT` for payouts) with the
//! `openapi/ASSUMPTIONS.md` row that records it. A constraint added to the spec, or a rule added to core, without the
//! other side following fails here.

use std::collections::BTreeSet;
use std::path::Path;

use crossborder_core::json::{Json, JsonReader, NullFields, Object, Policy, UnknownFields};
use crossborder_core::kyb::{
    validate_business_create, validate_business_update, validate_person, BusinessFields,
    PersonFields, PersonRole,
};
use crossborder_core::resolve::{validate_resolve_bank, ResolveBankFields};
use crossborder_core::webhook::{validate_set_webhook_in_production, SetWebhookFields};
use crossborder_core::{
    collection::{validate_collection, CollectionFields},
    funding::{validate_simulate_funding, SimulateFundingFields},
    payout::{validate_payout, PayoutFields},
    Violations,
};
use crossborder_testkit::fixtures;
use serde_json::{json, Map, Value};

/// Reads `body` with core's JSON reader as a check of a file does: `null`
/// is absent, fields no view asks for are left to the spec's own walk.
fn json_reader(object: &Object) -> JsonReader<'_> {
    JsonReader::new(
        object,
        Policy {
            null: NullFields::Absent,
            unknown: UnknownFields::Ignore,
        },
    )
}

fn tree(body: &Map<String, Value>) -> Object {
    body.iter()
        .map(|(key, value)| (key.clone(), Json::from(value)))
        .collect()
}

/// The fields core refuses in `body`.
type Validator = fn(&Map<String, Value>) -> Vec<String>;

fn fields_of<T>(result: Result<T, Violations>) -> Vec<String> {
    match result {
        Ok(_) => Vec::new(),
        Err(violations) => violations.fields().map(str::to_owned).collect(),
    }
}

macro_rules! validator {
    ($view:ident, |$fields:ident| $validate:expr) => {
        |body: &Map<String, Value>| {
            let object = tree(body);
            let $fields = $view::read(&mut json_reader(&object));
            fields_of($validate)
        }
    };
}

/// Each JSON request schema, a name for the baseline, the core rule that
/// checks it, and a valid request (the baseline) to break one constraint at
/// a time. Payouts have one baseline per destination family and kind of
/// crypto pair, because which fields core checks, and how, depends on the
/// currencies.
fn requests() -> Vec<(&'static str, &'static str, Validator, Value)> {
    let others: Vec<(&'static str, &'static str, Validator, Value)> = vec![
        (
            "InitiatePaymentRequest",
            "",
            validator!(CollectionFields, |f| validate_collection(&f)),
            json!({"amount": 5000, "fromCurrency": "NGN", "toCurrency": "NGN",
                   "paymentReference": "order-1"}),
        ),
        (
            "SimulateFundingRequest",
            "",
            validator!(SimulateFundingFields, |f| validate_simulate_funding(&f)),
            json!({"currency": "NGN", "amount": 5000, "narration": "PAYREF1",
                   "sessionId": "fund-1"}),
        ),
        (
            "ResolveBankRequest",
            "",
            validator!(ResolveBankFields, |f| validate_resolve_bank(&f)),
            json!({"accountNumber": "0123456789", "bankCode": "058",
                   "fromCurrency": "USD", "toCurrency": "NGN"}),
        ),
        (
            "SetWebhookRequest",
            "",
            // The production rule, a superset of the staging one (C25).
            validator!(SetWebhookFields, |f| validate_set_webhook_in_production(&f)),
            json!({"webhookUrl": "https://shop.example/hooks"}),
        ),
        (
            "CreateBusinessRequest",
            "",
            validator!(BusinessFields, |f| validate_business_create(&f)),
            business(),
        ),
        (
            "UpdateBusinessRequest",
            "",
            validator!(BusinessFields, |f| validate_business_update(&f)),
            {
                let mut update = business();
                let object = update.as_object_mut().unwrap();
                object.remove("name");
                object.remove("registrationNumber");
                update
            },
        ),
        (
            "PersonRequest",
            "",
            validator!(PersonFields, |f| validate_person(&f, PersonRole::Director)),
            json!({"firstName": "Adaeze", "lastName": "Okafor", "dateOfBirth": "1985-04-12",
                   "nationality": "NG", "phoneNumber": "+2348031234567",
                   "idNumber": "A12345678", "idType": "currentPassport",
                   "idDocumentUrl": "https://files.example/passport.pdf",
                   "address": address(),
                   "document": {"url": "https://files.example/u.pdf", "key": "u"},
                   "additionalDocument": {"url": "https://files.example/v.pdf", "key": "v"},
                   "email": "adaeze@lagostrading.ng", "jobTitle": "Director",
                   "ownershipPercentage": "60", "middleName": "Ngozi", "bvn": "12345678901"}),
        ),
    ];
    payout_baselines().into_iter().chain(others).collect()
}

/// A valid payout to each destination family (named by its pair), with
/// every field the family's typed destination sends.
fn payout_baselines() -> Vec<(&'static str, &'static str, Validator, Value)> {
    let base = |from: &str, to: &str, session: &str, rest: Value| {
        let mut body = json!({"amount": "1500", "fromCurrency": from, "toCurrency": to,
                              "sessionId": session});
        if from != to {
            body["rateKey"] = json!("rk_1");
        }
        for (key, value) in rest.as_object().unwrap() {
            body[key] = value.clone();
        }
        body
    };
    let bank = |account: &str, code: &str| {
        json!({"accountNumber": account, "accountName": "ADAEZE OKAFOR",
               "bankName": "Example Bank", "bankCode": code})
    };
    let wallet = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
    let payouts: Vec<(&'static str, Value)> = vec![
        (
            "NGN bank",
            base("NGN", "NGN", "payout-1", bank("0123456789", "058")),
        ),
        (
            "KES bank",
            base("KES", "KES", "payout-2", bank("254712345678", "68")),
        ),
        (
            "UGX bank",
            base("UGX", "UGX", "payout-3", bank("256712345678", "031")),
        ),
        (
            "US bank",
            base(
                "USD",
                "USD",
                "payout-4",
                json!({"accountNumber": "123456789", "accountName": "JOHN DOE",
                   "bankName": "JPMorgan Chase Bank"}),
            ),
        ),
        (
            "UK bank",
            base(
                "NGN",
                "GBP",
                "payout-5",
                json!({"accountNumber": "31926819", "accountName": "JANE SMITH",
                   "bankName": "Barclays Bank", "sortCode": "200000", "swiftCode": "BARCGB22"}),
            ),
        ),
        (
            "EUR bank",
            base(
                "NGN",
                "EUR",
                "payout-6",
                json!({"accountNumber": "DE89370400440532013000", "accountName": "MAX MUSTERMANN",
                   "swiftCode": "DEUTDEFF"}),
            ),
        ),
        (
            "Canadian bank",
            base(
                "USD",
                "CAD",
                "payout-7",
                json!({"accountNumber": "1234567", "accountName": "ALEX MARTIN",
                   "transitNumber": "00012", "institutionNumber": "003"}),
            ),
        ),
        (
            "GHS account",
            base(
                "GHS",
                "GHS",
                "payout-8",
                json!({"accountName": "KOFI MENSAH"}),
            ),
        ),
        (
            "wallet, same crypto",
            base(
                "USDT",
                "USDT",
                "payout-9",
                json!({"address": wallet, "network": "ethereum"}),
            ),
        ),
        (
            "wallet, two cryptos",
            base(
                "USDC",
                "USDT",
                "payout-10",
                json!({"address": wallet, "fromNetwork": "tron", "toNetwork": "ethereum"}),
            ),
        ),
        (
            "wallet, from fiat",
            base(
                "NGN",
                "USDC",
                "payout-11",
                json!({"address": wallet, "toNetwork": "ethereum"}),
            ),
        ),
        (
            "bank, from crypto",
            base(
                "USDT",
                "NGN",
                "payout-12",
                json!({"fromNetwork": "tron", "accountNumber": "0123456789",
                   "accountName": "ADAEZE OKAFOR", "bankName": "Example Bank",
                   "bankCode": "058"}),
            ),
        ),
    ];
    payouts
        .into_iter()
        .map(|(label, body)| {
            (
                "PayoutRequest",
                label,
                validator!(PayoutFields, |f| validate_payout(&f)) as Validator,
                body,
            )
        })
        .collect()
}

fn address() -> Value {
    json!({"houseNumber": "12", "street": "Admiralty Way", "city": "Lekki",
           "state": "Lagos", "zipCode": "106104", "subdivision": "Eti-Osa"})
}

/// The test kit's business with every optional field the spec has.
fn business() -> Value {
    let link = "https://files.example/doc.pdf";
    let mut body = fixtures::business_json("RC1234567", link, fixtures::documents_json(link));
    let optional = json!({
        "operatingAddress": address(), "businessAddress": address(),
        "businessDescription": "Electronics", "activities": ["import"],
        "monthlyTransactionVolume": {"currency": "NGN", "amount": "2500000.00"},
        "hasWebsite": true, "businessWebsite": "https://lagostrading.ng",
        "sourceOfFund": {"url": "https://files.example/sof.pdf", "type": "Revenue", "name": "Sales"},
        "TIN": "12345678-0001", "tin": "12345678-0001", "EIN": "12-3456789",
        "legalName": "Lagos Trading Limited", "address": "12 Admiralty Way", "placeId": "p1",
        "isHighRisk": false, "annualTurnover": "1000000", "monthlyPaymentsCount": "40",
        "maxTransferAmount": "50000", "customerTypes": "B2B", "sourceOfFundsDescription": "Sales",
        "estimatedAnnualRevenue": "1200000", "averageMonthlyTransactionVolume": "100000",
        "financialService": "none", "businessPurpose": "trade"
    });
    for (name, value) in optional.as_object().expect("an object") {
        body[name] = value.clone();
    }
    body
}

/// Rules of core's own that the spec cannot express, for payouts: (the
/// payout baseline, field path, a value the spec accepts and core refuses,
/// the ASSUMPTIONS.md row that records the rule).
const CORE_ONLY_PAYOUT: &[(&str, &str, &str, &str)] = &[
    ("NGN bank", "amount", "0", "A29"),
    // Account numbers and bank codes, per destination currency.
    ("NGN bank", "accountNumber", "x", "C10"),
    ("NGN bank", "bankCode", "x", "C10"),
    ("KES bank", "accountNumber", "x", "C10"),
    ("KES bank", "bankCode", "x", "C10"),
    ("UGX bank", "accountNumber", "x", "C10"),
    ("UGX bank", "bankCode", "x", "C10"),
    ("US bank", "accountNumber", "x", "C10"),
    ("UK bank", "accountNumber", "x", "C10"),
    ("EUR bank", "accountNumber", "x", "C10"),
    ("Canadian bank", "accountNumber", "x", "C10"),
    ("bank, from crypto", "accountNumber", "x", "C10"),
    ("bank, from crypto", "bankCode", "x", "C10"),
    // Sort code, BIC, Canadian transit and institution numbers.
    ("UK bank", "sortCode", "x", "C12"),
    ("UK bank", "swiftCode", "x", "C12"),
    ("EUR bank", "swiftCode", "x", "C12"),
    ("Canadian bank", "transitNumber", "x", "C12"),
    ("Canadian bank", "institutionNumber", "x", "C12"),
    // Wallet addresses on their network, and network names.
    ("wallet, same crypto", "address", "x", "C11"),
    ("wallet, two cryptos", "address", "x", "C11"),
    ("wallet, from fiat", "address", "x", "C11"),
    ("wallet, same crypto", "network", "main net", "C11"),
    ("wallet, two cryptos", "fromNetwork", "main net", "C11"),
    ("wallet, two cryptos", "toNetwork", "main net", "C11"),
    ("wallet, from fiat", "toNetwork", "main net", "C11"),
    ("bank, from crypto", "fromNetwork", "main net", "C11"),
];

/// The same for the other requests, each with one baseline: (request
/// schema, field path, value, row).
const CORE_ONLY: &[(&str, &str, &str, &str)] = &[
    ("ResolveBankRequest", "accountNumber", "x", "C2"),
    (
        "SetWebhookRequest",
        "webhookUrl",
        "http://shop.example/hooks",
        "C25",
    ),
    ("CreateBusinessRequest", "email", "x", "C3"),
    ("UpdateBusinessRequest", "email", "x", "C3"),
    ("PersonRequest", "email", "x", "C3"),
    ("CreateBusinessRequest", "phoneNumber", "x", "C3"),
    ("UpdateBusinessRequest", "phoneNumber", "x", "C3"),
    ("PersonRequest", "phoneNumber", "x", "C3"),
    ("PersonRequest", "dateOfBirth", "x", "C4"),
    ("PersonRequest", "nationality", "x", "C4"),
    ("PersonRequest", "bvn", "x", "C4"),
    ("PersonRequest", "ownershipPercentage", "x", "C4"),
    (
        "CreateBusinessRequest",
        "monthlyTransactionVolume.amount",
        DIGITS_40,
        "C5",
    ),
    (
        "UpdateBusinessRequest",
        "monthlyTransactionVolume.amount",
        DIGITS_40,
        "C5",
    ),
    ("CreateBusinessRequest", "proofOfAddress.url", "x", "D44"),
    ("UpdateBusinessRequest", "proofOfAddress.url", "x", "D44"),
    ("CreateBusinessRequest", "sourceOfFund.url", "x", "D44"),
    ("UpdateBusinessRequest", "sourceOfFund.url", "x", "D44"),
    ("PersonRequest", "document.url", "x", "D44"),
    ("PersonRequest", "additionalDocument.url", "x", "D44"),
];

/// A rule of core's own: (request schema, its baseline, field path, value,
/// row).
type CoreOnly = (
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
);

/// Every rule of core's own.
fn core_only() -> impl Iterator<Item = CoreOnly> {
    let payouts = CORE_ONLY_PAYOUT
        .iter()
        .map(|&(baseline, field, value, row)| ("PayoutRequest", baseline, field, value, row));
    let others = CORE_ONLY
        .iter()
        .map(|&(schema, field, value, row)| (schema, "", field, value, row));
    payouts.chain(others)
}

/// A decimal string the spec's pattern accepts and no exact decimal holds.
const DIGITS_40: &str = "1234567890123456789012345678901234567890";

struct Spec(Value);

impl Spec {
    fn load() -> Spec {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../openapi/crossborder.yaml");
        let text = std::fs::read_to_string(path).unwrap();
        Spec(serde_yaml_ng::from_str(&text).unwrap())
    }

    /// The schema, with a `$ref` resolved (its own keys kept over the target's).
    fn resolve<'a>(&'a self, schema: &'a Value) -> Value {
        match schema.get("$ref").and_then(Value::as_str) {
            Some(reference) => {
                let name = reference.trim_start_matches("#/components/schemas/");
                let mut target = self.resolve(&self.0["components"]["schemas"][name]);
                if let (Some(target), Some(own)) = (target.as_object_mut(), schema.as_object()) {
                    for (key, value) in own {
                        if key != "$ref" {
                            target.insert(key.clone(), value.clone());
                        }
                    }
                }
                target
            }
            None => schema.clone(),
        }
    }
}

/// A property of a request, by its path from the body.
struct Property {
    path: Vec<String>,
    schema: Value,
    required: bool,
}

/// Every property under `schema` (nested objects and map values included).
fn walk(spec: &Spec, schema: &Value, path: &[String], out: &mut Vec<Property>) {
    let schema = spec.resolve(schema);
    let required: BTreeSet<&str> = schema["required"]
        .as_array()
        .map(|list| list.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let Some(properties) = schema["properties"].as_object() else {
        return;
    };
    for (name, property) in properties {
        let mut here = path.to_vec();
        here.push(name.clone());
        let resolved = spec.resolve(property);
        out.push(Property {
            path: here.clone(),
            schema: resolved.clone(),
            required: required.contains(name.as_str()),
        });
        if resolved["properties"].is_object() {
            walk(spec, &resolved, &here, out);
        }
    }
}

/// Sets (or with `None`, removes) the value at `path`, creating nothing:
/// returns false when a parent is missing from the baseline.
fn set(body: &mut Value, path: &[String], value: Option<Value>) -> bool {
    let Some((last, parents)) = path.split_last() else {
        return false;
    };
    let mut node = body;
    for parent in parents {
        match node.get_mut(parent) {
            Some(next) => node = next,
            None => return false,
        }
    }
    let Some(object) = node.as_object_mut() else {
        return false;
    };
    match value {
        Some(value) => {
            object.insert(last.clone(), value);
        }
        None => {
            object.remove(last);
        }
    }
    true
}

/// Values the spec refuses for `property`, each with the constraint it breaks.
fn refused(property: &Property) -> Vec<(String, Option<Value>)> {
    let schema = &property.schema;
    let mut out = Vec::new();
    if property.required {
        out.push(("required".to_owned(), None));
    }
    if let Some(values) = schema["enum"].as_array() {
        assert!(!values.contains(&json!("NOT_IN_ENUM")));
        out.push(("enum".to_owned(), Some(json!("NOT_IN_ENUM"))));
    }
    if let Some(pattern) = schema["pattern"].as_str() {
        // A sample breaking each pattern of the spec; a new pattern needs one.
        let sample = match pattern {
            r"^[0-9]+(\.[0-9]+)?$" => "12,50",
            "^[A-Za-z0-9_-]+$" => "a b",
            other => panic!("no refused sample for pattern {other}: add one"),
        };
        out.push((format!("pattern {pattern}"), Some(json!(sample))));
    }
    if let Some(min) = schema["minLength"].as_u64() {
        let short = "x".repeat(min.saturating_sub(1) as usize);
        out.push((format!("minLength {min}"), Some(json!(short))));
    }
    if let Some(max) = schema["maxLength"].as_u64() {
        out.push((
            format!("maxLength {max}"),
            Some(json!("x".repeat(max as usize + 1))),
        ));
    }
    match schema["format"].as_str() {
        Some("uri") => out.push(("format uri".to_owned(), Some(json!("not a uri")))),
        // `decimal` tells other generators the money is exact (ASSUMPTIONS B65); it
        // refuses nothing beyond the schema's type and pattern, checked above.
        Some("decimal") => {}
        Some(other) => panic!("no refused sample for format {other}: add one"),
        None => {}
    }
    if let Some(min) = schema["minimum"].as_f64() {
        let exclusive = schema["exclusiveMinimum"].as_bool() == Some(true);
        let value = if exclusive {
            json!(min)
        } else {
            json!(min - 1.0)
        };
        out.push(("minimum".to_owned(), Some(value)));
    }
    out
}

/// A value the spec accepts for `property`, when it is a scalar.
fn accepted(property: &Property) -> Option<Value> {
    let schema = &property.schema;
    if let Some(values) = schema["enum"].as_array() {
        return values.first().cloned();
    }
    match schema["type"].as_str()? {
        "string" if schema["pattern"].is_string() => Some(json!("1")),
        "string" if schema["format"].as_str() == Some("uri") => {
            Some(json!("https://other.example/x"))
        }
        "string" => {
            let min = schema["minLength"].as_u64().unwrap_or(1) as usize;
            Some(json!("x".repeat(min.max(1))))
        }
        "number" | "integer" => Some(json!(1)),
        "boolean" => Some(json!(false)),
        _ => None,
    }
}

#[test]
fn spec_parity() {
    let spec = Spec::load();
    let assumptions = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../openapi/ASSUMPTIONS.md"),
    )
    .unwrap();
    let mut checked = 0;
    let mut used_core_only = BTreeSet::new();
    let requests = requests();
    let schemas: BTreeSet<&str> = requests.iter().map(|(name, ..)| *name).collect();

    // Every JSON request body of the spec is covered.
    for (path, item) in spec.0["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            let body = &operation["requestBody"]["content"]["application/json"]["schema"]["$ref"];
            if let Some(reference) = body.as_str() {
                let name = reference.trim_start_matches("#/components/schemas/");
                assert!(
                    schemas.contains(name),
                    "{method} {path}: {name} has no core rule here"
                );
            }
        }
    }

    for (schema_name, label, validate, baseline) in &requests {
        let base = baseline.as_object().unwrap();
        assert_eq!(
            validate(base),
            Vec::<String>::new(),
            "{schema_name} ({label}): the baseline is valid"
        );
        let mut properties = Vec::new();
        walk(
            &spec,
            &json!({"$ref": format!("#/components/schemas/{schema_name}")}),
            &[],
            &mut properties,
        );
        for property in &properties {
            let field = property.path.join(".");
            for (constraint, value) in refused(property) {
                let mut body = baseline.clone();
                if !set(&mut body, &property.path, value.clone()) {
                    continue;
                }
                let refused_on: Vec<String> = validate(body.as_object().unwrap());
                assert!(
                    refused_on.iter().any(|f| *f == field || f.starts_with(&format!("{field}."))),
                    "{schema_name}.{field} ({label}): the spec refuses {value:?} ({constraint}) but core reports only {refused_on:?}"
                );
                checked += 1;
            }
            if let Some(value) = accepted(property) {
                let mut body = baseline.clone();
                if set(&mut body, &property.path, Some(value.clone())) {
                    let refused_on = validate(body.as_object().unwrap());
                    let own = core_only()
                        .any(|(s, b, f, ..)| s == *schema_name && b == *label && f == field);
                    if refused_on.contains(&field) {
                        assert!(
                            own,
                            "{schema_name}.{field} ({label}): core refuses {value} which the \
                             spec accepts; list it in CORE_ONLY (CORE_ONLY_PAYOUT for a \
                             payout) with its ASSUMPTIONS.md row"
                        );
                        used_core_only.insert((*schema_name, *label, field.clone()));
                    }
                    checked += 1;
                }
            }
        }
    }

    // Each rule of core's own is real (core refuses the value, the spec does
    // not) and recorded.
    for (schema_name, label, field, value, row) in core_only() {
        let (.., validate, baseline) = requests
            .iter()
            .find(|(s, b, ..)| *s == schema_name && *b == label)
            .unwrap_or_else(|| panic!("no baseline {schema_name} ({label})"));
        let mut body = baseline.clone();
        let path: Vec<String> = field.split('.').map(str::to_owned).collect();
        assert!(set(&mut body, &path, Some(json!(value))));
        let refused_on = validate(body.as_object().unwrap());
        assert!(
            refused_on
                .iter()
                .any(|f| f == field || f.starts_with(&format!("{field}."))),
            "{schema_name}.{field} ({label}): core accepts {value:?}, so it is no rule of core's own"
        );
        let line = assumptions
            .lines()
            .find(|line| line.starts_with(&format!("| {row} |")))
            .unwrap_or_else(|| panic!("ASSUMPTIONS.md has no row {row}"));
        let leaf = field.rsplit('.').next().unwrap_or(field);
        assert!(
            line.contains(&format!("`{leaf}`")) || line.contains(&format!("`{field}`")),
            "ASSUMPTIONS.md {row} does not name `{field}`"
        );
    }
    assert!(checked > 100, "only {checked} checks ran");
    println!(
        "spec_parity: {checked} checks, {} rules of core's own ({} met by the walk)",
        core_only().count(),
        used_core_only.len()
    );
}
