//! The webhook URL and the staging-only funding simulation.

use super::*;

#[tokio::test]
async fn set_webhook_url() {
    let (server, client) = setup().await;
    let url = "https://merchant.example.org/hooks/crossborder";
    mock::set_webhook()
        .and(body_json(json!({"webhookUrl": url})))
        .answers_once(
            &server,
            ok(json!({"message": "Webhook URL set successfully"})),
        )
        .await;
    let ack = client.webhooks().set_url(url).await.unwrap();
    assert_eq!(ack.message, "Webhook URL set successfully");

    let error = client.webhooks().set_url("not a url").await.unwrap_err();
    assert_eq!(error.violations().unwrap()[0].field, "webhookUrl");
}

#[tokio::test]
async fn simulate_funding_in_staging() {
    let (server, client) = setup().await;
    mock::simulate_funding()
        .and(body_json(json!({
            "currency": "NGN",
            "amount": 50000.10,
            "narration": "PAY-7KQ2M9XD",
            "sessionId": "sim-2026-11-21-0001"
        })))
        .answers_once(
            &server,
            ok(json!({"message": "Funding simulated successfully"})),
        )
        .await;
    let ack = client
        .sandbox()
        .simulate_funding(&example_funding())
        .await
        .unwrap();
    assert_eq!(ack.message, "Funding simulated successfully");
}

#[tokio::test]
async fn sandbox_refuses_a_live_key_without_sending() {
    let server = wiremock::MockServer::start().await;
    let client = common::client_for(&server, common::LIVE_KEY, common::fast_retries());
    let error = client
        .sandbox()
        .simulate_funding(&example_funding())
        .await
        .unwrap_err();
    assert!(matches!(error, Error::SandboxOnly), "{error:?}");
    assert_nothing_sent(&server).await;
}
