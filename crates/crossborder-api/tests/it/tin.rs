//! The business bodies carry both `TIN` and `tin`; both wire keys must
//! survive a round trip (the generator would otherwise collide them, see
//! `xtask/src/preprocess.rs`).

use crossborder_api::types::{CreateBusinessRequest, UpdateBusinessRequest};
use serde_json::json;

fn create_body() -> serde_json::Value {
    json!({
        "name": "Acme Trading Ltd",
        "businessType": "LLC",
        "registrationNumber": "RC1234567",
        "email": "ops@acme.example",
        "phoneNumber": "+2348012345678",
        "natureOfBusiness": { "nature": "Trading", "code": "T01" },
        "businessAddress": {
            "houseNumber": "12", "street": "Marina", "city": "Lagos",
            "state": "Lagos", "zipCode": "101001"
        },
        "proofOfAddress": { "url": "https://files.example/poa.pdf", "key": "poa", "type": "Utility bill" },
        "documents": {
            "cac_document": { "url": "https://files.example/cac.pdf", "key": "cac" },
            "bank_statement": { "url": "https://files.example/bs.pdf", "key": "bs" }
        },
        "TIN": "A",
        "tin": "b"
    })
}

#[test]
fn create_business_keeps_both_tin_keys() {
    let body = create_body();
    let parsed: CreateBusinessRequest = serde_json::from_value(body.clone()).unwrap();
    assert_eq!(parsed.tin_uppercase.as_deref(), Some("A"));
    assert_eq!(parsed.tin.as_deref(), Some("b"));
    let back = serde_json::to_value(&parsed).unwrap();
    assert_eq!(back["TIN"], "A");
    assert_eq!(back["tin"], "b");
    assert!(back.get("TIN_UPPERCASE").is_none());
    assert!(back.get("tin_uppercase").is_none());
}

#[test]
fn update_business_keeps_both_tin_keys() {
    let parsed: UpdateBusinessRequest =
        serde_json::from_value(json!({ "TIN": "A", "tin": "b" })).unwrap();
    let back = serde_json::to_value(&parsed).unwrap();
    assert_eq!(back, json!({ "TIN": "A", "tin": "b" }));
}

#[test]
fn only_one_key_is_fine() {
    let parsed: UpdateBusinessRequest = serde_json::from_value(json!({ "TIN": "A" })).unwrap();
    assert_eq!(
        serde_json::to_value(&parsed).unwrap(),
        json!({ "TIN": "A" })
    );
}
