//! `crossborder webhook listen`: the SDK's webhook receiver on 127.0.0.1,
//! each event verified against the API (the webhook is unsigned; the
//! transaction read back is the truth) and printed with what it claims, and
//! optionally forwarded unchanged, so a developer can watch collections
//! settle while building their own receiver.

use std::net::Ipv4Addr;
use std::time::Duration;

use axum::Router;
use crossborder::webhook::{Classification, Delivery, Receiver, Verdict, WebhookEvent};
use crossborder::Client;

use crate::failure::Failure;

/// The route events are received on.
pub const PATH: &str = "/webhook";

/// Serves until Ctrl-C; `forward` is the URL each event is forwarded to,
/// with the time one forward may take.
pub async fn run(
    client: Client,
    port: u16,
    forward: Option<(String, Duration)>,
) -> Result<(), Failure> {
    let listener = tokio::net::TcpListener::bind((Ipv4Addr::LOCALHOST, port))
        .await
        .map_err(|e| Failure::usage(format!("cannot listen on 127.0.0.1:{port}: {e}")))?;
    let addr = listener
        .local_addr()
        .map_err(|e| Failure::usage(format!("cannot listen on 127.0.0.1:{port}: {e}")))?;
    let forward = match forward {
        Some((url, timeout)) => Some(Forward::new(url, timeout)?),
        None => None,
    };
    // The receiver confirms each event with the API before handing it over.
    let route = Receiver::new(client).route(move |delivery: Delivery| {
        let forward = forward.clone();
        async move {
            let event = delivery.event;
            // Printed either way: an event the API does not confirm is
            // what a developer needs to see most.
            let (Ok(line) | Err(line)) = describe(&event, &delivery.verdict);
            say!("{line}");
            if let Some(forward) = forward {
                // The receiver hands over one event at a time: forwarding
                // runs on its own, so a slow target never holds up the next.
                tokio::spawn(forward.send(event.raw_body().to_owned()));
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

/// Where events are forwarded, each POST bounded by the client's timeout.
#[derive(Clone)]
struct Forward {
    http: reqwest::Client,
    url: String,
}

impl Forward {
    fn new(url: String, timeout: Duration) -> Result<Forward, Failure> {
        // The SDK's TLS configuration: under its `rustls` feature reqwest
        // has no crypto provider of its own.
        let http = crossborder::ClientBuilder::new()
            .timeout(timeout)
            .http_client_builder()
            .map_err(|e| Failure::usage(format!("cannot forward to {url}: {e}")))?
            .build()
            .map_err(|e| Failure::usage(format!("cannot forward to {url}: {e}")))?;
        Ok(Forward { http, url })
    }

    async fn send(self, body: String) {
        let Forward { http, url } = self;
        let sent = http
            .post(&url)
            .header("content-type", "application/json")
            .body(body)
            .send()
            .await;
        match sent {
            Ok(response) => say!("  forwarded to {url}: {}", response.status()),
            Err(error) if error.is_timeout() => say!("  forwarding to {url} failed: timed out"),
            Err(error) => say!("  forwarding to {url} failed: {error}"),
        }
    }
}

/// One line: what the event claims, and what the API says of it
/// (`verdict`, what `webhook::verify` found): `Ok` when the transaction
/// read back confirms it, `Err` when it is superseded by a later change or
/// not confirmed.
pub fn describe(event: &WebhookEvent, verdict: &Verdict) -> Result<String, String> {
    let claim = match event.classify() {
        Classification::Completed { overpaid: None } => "completed".to_owned(),
        Classification::Completed {
            overpaid: Some(extra),
        } => format!("completed (overpaid by {extra})"),
        Classification::PartiallyPaid => "partially paid".to_owned(),
        Classification::Failed { reason } => format!("failed ({reason})"),
        Classification::Unknown => format!("unknown status {}", event.status),
    };
    let paid = event
        .paid_amount
        .map(|paid| format!(", paid {paid}"))
        .unwrap_or_default();
    match verdict {
        Verdict::Confirmed(confirmed) => Ok(format!(
            "event {}: {claim}{paid}; verified: the transaction is {}",
            event.reference, confirmed.transaction.status
        )),
        Verdict::Superseded(superseded) => Err(format!(
            "event {}: {claim}{paid}; superseded: the transaction is now {}{}, ignore this event",
            event.reference,
            superseded.transaction.status,
            superseded
                .transaction
                .paid_amount
                .map(|paid| format!(", paid {paid}"))
                .unwrap_or_default()
        )),
        Verdict::Unconfirmed(why) => Err(format!(
            "event {}: {claim}{paid}; NOT confirmed: {why}",
            event.reference
        )),
    }
}
