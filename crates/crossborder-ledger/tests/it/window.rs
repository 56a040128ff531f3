//! A dispatcher's window: payouts claimed ahead of its free sending slots
//! are durably `sending` before any is sent, and whatever of them was left
//! (a crash, a wait too long in the queue) is read by its session id
//! before it is sent; a claim takes what was left in flight before what
//! is new.

use crate::support;

use std::time::Duration;

use crossborder::Currency;
use crossborder_ledger::{DispatchOptions, Ledger, PayoutState};
use crossborder_testkit::{sdk_client, TestSandbox};
use support::{assert_paid_once, batch, execute, late_proxy, TempDir};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crash_after_a_windows_claim_resends_nothing_unread() {
    let dir = TempDir::new("window-crash");
    let sandbox = TestSandbox::start().await;
    let client = sandbox.client(TestSandbox::KEY);
    let opening = client.wallet().balance(Currency::Ngn).await.unwrap().amount;
    let url = dir.sqlite("payouts.db");
    let ledger = Ledger::open(&url).await.unwrap();
    let records = ledger.record_batch("window", &batch(40)).await.unwrap();

    // Three in flight, forty claimed: the answers never come back.
    let slow = late_proxy(sandbox.base_url(), Duration::from_secs(30), 0).await;
    let ahead = ledger
        .dispatcher(
            sdk_client(&slow, TestSandbox::KEY).unwrap(),
            DispatchOptions::new("ahead").concurrency(3).window(40),
        )
        .await
        .unwrap();
    let reached = {
        let run = ahead.send_pending(|_| {});
        tokio::pin!(run);
        let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
        loop {
            tokio::select! {
                ended = &mut run => panic!("the run ended: {ended:?}"),
                () = tokio::time::sleep(Duration::from_millis(20)) => {}
            }
            let mut reached = Vec::new();
            for record in &records {
                if client.payouts().get(&record.session_id).await.is_ok() {
                    reached.push(record.session_id.clone());
                }
            }
            if reached.len() == 3 {
                break reached;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "three sends never reached the sandbox: {reached:?}"
            );
        }
        // The run is dropped here: the process that ran it is gone.
    };
    drop(ahead);
    // Every payout of the window was made `sending` by the claim, before
    // any send; three reached the service.
    for record in &records {
        let now = ledger.payout(&record.session_id).await.unwrap().unwrap();
        assert_eq!(now.state, PayoutState::Sending, "{}", record.session_id);
    }

    let next = ledger
        .dispatcher(
            sdk_client(sandbox.base_url(), TestSandbox::KEY).unwrap(),
            DispatchOptions::new("next").concurrency(8).window(100),
        )
        .await
        .unwrap();
    let report = next.send_pending(|_| {}).await.unwrap();
    // The three made are found by reading, the 37 others read (not found)
    // and sent: none is paid twice.
    assert_eq!(
        (report.resolved_by_reading, report.sent, report.accepted),
        (3, 37, 40),
        "{report:?}"
    );
    for session_id in &reached {
        let history = ledger.history(session_id).await.unwrap();
        assert!(
            history
                .iter()
                .any(|e| e.detail.as_deref() == Some("found by reading its session id")),
            "{history:?}"
        );
    }
    assert_paid_once(&sandbox, &ledger, opening, &records).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_payout_that_waited_a_tenth_of_its_lease_in_the_window_is_read_before_it_is_sent() {
    let dir = TempDir::new("window-lease");
    let sandbox = TestSandbox::start().await;
    let client = sandbox.client(TestSandbox::KEY);
    let opening = client.wallet().balance(Currency::Ngn).await.unwrap().amount;
    let ledger = Ledger::open(&dir.sqlite("payouts.db")).await.unwrap();
    let records = ledger.record_batch("window", &batch(3)).await.unwrap();
    // One at a time, each send answered after 150 ms: the payouts behind
    // the first wait longer than a tenth of their 1 s lease.
    let slow = late_proxy(sandbox.base_url(), Duration::from_millis(150), 0).await;
    let dispatcher = ledger
        .dispatcher(
            sdk_client(&slow, TestSandbox::KEY).unwrap(),
            DispatchOptions::new("queue")
                .concurrency(1)
                .window(3)
                .lease(Duration::from_secs(1)),
        )
        .await
        .unwrap();
    // Followed until settled: the first, sent with no read-back, gets its
    // transaction id from its first read.
    let report = dispatcher.run_until_idle(|_| {}).await.unwrap();
    assert_eq!((report.sent, report.accepted), (3, 3), "{report:?}");
    let details: Vec<Vec<String>> = {
        let mut all = Vec::new();
        for record in &records {
            let history = ledger.history(&record.session_id).await.unwrap();
            all.push(
                history
                    .iter()
                    .map(|e| format!("{} {}", e.to, e.detail.as_deref().unwrap_or("")))
                    .collect(),
            );
        }
        all
    };
    // The first was sent at once, with no read; the others, left in the
    // queue, were claimed again once their lease ran out and sent through
    // `create_or_get`, which reads first.
    assert_eq!(
        details[0][1..],
        [
            "sending claimed by queue".to_owned(),
            "accepted accepted: Payout initiated successfully".to_owned(),
            "completed the service reports it COMPLETED".to_owned()
        ],
        "{details:?}"
    );
    for later in &details[1..] {
        assert_eq!(later[1], "sending claimed by queue");
        assert!(
            later[2].starts_with("accepted accepted as transaction "),
            "{details:?}"
        );
    }
    assert_paid_once(&sandbox, &ledger, opening, &records).await;
}

/// The newest of three payouts left `sending` (a crash before its send
/// was recorded): one slot, and the claim puts it first, so it is resolved
/// (read, not found, sent) before the two still `recorded` are sent.
#[tokio::test]
async fn a_claim_takes_a_payout_left_in_flight_before_new_ones() {
    let dir = TempDir::new("window-order");
    let sandbox = TestSandbox::start().await;
    let url = dir.sqlite("payouts.db");
    let ledger = Ledger::open(&url).await.unwrap();
    let records = ledger.record_batch("order", &batch(3)).await.unwrap();
    let left = records[2].session_id.clone();
    execute(
        &url,
        &format!("UPDATE payouts SET state = 'sending' WHERE session_id = '{left}'"),
    )
    .await;
    let mut accepted = Vec::new();
    ledger
        .dispatcher(
            sandbox.client(TestSandbox::KEY),
            DispatchOptions::new("order").concurrency(1),
        )
        .await
        .unwrap()
        .send_pending(|p| {
            if p.state == PayoutState::Accepted {
                accepted.push(p.session_id.clone());
            }
        })
        .await
        .unwrap();
    let sent: Vec<String> = records.iter().map(|r| r.session_id.clone()).collect();
    assert_eq!(accepted, [left, sent[0].clone(), sent[1].clone()]);
}
