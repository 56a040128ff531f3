//! A webhook receiver in an axum application: the SDK's route answers the
//! service at once, confirms each event against the source of truth
//! (`GET /api/transaction/{reference}`) and hands it to the handler, which
//! touches the order only when the service confirmed the event. (The
//! `collection_by_webhook` example adds a `Reconciler` for lost events.)
//!
//! ```sh
//! cargo run -p crossborder-cli -- sandbox &
//! CROSSBORDER_API_KEY=test_sandbox_key CROSSBORDER_BASE_URL=http://127.0.0.1:8080/v1 \
//!     cargo run -p crossborder --features axum --example webhook_receiver
//! # then: crossborder webhook set http://127.0.0.1:3000/hooks/crossborder
//! ```

use crossborder::webhook::{Delivery, Receiver};
use crossborder::Client;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let client = Client::from_env()?;
    let route = Receiver::new(client).route(|delivery: Delivery| async move {
        // An unsigned event is a claim: act only on what the API confirmed.
        match delivery.verified {
            Ok(transaction) => println!(
                "order {} is {} (paid {:?})",
                transaction.payment_reference, transaction.status, transaction.paid_amount
            ),
            Err(not_confirmed) => {
                eprintln!(
                    "ignored event {}: {not_confirmed}",
                    delivery.event.reference
                )
            }
        }
    });
    let app = axum::Router::new().route("/hooks/crossborder", route);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:3000").await?;
    println!("receiving on http://127.0.0.1:3000/hooks/crossborder");
    axum::serve(listener, app).await?;
    Ok(())
}
