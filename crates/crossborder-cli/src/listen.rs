//! `crossborder webhook listen`: the SDK's webhook receiver on 127.0.0.1,
//! each event verified against the API (the webhook is unsigned; the
//! transaction read back is the truth) and printed with what it claims, and
//! optionally forwarded unchanged, so a developer can watch collections
//! settle while building their own receiver.

use std::net::Ipv4Addr;

use axum::Router;
use crossborder::webhook::{Classification, Delivery, Receiver, VerifyError, WebhookEvent};
use crossborder::{Client, Transaction};

use crate::failure::Failure;

/// The route events are received on.
pub const PATH: &str = "/webhook";

/// Serves until Ctrl-C.
pub async fn run(client: Client, port: u16, forward_to: Option<String>) -> Result<(), Failure> {
    let listener = tokio::net::TcpListener::bind((Ipv4Addr::LOCALHOST, port))
        .await
        .map_err(|e| Failure::usage(format!("cannot listen on 127.0.0.1:{port}: {e}")))?;
    let addr = listener
        .local_addr()
        .map_err(|e| Failure::usage(format!("cannot listen on 127.0.0.1:{port}: {e}")))?;
    let forward = forward_to.map(|url| (reqwest::Client::new(), url));
    // The receiver confirms each event with the API before handing it over.
    let route = Receiver::new(client).route(move |delivery: Delivery| {
        let forward = forward.clone();
        async move {
            let event = delivery.event;
            say!("{}", describe(&event, &delivery.verified));
            if let Some((http, url)) = forward {
                let sent = http
                    .post(&url)
                    .header("content-type", "application/json")
                    .body(event.raw_body().to_owned())
                    .send()
                    .await;
                match sent {
                    Ok(response) => say!("  forwarded to {url}: {}", response.status()),
                    Err(error) => say!("  forwarding to {url} failed: {error}"),
                }
            }
        }
    });
    say!("listening for webhooks on http://{addr}{PATH} (Ctrl-C to stop)");
    say!("register it with: crossborder webhook set http://{addr}{PATH}");
    let app = Router::new().route(PATH, route);
    axum::serve(listener, app)
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
        .map_err(|e| Failure::usage(format!("the webhook listener stopped: {e}")))
}

/// One line: what the event claims, and whether the API confirmed it
/// (`verified`, what `webhook::verify` said).
pub fn describe(event: &WebhookEvent, verified: &Result<Transaction, VerifyError>) -> String {
    let claim = match event.classify() {
        Classification::Completed => "completed".to_owned(),
        Classification::PartiallyPaid => "partially paid".to_owned(),
        Classification::Failed { reason } => format!("failed ({reason})"),
        Classification::Unknown => format!("unknown status {}", event.status),
    };
    let paid = event
        .paid_amount
        .map(|paid| format!(", paid {paid}"))
        .unwrap_or_default();
    match verified {
        Ok(transaction) => format!(
            "event {}: {claim}{paid}; verified: the transaction is {}",
            event.reference, transaction.status
        ),
        Err(error) => format!(
            "event {}: {claim}{paid}; NOT confirmed: {error}",
            event.reference
        ),
    }
}
