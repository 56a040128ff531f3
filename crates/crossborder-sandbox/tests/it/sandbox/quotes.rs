//! Quotes: exact figures, rate keys and validation.

use serde_json::json;

use crate::sandbox::common::Api;

#[tokio::test]
async fn usd_to_ngn_100_has_exact_figures() {
    let api = Api::start().await;
    let reply = api.get("/api/qoutes/USD/NGN/100?rail=swift").await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    let data = &reply.body["data"];
    let rate_key = data["rateKey"].as_str().unwrap();
    assert!(
        rate_key.starts_with("rk_") && rate_key.len() == 19,
        "{rate_key}"
    );
    assert_eq!(
        reply.body,
        json!({
            "message": "Quote retrieved successfully",
            "error": false,
            "data": {
                "rate": 1530.25,
                "roundedRate": 1530.25,
                "rateKey": rate_key,
                "fromCurrency": "USD",
                "toCurrency": "NGN",
                "fee": 0.5,
                "toAmount": 153025,
                "totalAmount": 100.5,
                "expiresAt": "2026-11-21T12:05:00.000Z"
            }
        })
    );
    // Numbers are written exactly, without trailing zeros.
    reply.assert_written(&["\"toAmount\":153025,", "\"totalAmount\":100.5}"]);

    let other = api.get("/api/qoutes/USD/NGN/100").await;
    assert_ne!(other.body["data"]["rateKey"], data["rateKey"]);
}

#[tokio::test]
async fn cross_and_small_rates_are_exact() {
    let api = Api::start().await;
    let reply = api.get("/api/qoutes/NGN/USD/1000000").await;
    reply.assert_written(&[
        "\"rate\":0.000653487992,",
        "\"roundedRate\":0.000653,",
        "\"toAmount\":653.49,",
        "\"fee\":5000,",
        "\"totalAmount\":1005000}",
    ]);

    let reply = api.get("/api/qoutes/EUR/UGX/10.55").await;
    // 3700 / 0.92 = 4021.739130434783 (12 places); 10.55 * that = 42429.35 -> 42429 UGX.
    reply.assert_written(&[
        "\"rate\":4021.739130434783,",
        "\"roundedRate\":4021.74,",
        "\"toAmount\":42429,",
        "\"fee\":0.05,",
    ]);

    let same = api.get("/api/qoutes/NGN/NGN/2500").await;
    same.assert_written(&["\"rate\":1,", "\"fee\":0,", "\"toAmount\":2500,"]);
}

#[tokio::test]
async fn quote_validation() {
    let api = Api::start().await;
    let cases = [
        ("/api/qoutes/USD/NGN/0", "amount: must be greater than zero"),
        ("/api/qoutes/USD/NGN/abc", "amount: must be a decimal number such as 1500.50"),
        ("/api/qoutes/USD/NGN/-5", "amount: must be a decimal number such as 1500.50"),
        ("/api/qoutes/USD/NGN/1.234", "amount: has more decimal places than USD allows (2)"),
        ("/api/qoutes/UGX/NGN/1.5", "amount: has more decimal places than UGX allows (0)"),
        (
            "/api/qoutes/USD/NGN/100?rail=WIRE",
            "Invalid rail: WIRE (expected one of ach, iban, swift, wire, pix, ethereum, bridge_wallet, nip)",
        ),
    ];
    for (url, message) in cases {
        api.get_refused(url, 400, message).await;
    }
}
