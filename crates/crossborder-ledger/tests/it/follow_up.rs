//! Accepted payouts are followed until they settle, reading with back-off.

use crate::support;

use std::time::Duration;

use crossborder::Decimal;
use crossborder_ledger::{Backoff, DispatchOptions, Ledger, PayoutState};
use crossborder_testkit::{fixtures, sdk_client, TestSandbox};
use support::{late_proxy, TempDir};

#[tokio::test]
async fn a_payout_still_processing_is_read_again_with_back_off_until_it_completes() {
    let dir = TempDir::new("follow");
    let sandbox = TestSandbox::start().await;
    // The first three reads say PROCESSING (no read-back follows the send:
    // the first follow-up read comes at once).
    let api = late_proxy(sandbox.base_url(), Duration::ZERO, 3).await;
    let client = sdk_client(&api, TestSandbox::KEY).unwrap();
    let ledger = Ledger::open(&dir.sqlite("payouts.db")).await.unwrap();
    ledger
        .submit(&fixtures::ngn_bank_payout(Decimal::new(500, 0), "later-1"))
        .await
        .unwrap();
    let poll = Backoff {
        initial: Duration::from_millis(100),
        max: Duration::from_secs(1),
        factor: 2,
    };
    let dispatcher = ledger
        .dispatcher(client, DispatchOptions::new("follow").poll(poll))
        .await
        .unwrap();

    // Sending only: it returns with the payout accepted, not settled.
    let report = dispatcher.send_pending(|_| {}).await.unwrap();
    assert_eq!((report.sent, report.accepted, report.completed), (1, 1, 0));
    assert_eq!(
        ledger.payout("later-1").await.unwrap().unwrap().state,
        PayoutState::Accepted
    );

    let report = dispatcher.run_until_idle(|_| {}).await.unwrap();
    assert_eq!((report.sent, report.completed), (0, 1));
    let history = ledger.history("later-1").await.unwrap();
    let states: Vec<_> = history.iter().map(|e| e.to).collect();
    use PayoutState::*;
    assert_eq!(states, [Recorded, Sending, Accepted, Completed]);
    // Three reads said PROCESSING: waits of 100, 200 and
    // 400 ms came between acceptance and completion.
    let waited = history[3].at.duration_since(history[2].at).unwrap();
    assert!(waited >= Duration::from_millis(700), "{waited:?}");
}
