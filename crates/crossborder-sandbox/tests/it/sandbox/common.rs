//! Helpers shared by the tests: the test kit's sandbox (raw requests with
//! the staging key by default), and what only these tests need.

use std::time::Duration;

use crossborder_sandbox::STAGING_KEY;
pub use crossborder_testkit::fixtures::ngn_payout_json as ngn_payout;
pub use crossborder_testkit::{
    assert_error_body as assert_error, read_reply as reply, Reply, TestSandbox as Api,
    WebhookReceiver as Receiver,
};
use serde_json::{json, Value};

pub use crate::steps::{funding, post_ok, refused, with_receiver};

/// A collection's payment instruction is valid for 24 hours: one second
/// more and it has lapsed.
pub const PAST_VALIDITY: Duration = Duration::from_secs(24 * 3600 + 1);

/// Creates an NGN collection and returns its memo (`payRefrence`).
pub async fn ngn_collection(api: &Api, reference: &str, amount: u64) -> String {
    api.collection(reference, amount.into(), "NGN", "NGN").await
}

/// A POST of `body` that the sandbox must refuse 400 for one field only:
/// the message `<field>: <problem>`, and `errors` naming that field alone.
pub async fn refused_field(
    api: &Api,
    path: &str,
    body: &Value,
    field: &str,
    problem: &str,
) -> Reply {
    let reply = api
        .post_refused(path, body, 400, &format!("{field}: {problem}"))
        .await;
    let errors = json!([{"field": field, "message": problem}]);
    assert_eq!(reply.body["errors"], errors, "{body}: {}", reply.text);
    reply
}

/// A simulated funding (see [`funding`]) that the sandbox must accept.
pub async fn fund_ok(api: &Api, currency: &str, amount: Value, memo: &str, session: &str) -> Reply {
    let body = funding(currency, amount, memo, session);
    post_ok(api, "/api/simulate-funding", &body).await
}

/// A USD→NGN payout of `amount` under `session`, with a fresh quote's
/// `rateKey` for that amount.
pub async fn usd_to_ngn_payout(api: &Api, session: &str, amount: &str) -> Value {
    let rate_key = api.rate_key("USD", "NGN", amount).await;
    let mut body = ngn_payout(session, amount);
    body["fromCurrency"] = json!("USD");
    body["rateKey"] = json!(rate_key);
    body
}

/// Asserts that the transaction `reference` reads back with `status` and
/// `paidAmount`.
pub async fn assert_paid(api: &Api, reference: &str, status: &str, paid: Value) {
    let data = api.transaction(reference).await;
    assert_eq!(data["status"], status, "{reference}: {data}");
    assert_eq!(data["paidAmount"], paid, "{reference}: {data}");
}

/// Asserts the staging business's balance in each currency, as the
/// balance operation writes it.
pub async fn assert_balances(api: &Api, expected: &[(&str, &str)]) {
    for (currency, balance) in expected {
        assert_eq!(
            api.balance(STAGING_KEY, currency).await,
            *balance,
            "{currency}"
        );
    }
}

/// The bodies `receiver` took once the sandbox has sent `count` webhooks,
/// checked to be exactly `count`.
pub async fn received(api: &Api, receiver: &Receiver, count: usize) -> Vec<Value> {
    api.sandbox
        .wait_for_webhook_deliveries(count, Duration::from_secs(10))
        .await;
    let received = receiver.bodies();
    assert_eq!(received.len(), count, "{received:?}");
    received
}
