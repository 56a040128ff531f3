//! Steps shared by the test binaries that include this file (`#[path]`):
//! the sandbox tests and the described ones.

use crossborder_sandbox::{SandboxConfig, STAGING_KEY};
use crossborder_testkit::{assert_error_body, Reply, TestSandbox, WebhookReceiver};
use reqwest::Method;
use serde_json::{json, Value};

/// A sandbox with `config` whose staging business sends its webhooks to
/// the returned receiver (kept alive as long as it is held).
pub async fn with_receiver(config: SandboxConfig) -> (TestSandbox, WebhookReceiver) {
    let api = TestSandbox::start_with(config).await;
    let receiver = api.register_receiver().await;
    (api, receiver)
}

/// A POST of `body` with the staging key that the sandbox must answer 200.
pub async fn post_ok(api: &TestSandbox, path: &str, body: &Value) -> Reply {
    let reply = api.post(path, body).await;
    assert_eq!(reply.status, 200, "{path}: {}", reply.text);
    reply
}

/// One case of a table of refusals, named `case` in a failure message: a
/// request with the staging key (a POST of `body`, or a GET of `path` when
/// there is none) that the sandbox must refuse with `status` and
/// `message` in the API's error shape. Returns the reply for further
/// checks.
pub async fn refused(
    api: &TestSandbox,
    case: &str,
    path: &str,
    body: Option<&Value>,
    status: u16,
    message: &str,
) -> Reply {
    let method = if body.is_some() {
        Method::POST
    } else {
        Method::GET
    };
    let reply = api.raw(method.clone(), path, Some(STAGING_KEY), body).await;
    let answer = (reply.status, reply.body["message"].as_str());
    assert_eq!(
        answer,
        (status, Some(message)),
        "case {case}: {}",
        reply.text
    );
    assert_error_body(&reply, status, message, method.as_str(), path);
    reply
}

/// The body of a simulated funding of `amount` (as written on the wire) in
/// `currency` for the collection whose memo is `memo`, under `session`.
pub fn funding(currency: &str, amount: Value, memo: &str, session: &str) -> Value {
    json!({"currency": currency, "amount": amount, "narration": memo, "sessionId": session})
}
