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

use std::collections::HashSet;
use std::sync::{Arc, Mutex};

use crossborder::webhook::axum::{self, extract::State};
use crossborder::webhook::{Classification, Delivery, Receiver, Verdict};
use crossborder::Client;

/// The application's state, reached by the handler the axum way.
#[derive(Clone, Default)]
struct Shop {
    paid_orders: Arc<Mutex<HashSet<String>>>,
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let client = Client::from_env()?;
    let route =
        Receiver::new(client).route(|State(shop): State<Shop>, delivery: Delivery| async move {
            // An unsigned event is a claim: act only on what the API confirmed.
            match delivery.verdict {
                Verdict::Confirmed(confirmed) => {
                    let order = &confirmed.transaction;
                    println!(
                        "order {} is {} (paid {:?})",
                        order.payment_reference, order.status, order.paid_amount
                    );
                    if let Classification::Completed { overpaid } = confirmed.change {
                        if let Some(extra) = overpaid {
                            println!("  overpaid by {extra}: refund or credit it");
                        }
                        if let Ok(mut paid) = shop.paid_orders.lock() {
                            paid.insert(order.payment_reference.clone());
                        }
                    }
                }
                // The collection has moved on since: its newer state comes
                // by its own event.
                Verdict::Superseded(_) => {}
                Verdict::Unconfirmed(why) => {
                    eprintln!("ignored event {}: {why}", delivery.event.reference)
                }
            }
        });
    let app = axum::Router::new()
        .route("/hooks/crossborder", route)
        .with_state(Shop::default());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:3000").await?;
    println!("receiving on http://127.0.0.1:3000/hooks/crossborder");
    axum::serve(listener, app).await?;
    Ok(())
}
