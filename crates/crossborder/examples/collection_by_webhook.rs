//! A collection awaited by webhook and confirmed by polling: create it,
//! watch it with a `Reconciler`, feed it the events your receiver gets
//! (here, in staging, the simulated payment makes one), and take the final
//! state the reconciler yields, whether it came by event or, when the event
//! was lost, by polling.
//!
//! ```sh
//! CROSSBORDER_API_KEY=test_sandbox_key CROSSBORDER_BASE_URL=http://127.0.0.1:8080/v1 \
//!     cargo run -p crossborder --example collection_by_webhook
//! ```

use std::time::Duration;

use crossborder::webhook::{Reconciler, WebhookEvent};
use crossborder::{Client, CollectionRequest, Currency, Decimal, SimulateFundingRequest};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let client = Client::from_env()?;
    let reference = format!("order-{}", std::process::id());
    let collection = client
        .collections()
        .create(&CollectionRequest::new(
            reference.as_str(),
            Decimal::new(50_000, 0),
            Currency::Ngn,
            Currency::Ngn,
        ))
        .await?;
    let memo = collection.pay_reference.clone().unwrap_or_default();
    println!("pay 50000 NGN with the narration {memo}");

    let mut reconciler = Reconciler::new(client.clone()).grace(Duration::from_secs(10));
    reconciler.watch(reference.as_str());
    // In your application the receiver's handler calls notify for each
    // event; a forged one only costs a read.
    let notifier = reconciler.notifier();

    client
        .sandbox()
        .simulate_funding(&SimulateFundingRequest::new(
            Currency::Ngn,
            Decimal::new(50_000, 0),
            memo,
            format!("fund-{reference}"),
        ))
        .await?;
    let event = WebhookEvent::parse(format!(r#"{{"reference": "{reference}", "status": true}}"#))?;
    notifier.notify(&event);

    while let Some(done) = reconciler.next().await {
        match done.result {
            Ok(transaction) => println!(
                "{}: {} (learnt by {:?})",
                done.reference, transaction.status, done.source
            ),
            Err(error) => println!("{}: {error}", done.reference),
        }
    }
    Ok(())
}
