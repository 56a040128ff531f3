//! The kit's checks fail when what they check differs (a refusal with
//! another message, another error, a success, an error body with another
//! status), and its webhook steps see what the sandbox sends.

use crossborder::Currency;
use crossborder_testkit::{assert_api_error, TestSandbox};

#[tokio::test]
async fn a_refusal_is_checked_by_status_and_message() {
    let sandbox = TestSandbox::start().await;
    let client = sandbox.client(TestSandbox::KEY);
    let error = assert_api_error(
        client.collections().get("nope").await,
        404,
        "Transaction not found: nope",
    );
    assert_eq!(error.status(), Some(404));
}

#[tokio::test]
#[should_panic(expected = "Transaction not found: nope")]
async fn a_refusal_with_another_message_fails_the_check() {
    let sandbox = TestSandbox::start().await;
    let client = sandbox.client(TestSandbox::KEY);
    assert_api_error(client.collections().get("nope").await, 404, "another");
}

#[tokio::test]
#[should_panic(expected = "got InvalidApiKey")]
async fn another_error_fails_the_refusal_check() {
    let sandbox = TestSandbox::start().await;
    let client = sandbox.client("test_unknown_key_00000000");
    assert_api_error(
        client.wallet().balance(Currency::Ngn).await,
        401,
        "Invalid api key",
    );
}

#[tokio::test]
#[should_panic(expected = "got Ok(")]
async fn a_success_fails_the_refusal_check() {
    let sandbox = TestSandbox::start().await;
    let client = sandbox.client(TestSandbox::KEY);
    assert_api_error(client.wallet().balance(Currency::Ngn).await, 404, "x");
}

#[tokio::test]
#[should_panic(expected = "Invalid currency: ABC")]
async fn an_error_body_with_another_status_fails_get_refused() {
    let sandbox = TestSandbox::start().await;
    sandbox
        .get_refused("/api/balance/ABC", 404, "Invalid currency: ABC")
        .await;
}

#[tokio::test]
async fn the_receiver_records_each_webhook_the_sandbox_sends() {
    let sandbox = TestSandbox::start().await;
    let receiver = sandbox.register_receiver().await;
    let memo = sandbox
        .collection("order-kit", 5000.into(), "NGN", "NGN")
        .await;
    let funded = sandbox.fund("NGN", 5000.into(), &memo, "fund-kit").await;
    assert_eq!(funded.status, 200, "{}", funded.text);
    let sent = sandbox.exactly_webhooks(1).await;
    assert_eq!(sent[0]["reference"], "order-kit");
    assert_eq!(sent[0]["status"], true);
    assert_eq!(receiver.bodies(), sent);
    assert_eq!(
        sandbox.transaction("order-kit").await["status"],
        "COMPLETED"
    );
}
