//! A payout claimed from `recorded` has never been sent: the claim makes
//! it `sending` with the batch, and it is sent with no read before it and
//! no read-back after; its transaction id comes with the first follow-up
//! read.

use crate::support;

use crossborder::Decimal;
use crossborder_ledger::{DispatchOptions, Ledger, PayoutState};
use crossborder_testkit::{fixtures, sdk_client, TestSandbox};
use support::TempDir;

#[tokio::test]
async fn recorded_payouts_are_sent_once_without_a_read_and_followed_for_their_transaction_id() {
    let dir = TempDir::new("first-send");
    let sandbox = TestSandbox::start().await;
    let client = sdk_client(sandbox.base_url(), TestSandbox::KEY).unwrap();
    let ledger = Ledger::open(&dir.sqlite("payouts.db")).await.unwrap();
    let ids: Vec<String> = (0..20).map(|i| format!("first-{i}")).collect();
    for id in &ids {
        ledger
            .submit(&fixtures::ngn_bank_payout(Decimal::new(100, 0), id))
            .await
            .unwrap();
    }
    // Made at the service under the same session id, with another amount,
    // before the ledger sends its own: the send is refused with 409, and
    // the payout is read, not paid again.
    client
        .payouts()
        .create(&fixtures::ngn_bank_payout(Decimal::new(7, 0), "made-1"))
        .await
        .unwrap();
    ledger
        .submit(&fixtures::ngn_bank_payout(Decimal::new(100, 0), "made-1"))
        .await
        .unwrap();

    let dispatcher = ledger
        .dispatcher(client.clone(), DispatchOptions::new("first").concurrency(8))
        .await
        .unwrap();
    let report = dispatcher.send_pending(|_| {}).await.unwrap();
    assert_eq!(
        (
            report.sent,
            report.resolved_by_reading,
            report.accepted,
            report.completed
        ),
        (21, 1, 21, 0),
        "{report:?}"
    );
    use PayoutState::*;
    for id in &ids {
        let history = ledger.history(id).await.unwrap();
        let steps: Vec<_> = history
            .iter()
            .map(|e| (e.from, e.to, e.detail.as_deref(), e.dispatcher.as_deref()))
            .collect();
        assert_eq!(
            steps[1..],
            [
                (
                    Some(Recorded),
                    Sending,
                    Some("claimed by first"),
                    Some("first")
                ),
                (
                    Some(Sending),
                    Accepted,
                    Some("accepted: Payout initiated successfully"),
                    Some("first")
                ),
            ],
            "{id}"
        );
        // Nothing read it back: no transaction id yet.
        let record = ledger.payout(id).await.unwrap().unwrap();
        assert_eq!(
            (record.state, record.transaction_id),
            (Accepted, None),
            "{id}"
        );
    }
    let made = ledger.payout("made-1").await.unwrap().unwrap();
    let at_service = client.payouts().get("made-1").await.unwrap();
    assert_eq!(made.state, Accepted);
    assert_eq!(
        made.transaction_id.as_deref(),
        Some(at_service.transaction_id.as_str())
    );
    let history = ledger.history("made-1").await.unwrap();
    assert_eq!(
        history[2].detail.as_deref(),
        Some("found by reading its session id")
    );
    assert_eq!(at_service.amount, Decimal::new(7, 0));

    // Following reads each one: completed, with the service's transaction id.
    let report = dispatcher.run_until_idle(|_| {}).await.unwrap();
    assert_eq!((report.sent, report.completed), (0, 21), "{report:?}");
    for id in &ids {
        let record = ledger.payout(id).await.unwrap().unwrap();
        let read = client.payouts().get(id).await.unwrap();
        assert_eq!(record.state, Completed, "{id}");
        assert_eq!(
            record.transaction_id.as_deref(),
            Some(read.transaction_id.as_str())
        );
    }
}
