//! `webhook listen` prints each verdict of the SDK's verification: an
//! event superseded by a later change is shown as one to ignore.

use crossborder_testkit::post_event;

use crate::webhook::{collect_and_pay, listen};
use crate::{sandbox, Live};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_superseded_event_is_printed_as_one_to_ignore() {
    let sandbox = sandbox().await;
    let mut live = listen(sandbox.base_url(), &[]).await;
    let url = Live::url_in(&live.seen[0]);
    let (client, _) = collect_and_pay(sandbox.base_url(), "listen-s", 5000).await;
    let completed = live.until("event", |line| line.starts_with("event "));
    assert_eq!(
        completed,
        "event listen-s: completed, paid 5000; verified: the transaction is COMPLETED"
    );
    // A partial-payment event read after the collection completed.
    assert_eq!(post_event(&url, r#"{"reference": "listen-s", "status": false, "paidAmount": 2000, "remainingAmount": 3000}"#).await.unwrap().status, 200);
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
    collect_and_pay(sandbox.base_url(), "listen-o", 5000).await;
    assert_eq!(post_event(&url, r#"{"reference": "listen-o", "status": true, "paidAmount": 5000, "remainingAmount": -250.5}"#).await.unwrap().status, 200);
    let overpaid = live.until("event", |line| line.starts_with("event "));
    live.kill();
    assert_eq!(
        overpaid,
        "event listen-o: completed (overpaid by 250.5), paid 5000; verified: the transaction is COMPLETED"
    );
}
