//! The sandbox's own rules where the description is silent, each recorded
//! in ASSUMPTIONS.md: the bank code looked up only where the description
//! requires one (C35), the update's refused and ignored fields (C17), the
//! amount cap (A29), the exact no-access message (B7), and webhooks over
//! plain HTTP only (B54).

use crossborder_sandbox::{NO_ACCESS_KEY, STAGING_KEY};
use reqwest::Method;
use serde_json::{json, Value};

use crate::described::support::{assert_error, funded, post_ok, refused, Api};

#[tokio::test]
async fn bank_code_is_looked_up_only_where_the_description_requires_one() {
    let api = Api::start().await;
    // USD: the description requires no bank code, so one outside the
    // sandbox's USD list is passed on, unchecked.
    let usd = json!({"amount": "10", "fromCurrency": "USD", "toCurrency": "USD",
                     "sessionId": "usd-1", "accountNumber": "123456789",
                     "accountName": "Jane Doe", "bankName": "Chase", "bankCode": "ZZ-999"});
    post_ok(&api, "/api/payout", &usd).await;
    assert_eq!(api.transaction("usd-1").await["status"], "COMPLETED");
    assert_eq!(api.balance_json("USD").await, json!(9990));

    // resolve-bank looks an account up at a bank, so there the code is
    // checked whatever the currency.
    api.post_refused(
        "/api/resolve-bank",
        &json!({"accountNumber": "123456789", "bankCode": "ZZ-999",
                    "fromCurrency": "USD", "toCurrency": "USD"}),
        400,
        "Unknown bank code ZZ-999 for USD",
    )
    .await;

    // NGN, KES and UGX require one, and it must be in the bank list.
    for (currency, account) in [
        ("NGN", "0123456789"),
        ("KES", "123456789"),
        ("UGX", "123456789"),
    ] {
        api.post_refused(
            "/api/payout",
            &json!({"amount": "100", "fromCurrency": currency, "toCurrency": currency,
                        "sessionId": format!("{currency}-1"), "accountNumber": account,
                        "accountName": "Adaeze Okafor", "bankName": "A bank",
                        "bankCode": "999"}),
            400,
            &format!("Unknown bank code 999 for {currency}"),
        )
        .await;
    }
}

#[tokio::test]
async fn an_update_refuses_name_and_registration_number_and_ignores_unknown_fields() {
    let api = Api::start().await;
    let body = json!({
        "name": "Lagos Trading Ltd", "businessType": "LLC", "registrationNumber": "RC-UPD-1",
        "email": "compliance@lagostrading.ng", "phoneNumber": "+2348012345678",
        "natureOfBusiness": {"nature": "Wholesale", "code": "4652"},
        "businessAddress": {"houseNumber": "12", "street": "Admiralty Way", "city": "Lekki",
                            "state": "Lagos", "zipCode": "106104"},
        "proofOfAddress": {"url": "https://files.example/u.pdf", "key": "u", "type": "Utility bill"},
        "documents": {
            "cac_document": {"url": "https://files.example/c.pdf", "key": "c"},
            "bank_statement": {"url": "https://files.example/s.pdf", "key": "s"},
            "application_letter": {"url": "https://files.example/l.pdf", "key": "l"},
            "cac_status_report": {"url": "https://files.example/r.pdf", "key": "r"}
        }
    });
    let created = post_ok(&api, "/api/business", &body).await;
    let id = created.body["data"]["id"]
        .as_str()
        .expect("an id")
        .to_owned();
    let path = format!("/api/business/{id}");

    // The fields the description says the update does not accept.
    let refused = api
        .raw(
            Method::PATCH,
            &path,
            Some(STAGING_KEY),
            Some(&json!({"name": "Other", "registrationNumber": "RC-2", "email": "a@b.ng"})),
        )
        .await;
    assert_error(
        &refused,
        400,
        "name: cannot be changed after creation; registrationNumber: cannot be changed after \
         creation",
        "PATCH",
        &path,
    );
    // A field no business request has is ignored, as on every operation.
    let updated = api
        .raw(
            Method::PATCH,
            &path,
            Some(STAGING_KEY),
            Some(&json!({"email": "new@lagostrading.ng", "nickname": "LTL"})),
        )
        .await;
    assert_eq!(updated.status, 200, "{}", updated.text);
    assert_eq!(updated.body["data"]["name"], "Lagos Trading Ltd");
    assert_eq!(updated.body["data"]["fieldStatuses"]["email"], "PENDING");
    assert!(updated.body["data"]["fieldStatuses"]
        .get("nickname")
        .is_none());
}

/// The sandbox's own refusals of a single request, 400 each: an amount
/// above 10^15 (A29) in a body or a path, and `null` for an optional field
/// (no field is nullable). Nothing refused is created, and an amount at the
/// cap is taken.
#[tokio::test]
async fn amounts_above_ten_to_the_fifteenth_and_null_fields_are_refused() {
    let api = Api::start().await;
    let ngn = |amount: u64, reference: &str| {
        json!({"amount": amount, "fromCurrency": "NGN", "toCurrency": "NGN",
               "paymentReference": reference})
    };
    let mut null_network = ngn(10, "null-1");
    null_network["network"] = Value::Null;
    let cap = "amount: must be at most 1000000000000000";
    let cases = [
        (
            "collection above the cap",
            "/api/initiate-payment",
            Some(ngn(1_000_000_000_000_001, "huge-1")),
            cap,
        ),
        (
            "quote above the cap",
            "/api/qoutes/USD/NGN/1000000000000001",
            None,
            cap,
        ),
        (
            "collection with a null network",
            "/api/initiate-payment",
            Some(null_network),
            "network: must be a string",
        ),
    ];
    for (case, path, body, message) in cases {
        refused(&api, case, path, body.as_ref(), 400, message).await;
    }
    for reference in ["huge-1", "null-1"] {
        let missing = api.get(&format!("/api/transaction/{reference}")).await;
        assert_eq!(missing.status, 404, "{reference}: {}", missing.text);
    }
    let at_cap = ngn(1_000_000_000_000_000, "huge-2");
    post_ok(&api, "/api/initiate-payment", &at_cap).await;
}

#[tokio::test]
async fn the_no_access_message_is_the_descriptions() {
    let api = Api::start().await;
    let refused = api
        .raw(Method::GET, "/api/balance/NGN", Some(NO_ACCESS_KEY), None)
        .await;
    assert_error(
        &refused,
        401,
        "not allowed to access this resource; contact support",
        "GET",
        "/api/balance/NGN",
    );
}

/// ASSUMPTIONS.md B54: the sandbox delivers webhooks over plain HTTP only.
/// An `https` URL is taken by set-webhook, and its delivery is recorded as
/// failed (no status, the client's reason), once and never retried.
#[tokio::test]
async fn a_webhook_to_an_https_url_is_recorded_as_failed() {
    let api = Api::start().await;
    let url = "https://127.0.0.1:9/hook";
    api.set_webhook(url).await;
    let memo = api.collection("tls-1", json!(1000), "NGN", "NGN").await;
    funded(&api, "NGN", json!(1000), &memo, "tls-f1").await;
    let deliveries = api
        .sandbox
        .wait_for_webhook_deliveries(1, std::time::Duration::from_secs(10))
        .await;
    assert_eq!(deliveries.len(), 1, "{deliveries:#?}");
    assert_eq!(deliveries[0].url, url);
    assert_eq!(deliveries[0].status, None);
    let error = deliveries[0].error.as_deref().unwrap_or_default();
    assert!(error.contains("scheme is not http"), "{error}");
}
