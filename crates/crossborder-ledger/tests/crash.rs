//! The crash test: 200 payouts dispatched by a child process that is
//! killed with SIGKILL at seeded random moments (a seeded number of state
//! changes into its run, and a seeded few milliseconds more), 20 times, and
//! restarted each time, against a sandbox in this process. At the end the
//! sandbox holds every payout once, the ledger says each is accepted or
//! completed, and the wallet is debited by exactly the payouts, to the kobo.
//!
//! The seed is printed; `LEDGER_CRASH_SEED=<seed>` replays a run.

mod support;

use std::os::unix::process::ExitStatusExt;
use std::time::Duration;

use crossborder::Currency;
use crossborder_ledger::Ledger;
use crossborder_testkit::TestSandbox;
use support::{
    assert_paid_once, finished, late_proxy, parent_postgres, run_child, spawn_dispatcher, Role,
    TempDir,
};

const PAYOUTS: usize = 200;
const KILLS: usize = 20;
/// Short, so a restarted PostgreSQL dispatcher soon takes over the payouts
/// the killed one held.
const LEASE: Duration = Duration::from_millis(400);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn killed_twenty_times_on_sqlite_every_payout_is_made_once() {
    if run_child().await {
        return;
    }
    let dir = TempDir::new("crash");
    crash(
        "killed_twenty_times_on_sqlite_every_payout_is_made_once",
        &dir.sqlite("payouts.db"),
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn killed_twenty_times_on_postgres_every_payout_is_made_once() {
    let Some(server) = parent_postgres("the PostgreSQL crash test").await else {
        return;
    };
    crash(
        "killed_twenty_times_on_postgres_every_payout_is_made_once",
        &server.create_database("crash").unwrap(),
    )
    .await;
}

async fn crash(test: &str, url: &str) {
    let seed = std::env::var("LEDGER_CRASH_SEED")
        .ok()
        .and_then(|seed| seed.parse().ok())
        .unwrap_or_else(|| fastrand::u64(..));
    println!("{test}: seed {seed} (replay with LEDGER_CRASH_SEED={seed})");
    let mut rng = fastrand::Rng::with_seed(seed);
    let sandbox = TestSandbox::start().await;
    let client = sandbox.client(TestSandbox::KEY);
    let opening = client.wallet().balance(Currency::Ngn).await.unwrap().amount;
    // Answers arrive 15 ms after the sandbox applied the request, so many
    // kills fall between a payout made and its answer recorded.
    let api = late_proxy(sandbox.base_url(), Duration::from_millis(15), 0).await;
    let role = Role {
        test,
        ledger: url,
        api: &api,
        id: "crash",
        lease: LEASE,
        record: PAYOUTS,
        kill_after: None,
    };
    let mut kills = 0;
    let mut runs = 0;
    while kills < KILLS {
        runs += 1;
        assert!(
            runs < 100,
            "the dispatcher kept finishing before it was killed"
        );
        // The moment: a seeded number of state changes into the run, and a
        // seeded few milliseconds more (mid-request, mid-transaction).
        let moment = (rng.usize(1..=12), rng.u64(0..15));
        let mut child = spawn_dispatcher(&Role {
            kill_after: Some(moment),
            ..role
        });
        let status = child.wait().unwrap();
        if status.signal() == Some(9) {
            kills += 1;
        } else {
            assert!(status.success(), "the dispatcher failed: {status}");
        }
    }
    let mut last = spawn_dispatcher(&role);
    finished(&mut last, Duration::from_secs(120)).await;

    let ledger = Ledger::open(url).await.unwrap();
    let records = ledger.payouts().await.unwrap();
    assert_eq!(
        records.len(),
        PAYOUTS,
        "every payout of the batch recorded once"
    );
    let positions: Vec<usize> = records
        .iter()
        .filter_map(|r| Some(r.batch.as_ref()?.1))
        .collect();
    assert_eq!(
        positions,
        (1..=PAYOUTS).collect::<Vec<_>>(),
        "each item recorded once, in order"
    );
    assert_paid_once(&sandbox, &ledger, opening, &records).await;
    let mut read_back = 0;
    for record in &records {
        let history = ledger.history(&record.session_id).await.unwrap();
        read_back += usize::from(
            history
                .iter()
                .any(|e| e.detail.as_deref() == Some("found by reading its session id")),
        );
    }
    println!(
        "{test}: {kills} kills in {runs} runs; {read_back} payouts found by reading after a kill"
    );
}
