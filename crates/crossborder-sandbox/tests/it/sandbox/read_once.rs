//! Every operation reads its body the same way: each wrong or missing field
//! is reported once, a field of the wrong type (or inside one) is not also
//! reported as missing, and a wrong type hides no other mistake.

use reqwest::Method;
use serde_json::{json, Value};

use crate::sandbox::common::Api;
use crate::sandbox::kyb::create;
use crossborder_sandbox::STAGING_KEY;

fn errors(body: &Value) -> Vec<String> {
    body["errors"]
        .as_array()
        .map(|errors| {
            errors
                .iter()
                .map(|e| {
                    format!(
                        "{}: {}",
                        e["field"].as_str().unwrap_or("?"),
                        e["message"].as_str().unwrap_or("?")
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

#[tokio::test]
async fn every_operation_reports_each_field_once() {
    let api = Api::start().await;
    let id = create(&api, "RC-READ-1").await;
    let person = |path: &str| format!("/api/business/{id}/{path}");
    let person_errors = [
        "firstName: must be a string",
        "lastName: is required",
        "dateOfBirth: is required",
        "nationality: is required",
        "phoneNumber: is required",
        "idNumber: is required",
        "idType: is required",
        "idDocumentUrl: is required",
        "address.houseNumber: is required",
        "address.street: is required",
        "address.city: is required",
        "address.state: is required",
        "address.zipCode: is required",
        "document.url: is required",
        "document.key: is required",
    ];
    let cases: Vec<(Method, String, Value, Vec<&str>)> = vec![
        (
            Method::POST,
            "/api/payout".into(),
            json!({"sessionId": 5}),
            vec![
                "sessionId: must be a string",
                "amount: is required",
                "fromCurrency: is required",
                "toCurrency: is required",
            ],
        ),
        (
            Method::POST,
            "/api/initiate-payment".into(),
            json!({"amount": "10", "paymentReference": 5}),
            vec![
                "amount: must be a number",
                "paymentReference: must be a string",
                "fromCurrency: is required",
                "toCurrency: is required",
            ],
        ),
        (
            Method::POST,
            "/api/simulate-funding".into(),
            json!({"amount": "10", "sessionId": 1}),
            vec![
                "amount: must be a number",
                "sessionId: must be a string",
                "currency: is required",
                "narration: is required",
            ],
        ),
        (
            Method::POST,
            "/api/resolve-bank".into(),
            json!({"bankCode": 58}),
            vec![
                "bankCode: must be a string",
                "accountNumber: is required",
                "fromCurrency: is required",
                "toCurrency: is required",
            ],
        ),
        (
            Method::PUT,
            "/api/set-webhook".into(),
            json!({"webhookUrl": 1}),
            vec!["webhookUrl: must be a string"],
        ),
        (
            Method::POST,
            "/api/business".into(),
            json!({"name": 5, "businessAddress": "12 Marina", "documents": {"cac": 1}}),
            vec![
                "name: must be a string",
                "businessAddress: must be an object",
                "documents.cac: must be an object",
                "businessType: is required",
                "registrationNumber: is required",
                "email: is required",
                "phoneNumber: is required",
                "natureOfBusiness.nature: is required",
                "natureOfBusiness.code: is required",
                "proofOfAddress.url: is required",
                "proofOfAddress.key: is required",
                "proofOfAddress.type: is required",
            ],
        ),
        (
            Method::PATCH,
            format!("/api/business/{id}"),
            json!({"email": 5, "businessWebsite": "", "sourceOfFund": {"type": 3}}),
            vec![
                "email: must be a string",
                "sourceOfFund.type: must be a string",
                "businessWebsite: must not be empty",
            ],
        ),
        (
            Method::POST,
            person("director"),
            json!({"firstName": 5}),
            person_errors.to_vec(),
        ),
        (
            Method::POST,
            person("ubo"),
            json!({"firstName": 5}),
            person_errors.to_vec(),
        ),
    ];
    for (method, path, body, expected) in cases {
        let reply = api
            .raw(method.clone(), &path, Some(STAGING_KEY), Some(&body))
            .await;
        assert_eq!(reply.status, 400, "{method} {path}: {}", reply.text);
        assert_eq!(errors(&reply.body), expected, "{method} {path}");
        assert_eq!(
            reply.body["message"],
            expected.join("; "),
            "{method} {path}"
        );
    }
}
