//! A mock of the API's `GET /api/transaction/order-1` for the webhook
//! tests, and a client of it.

use crossborder::{Client, RetryPolicy};
use serde_json::{json, Value};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

/// The path of the one transaction the mock serves.
pub const TRANSACTION_PATH: &str = "/v1/api/transaction/order-1";

/// A collection of 50000 NGN, `order-1`, as the API returns it.
pub fn transaction(status: &str, paid: &str) -> Value {
    json!({
        "message": "Transaction retrieved successfully",
        "data": {
            "transactionId": "txn_1",
            "type": "COLLECTION",
            "payRefrence": "PAY-1",
            "paymentReference": "order-1",
            "amount": 50000,
            "paidAmount": paid,
            "status": status,
            "toAmount": 50000,
            "totalAmount": 50000,
            "rate": 1,
            "fee": 0,
            "fromCurrency": "NGN",
            "toCurrency": "NGN"
        },
        "error": false
    })
}

/// A client of `server`, without retries.
pub fn client_of(server: &MockServer) -> Client {
    Client::builder()
        .api_key("test_webhook_mock_key")
        .base_url(format!("{}/v1", server.uri()))
        .retry_policy(RetryPolicy::none())
        .build()
        .unwrap()
}

/// A mock API answering `response` for order-1, and a client of it.
pub async fn answering(response: ResponseTemplate) -> (MockServer, Client) {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path(TRANSACTION_PATH))
        .respond_with(response)
        .mount(&server)
        .await;
    let client = client_of(&server);
    (server, client)
}

/// A mock API answering `body` (200) for order-1, and a client of it.
pub async fn api(body: Value) -> (MockServer, Client) {
    answering(ResponseTemplate::new(200).set_body_json(body)).await
}
