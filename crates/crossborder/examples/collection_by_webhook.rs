//! A collection awaited by webhook and confirmed by polling (feature `axum`):
//!
//! 1. the SDK's webhook `Receiver` listens on 127.0.0.1, and its URL is
//!    registered with `webhooks().set_url`;
//! 2. a collection is created and watched by a `Reconciler`;
//! 3. the payer pays (in staging, `simulate-funding`), and the service POSTs
//!    the event: the receiver answers at once, confirms the event with
//!    `GET /api/transaction/{reference}` and hands it over, and the handler
//!    prints what the service confirmed and wakes the reconciler;
//! 4. the reconciler yields the final state once: by the event, or by
//!    polling when no event settled it within the grace period (events are
//!    sent once and can be lost; a remote service cannot reach 127.0.0.1,
//!    so against real staging the state comes by polling).
//!
//! ```sh
//! cargo run -p crossborder-cli -- sandbox &
//! CROSSBORDER_API_KEY=test_sandbox_key CROSSBORDER_BASE_URL=http://127.0.0.1:8080/v1 \
//!     cargo run -p crossborder --features axum --example collection_by_webhook
//! # or against a sandbox in the test process:
//! cargo test -p crossborder --features axum --example collection_by_webhook
//! ```

use std::time::Duration;

use crossborder::webhook::{Delivery, Receiver, Reconciled, Reconciler, Verdict};
use crossborder::{
    dec,
    types::{CollectionRequest, SimulateFundingRequest, Transaction},
    Client, Currency,
};
use tokio::sync::mpsc;

/// How long to wait for the event before polling.
const GRACE: Duration = Duration::from_secs(30);

/// Collects 50000 NGN as `reference`; returns how the final state was
/// learnt and the transactions the webhook receiver confirmed.
async fn collect(
    client: &Client,
    reference: &str,
) -> Result<(Reconciled, Vec<Transaction>), Box<dyn std::error::Error>> {
    let mut reconciler = Reconciler::new(client.clone()).grace(GRACE);
    let notifier = reconciler.notifier();
    let (confirmed, mut confirmations) = mpsc::unbounded_channel();

    // 1. The receiver: the handler gets each event once the service has
    // answered for it, and passes the transaction read for it to the
    // reconciler (which then reads nothing more).
    let route = Receiver::new(client.clone()).route(move |delivery: Delivery| {
        match &delivery.verdict {
            Verdict::Confirmed(confirmed_change) => {
                let transaction = &confirmed_change.transaction;
                println!(
                    "webhook confirmed: {} is {}, {:?} paid",
                    transaction.payment_reference, transaction.status, transaction.paid_amount
                );
                let _ = confirmed.send(transaction.clone());
            }
            Verdict::Superseded(_) => println!("webhook superseded by a later change"),
            Verdict::Unconfirmed(why) => println!("webhook ignored: {why}"),
        }
        notifier.notify_delivery(&delivery);
        async {}
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let url = format!("http://{}/hooks/crossborder", listener.local_addr()?);
    let app = axum::Router::new().route("/hooks/crossborder", route);
    let server = tokio::spawn(async move { axum::serve(listener, app).await });
    client.webhooks().set_url(&url).await?;
    println!("receiving webhooks on {url}");

    // 2. The collection, watched from now on.
    let collection = client
        .collections()
        .create(&CollectionRequest::new(
            reference,
            dec!(50_000),
            Currency::Ngn,
            Currency::Ngn,
        ))
        .await?;
    let memo = collection.pay_reference.clone().unwrap_or_default();
    reconciler.watch(reference);
    println!("pay 50000 NGN with the narration {memo}");

    // 3. The payer pays (staging only).
    client
        .sandbox()
        .simulate_funding(&SimulateFundingRequest::new(
            Currency::Ngn,
            dec!(50_000),
            memo,
            format!("fund-{reference}"),
        ))
        .await?;

    // 4. The final state, once.
    let settled = reconciler
        .next()
        .await
        .ok_or("the reconciler watched nothing")?;
    server.abort();
    let mut seen = Vec::new();
    while let Ok(transaction) = confirmations.try_recv() {
        seen.push(transaction);
    }
    Ok((settled, seen))
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let client = Client::from_env()?;
    let reference = format!("order-{}", std::process::id());
    let (settled, _) = collect(&client, &reference).await?;
    let transaction = settled.result?;
    println!(
        "{}: {}, {:?} paid (learnt by {:?})",
        settled.reference, transaction.status, transaction.paid_amount, settled.source
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossborder::types::TransactionStatus;
    use crossborder::webhook::Source;
    use crossborder_sandbox::{Sandbox, SandboxConfig};

    #[tokio::test]
    async fn the_sandbox_delivers_the_webhook_and_the_reconciler_settles_by_it() {
        let sandbox = Sandbox::start(SandboxConfig::default()).await.unwrap();
        let client = Client::builder()
            .api_key("test_sandbox_key")
            .base_url(sandbox.base_url())
            .build()
            .unwrap();

        let (settled, confirmed) = collect(&client, "order-example").await.unwrap();
        assert_eq!(settled.reference, "order-example");
        assert_eq!(settled.source, Source::Event);
        let transaction = settled.result.unwrap();
        assert_eq!(transaction.status, TransactionStatus::Completed);
        assert_eq!(transaction.paid_amount, Some(dec!(50_000)));
        // The receiver got the sandbox's one real delivery, answered 200 and
        // confirmed it before the handler saw it.
        let deliveries = sandbox
            .wait_for_webhook_deliveries(1, Duration::from_secs(10))
            .await;
        assert_eq!(deliveries.len(), 1, "{deliveries:?}");
        assert_eq!(deliveries[0].status, Some(200));
        assert!(deliveries[0].url.ends_with("/hooks/crossborder"));
        assert_eq!(confirmed.len(), 1, "{confirmed:?}");
        assert_eq!(confirmed[0].status, TransactionStatus::Completed);
        assert_eq!(confirmed[0].payment_reference, "order-example");
        sandbox.shutdown().await;
    }
}
