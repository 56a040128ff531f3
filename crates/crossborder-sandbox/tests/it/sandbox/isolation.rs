//! Each key's business sees only its own state.

use crossborder_sandbox::{ApiKeySpec, SandboxConfig, PRODUCTION_KEY, STAGING_KEY};
use reqwest::Method;
use serde_json::json;

use crate::sandbox::common::{ngn_collection, ngn_payout, Api};

#[tokio::test]
async fn keys_do_not_see_each_other() {
    let second = "test_second_merchant";
    let api =
        Api::start_with(SandboxConfig::default().with_key(ApiKeySpec::new(second).unwrap())).await;
    ngn_collection(&api, "mine", 100).await;
    let payout = api
        .post("/api/payout", &ngn_payout("my-payout", "1000"))
        .await;
    assert_eq!(payout.status, 200);

    for key in [PRODUCTION_KEY, second] {
        let collection = api
            .raw(Method::GET, "/api/transaction/mine", Some(key), None)
            .await;
        assert_eq!(collection.status, 404, "{key}");
        let payout = api
            .raw(Method::GET, "/api/transaction/my-payout", Some(key), None)
            .await;
        assert_eq!(payout.status, 404, "{key}");
        assert_eq!(api.balance(key, "NGN").await, "5000000");
        // The same references are free for another business.
        let reused = api
            .raw(
                Method::POST,
                "/api/initiate-payment",
                Some(key),
                Some(
                    &json!({"amount": 5, "fromCurrency": "NGN", "toCurrency": "NGN",
                              "paymentReference": "mine"}),
                ),
            )
            .await;
        assert_eq!(reused.status, 200, "{key}: {}", reused.text);
    }
    assert_eq!(api.balance(STAGING_KEY, "NGN").await, "4999000");

    let rate_key = api.rate_key("USD", "NGN", "10").await;
    let mut foreign = ngn_payout("foreign", "10");
    foreign["fromCurrency"] = json!("USD");
    foreign["rateKey"] = json!(rate_key);
    let reply = api
        .raw(Method::POST, "/api/payout", Some(second), Some(&foreign))
        .await;
    assert_eq!(reply.body["message"], "rateKey is unknown or expired");
}
