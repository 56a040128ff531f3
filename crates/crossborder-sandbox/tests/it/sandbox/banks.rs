//! Bank lists and account resolution.

use serde_json::json;

use crate::sandbox::common::Api;

#[tokio::test]
async fn bank_lists_per_destination_currency() {
    let api = Api::start().await;
    let ngn = api.get("/api/bank-list/USD/NGN").await;
    assert_eq!(ngn.status, 200, "{}", ngn.text);
    assert_eq!(ngn.body["message"], "Banks retrieved successfully");
    assert!(ngn.body.get("error").is_none(), "{}", ngn.text);
    let banks = ngn.body["data"].as_array().unwrap();
    assert_eq!(banks.len(), 10);
    assert_eq!(banks[0], json!({"name": "Access Bank", "code": "044"}));
    assert_eq!(
        banks[1],
        json!({"name": "Guaranty Trust Bank", "code": "058"})
    );
    assert_eq!(banks[2], json!({"name": "Zenith Bank", "code": "057"}));
    assert_eq!(
        banks[3],
        json!({"name": "First Bank of Nigeria", "code": "011"})
    );
    for currency in ["KES", "UGX", "GHS"] {
        let list = api.get(&format!("/api/bank-list/NGN/{currency}")).await;
        assert!(
            !list.body["data"].as_array().unwrap().is_empty(),
            "{currency}"
        );
    }
    let crypto = api.get("/api/bank-list/NGN/USDT").await;
    assert_eq!(crypto.body["data"], json!([]));
}

#[tokio::test]
async fn accounts_resolve_deterministically() {
    let api = Api::start().await;
    let body = json!({"accountNumber": "0123456789", "bankCode": "058",
                      "fromCurrency": "USD", "toCurrency": "NGN"});
    let resolved = api.post("/api/resolve-bank", &body).await;
    assert_eq!(
        resolved.body,
        json!({"message": "Account resolved successfully", "error": false,
               "data": {"bankCode": "058", "accountName": "ADAEZE OKAFOR", "accountNumber": "0123456789"}})
    );
    let ngn_account = |number: &str, bank: &str| {
        json!({"accountNumber": number, "bankCode": bank,
               "fromCurrency": "NGN", "toCurrency": "NGN"})
    };
    let other = ngn_account("2233445566", "044");
    let first = api.post("/api/resolve-bank", &other).await;
    let second = api.post("/api/resolve-bank", &other).await;
    assert_eq!(first.status, 200);
    assert_eq!(first.body, second.body);

    for (body, status, message) in [
        (
            ngn_account("0000000000", "058"),
            404,
            "Could not resolve account 0000000000 at bank 058",
        ),
        (
            ngn_account("0123456789", "999"),
            400,
            "Unknown bank code 999 for NGN",
        ),
        (
            json!({}),
            400,
            "accountNumber: is required; bankCode: is required; fromCurrency: is required; \
             toCurrency: is required",
        ),
    ] {
        api.post_refused("/api/resolve-bank", &body, status, message)
            .await;
    }
}
