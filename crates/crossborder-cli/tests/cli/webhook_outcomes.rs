//! `webhook listen` prints each verdict of the SDK's verification: an
//! event superseded by a later change is shown as one to ignore.

use crate::webhook::{client, collect, fund, listen};
use crate::{sandbox, Live};

/// POSTs `body` to the listener at `url`; returns the status.
async fn post(url: &str, body: &'static str) -> u16 {
    reqwest::Client::new()
        .post(url)
        .header("content-type", "application/json")
        .body(body)
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_superseded_event_is_printed_as_one_to_ignore() {
    let sandbox = sandbox().await;
    let mut live = listen(sandbox.base_url(), &[]).await;
    let url = Live::url_in(&live.seen[0]);
    let client = client(sandbox.base_url());
    let memo = collect(&client, "listen-s").await;
    fund(&client, &memo, 5000, "listen-s-fund").await;
    let completed = live.until("event", |line| line.starts_with("event "));
    assert_eq!(
        completed,
        "event listen-s: completed, paid 5000; verified: the transaction is COMPLETED"
    );
    // A partial-payment event read after the collection completed.
    assert_eq!(post(&url, r#"{"reference": "listen-s", "status": false, "paidAmount": 2000, "remainingAmount": 3000}"#).await, 200);
    let superseded = live.until("event", |line| line.starts_with("event "));
    assert_eq!(
        superseded,
        "event listen-s: partially paid, paid 2000; superseded: the transaction is now COMPLETED, paid 5000, ignore this event"
    );
    // A negative remainder is shown as an overpayment claimed. The
    // sandbox's own event for this collection goes elsewhere, so the one
    // posted here is the first of its change (a repeat would be dropped).
    client
        .webhooks()
        .set_url("http://127.0.0.1:9/elsewhere")
        .await
        .unwrap();
    let memo = collect(&client, "listen-o").await;
    fund(&client, &memo, 5000, "listen-o-fund").await;
    assert_eq!(post(&url, r#"{"reference": "listen-o", "status": true, "paidAmount": 5000, "remainingAmount": -250.5}"#).await, 200);
    let overpaid = live.until("event", |line| line.starts_with("event "));
    live.kill();
    assert_eq!(
        overpaid,
        "event listen-o: completed (overpaid by 250.5), paid 5000; verified: the transaction is COMPLETED"
    );
}
