//! The fleet test: dispatcher processes sharing one PostgreSQL database.
//!
//! 1. Four dispatchers, 1,000 payouts: none sent twice, none lost, every
//!    dispatcher sent some.
//! 2. A dispatcher killed while it holds payouts in flight: the others take
//!    them over once its lease has run out, reading each first.

use crate::support;

use std::collections::BTreeMap;
use std::time::Duration;

use crossborder::Currency;
use crossborder_ledger::{Ledger, PayoutState};
use crossborder_testkit::TestSandbox;
use support::{
    assert_paid_once, batch, finished, late_proxy, parent_postgres, spawn_dispatcher, Role,
};

const TEST: &str = "fleet::four_dispatchers_share_the_work_and_take_over_a_dead_ones_lease";
const LEASE: Duration = Duration::from_secs(1);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL"]
async fn four_dispatchers_share_the_work_and_take_over_a_dead_ones_lease() {
    let Some(server) = parent_postgres("the fleet test").await else {
        return;
    };
    let url = server.create_database("fleet").unwrap();
    let sandbox = TestSandbox::start().await;
    let opening = sandbox
        .client(TestSandbox::KEY)
        .wallet()
        .balance(Currency::Ngn)
        .await
        .unwrap()
        .amount;
    let ledger = Ledger::open(&url).await.unwrap();
    let role = |id: &'static str, api: &'static str| Role {
        test: TEST,
        ledger: &url,
        api,
        id,
        lease: LEASE,
        record: 0,
        kill_after: None,
        converting: false,
    };
    let direct: &'static str = Box::leak(sandbox.base_url().to_owned().into_boxed_str());

    // 1. Four at once, 1,000 payouts.
    let first = ledger.record_batch("fleet-1", &batch(1_000)).await.unwrap();
    let ids = ["fleet-a", "fleet-b", "fleet-c", "fleet-d"];
    let mut children: Vec<_> = ids
        .iter()
        .map(|id| spawn_dispatcher(&role(id, direct)))
        .collect();
    for child in &mut children {
        finished(child, Duration::from_secs(180)).await;
    }
    let mut senders: BTreeMap<String, usize> = BTreeMap::new();
    for record in &first {
        let history = ledger.history(&record.session_id).await.unwrap();
        let sends: Vec<_> = history
            .iter()
            .filter(|e| e.to == PayoutState::Sending)
            .collect();
        assert_eq!(
            sends.len(),
            1,
            "{} claimed once: {history:?}",
            record.session_id
        );
        assert!(
            history.iter().all(|e| e.to != PayoutState::Unknown),
            "{history:?}"
        );
        *senders
            .entry(sends[0].dispatcher.clone().unwrap())
            .or_default() += 1;
    }
    assert_eq!(
        senders.keys().collect::<Vec<_>>(),
        ids,
        "every dispatcher sent some: {senders:?}"
    );
    assert_eq!(senders.values().sum::<usize>(), 1_000);
    println!("payouts sent by each dispatcher: {senders:?}");

    // 2. One dies holding payouts whose answers are still on the way.
    let second = ledger.record_batch("fleet-2", &batch(200)).await.unwrap();
    let slow: &'static str = Box::leak(
        late_proxy(direct, Duration::from_secs(30), 0)
            .await
            .into_boxed_str(),
    );
    let mut victim = spawn_dispatcher(&role("fleet-victim", slow));
    let sending = || async {
        let records = ledger.payouts().await.unwrap().into_iter();
        records
            .filter(|r| r.state == PayoutState::Sending)
            .map(|r| r.session_id)
            .collect::<Vec<_>>()
    };
    // It claims as many payouts as its concurrency (4) and sends them; its
    // requests reach the sandbox at once, their answers never reach it.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    let held = loop {
        let held = sending().await;
        if held.len() == 4 {
            break held;
        }
        assert!(
            victim.try_wait().unwrap().is_none(),
            "the victim exited early"
        );
        assert!(
            tokio::time::Instant::now() < deadline,
            "the victim never held 4 payouts: {held:?}"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    };
    let client = sandbox.client(TestSandbox::KEY);
    for session_id in &held {
        while client.payouts().get(session_id).await.is_err() {
            assert!(
                tokio::time::Instant::now() < deadline,
                "{session_id} never reached the sandbox"
            );
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
    victim.kill().unwrap();
    victim.wait().unwrap();
    let mut others: Vec<_> = ids[..3]
        .iter()
        .map(|id| spawn_dispatcher(&role(id, direct)))
        .collect();
    for child in &mut others {
        finished(child, Duration::from_secs(120)).await;
    }
    for session_id in &held {
        let history = ledger.history(session_id).await.unwrap();
        let claimed = history
            .iter()
            .find(|e| e.to == PayoutState::Sending)
            .unwrap();
        assert_eq!(claimed.dispatcher.as_deref(), Some("fleet-victim"));
        let accepted = history
            .iter()
            .find(|e| e.to == PayoutState::Accepted)
            .unwrap();
        assert!(
            ids[..3].contains(&accepted.dispatcher.as_deref().unwrap()),
            "{history:?}"
        );
        // The sandbox had made it: it is read, not sent again.
        assert_eq!(
            accepted.detail.as_deref(),
            Some("found by reading its session id")
        );
        assert!(
            accepted.at.duration_since(claimed.at).unwrap() >= LEASE,
            "taken over only after the lease ran out (it starts with the claim's event): {history:?}"
        );
    }
    println!(
        "{} payouts held by the killed dispatcher, finished by the others",
        held.len()
    );
    let all: Vec<_> = first.into_iter().chain(second).collect();
    assert_paid_once(&sandbox, &ledger, opening, &all).await;
}
