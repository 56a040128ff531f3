//! A user's test: the SDK with its default features and the test kit, as
//! its README shows them, and nothing else.

use std::time::Duration;

use crossborder::{Currency, Decimal};
use crossborder_testkit::{post_event, SandboxConfig, TestSandbox, WebhookReceiver};

#[tokio::test]
async fn the_test_kit_works_with_only_the_sdks_default_features() {
    let config = SandboxConfig::default().with_quote_ttl(Duration::from_secs(2));
    let sandbox = TestSandbox::start_with(config).await;

    // The SDK's client, made by the test kit.
    let client = sandbox.client(TestSandbox::KEY);
    let balance = client.wallet().balance(Currency::Ngn).await.unwrap();
    assert_eq!(balance.amount, Decimal::new(5_000_000, 0));

    // The test kit's own plain HTTP clients: raw requests and `post_event`.
    let reply = sandbox
        .raw_get("/api/balance/NGN", Some(TestSandbox::KEY))
        .await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    let receiver = WebhookReceiver::start().await;
    let event = post_event(receiver.url(), r#"{"reference": "order-1"}"#)
        .await
        .unwrap();
    assert_eq!(event.status, 200, "{}", event.text);
    assert_eq!(receiver.bodies().len(), 1);
}
