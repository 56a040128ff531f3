//! The crash test: 200 payouts dispatched by a child process that is
//! killed with SIGKILL at seeded random moments (a seeded number of state
//! changes into its run, and a seeded few milliseconds more), 20 times, and
//! restarted each time, against a sandbox in this process. At the end the
//! sandbox holds every payout once, the ledger says each is accepted or
//! completed, and the wallet is debited by exactly the payouts, to the kobo.
//!
//! The same with 100 converting payouts recorded without `rateKey` (USD to
//! NGN, KES, GBP and USDT) against a sandbox whose quotes live 2 s, killed
//! 10 times with pauses longer than that: each is sent once, with the last
//! quote its history records, and the USD wallet is debited exactly what
//! one uninterrupted run debits (the sandbox's own figures).
//!
//! The seed is printed; `LEDGER_CRASH_SEED=<seed>` replays a run.

use crate::support;

use std::os::unix::process::ExitStatusExt;
use std::time::Duration;

use crossborder::{Currency, Decimal};
use crossborder_ledger::Ledger;
use crossborder_sandbox::SandboxConfig;
use crossborder_testkit::{fixtures, TestSandbox};
use support::{
    assert_paid_once, assert_quoted_once_paid, converting_amount, finished, late_proxy,
    parent_postgres, run_child, spawn_dispatcher, Role, TempDir,
};

/// What a crash test sends and how often it kills.
#[derive(Clone, Copy)]
struct Plan {
    payouts: usize,
    kills: usize,
    /// Converting payouts without `rateKey` (quoted by the dispatcher), the
    /// sandbox's quotes living `QUOTE_TTL`, each restart after a longer
    /// pause.
    converting: bool,
}

const NGN: Plan = Plan {
    payouts: 200,
    kills: 20,
    converting: false,
};
const CONVERTING: Plan = Plan {
    payouts: 100,
    kills: 10,
    converting: true,
};
const QUOTE_TTL: Duration = Duration::from_secs(2);
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
        "crash::killed_twenty_times_on_sqlite_every_payout_is_made_once",
        &dir.sqlite("payouts.db"),
        NGN,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn converting_payouts_killed_ten_times_on_sqlite_are_each_quoted_and_made_once() {
    if run_child().await {
        return;
    }
    let dir = TempDir::new("crash-converting");
    crash(
        "crash::converting_payouts_killed_ten_times_on_sqlite_are_each_quoted_and_made_once",
        &dir.sqlite("payouts.db"),
        CONVERTING,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL"]
async fn converting_payouts_killed_ten_times_on_postgres_are_each_quoted_and_made_once() {
    let Some(server) = parent_postgres("the PostgreSQL converting crash test").await else {
        return;
    };
    crash(
        "crash::converting_payouts_killed_ten_times_on_postgres_are_each_quoted_and_made_once",
        &server.create_database("crash_converting").unwrap(),
        CONVERTING,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL"]
async fn killed_twenty_times_on_postgres_every_payout_is_made_once() {
    let Some(server) = parent_postgres("the PostgreSQL crash test").await else {
        return;
    };
    crash(
        "crash::killed_twenty_times_on_postgres_every_payout_is_made_once",
        &server.create_database("crash").unwrap(),
        NGN,
    )
    .await;
}

async fn crash(test: &str, url: &str, plan: Plan) {
    let seed = std::env::var("LEDGER_CRASH_SEED")
        .ok()
        .and_then(|seed| seed.parse().ok())
        .unwrap_or_else(|| fastrand::u64(..));
    println!("{test}: seed {seed} (replay with LEDGER_CRASH_SEED={seed})");
    let mut rng = fastrand::Rng::with_seed(seed);
    let sandbox = if plan.converting {
        TestSandbox::start_with(SandboxConfig::default().with_quote_ttl(QUOTE_TTL)).await
    } else {
        TestSandbox::start().await
    };
    let client = sandbox.client(TestSandbox::KEY);
    let wallet = if plan.converting {
        Currency::Usd
    } else {
        Currency::Ngn
    };
    let opening = client.wallet().balance(wallet).await.unwrap().amount;
    // Answers arrive 15 ms after the sandbox applied the request, so many
    // kills fall between a payout made and its answer recorded.
    let api = late_proxy(sandbox.base_url(), Duration::from_millis(15), 0).await;
    let role = Role {
        test,
        ledger: url,
        api: &api,
        id: "crash",
        lease: LEASE,
        record: plan.payouts,
        kill_after: None,
        converting: plan.converting,
    };
    let mut kills = 0;
    let mut runs = 0;
    while kills < plan.kills {
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
        if plan.converting {
            // Every quote recorded before the kill expires before the
            // restart, on the sandbox's clock and on this machine's.
            let pause = QUOTE_TTL + Duration::from_millis(300);
            sandbox.clock.advance(pause);
            tokio::time::sleep(pause).await;
        }
    }
    let mut last = spawn_dispatcher(&role);
    finished(&mut last, Duration::from_secs(120)).await;

    let ledger = Ledger::open(url).await.unwrap();
    let records = ledger.payouts().await.unwrap();
    assert_eq!(
        records.len(),
        plan.payouts,
        "every payout of the batch recorded once"
    );
    let positions: Vec<usize> = records
        .iter()
        .filter_map(|r| Some(r.batch.as_ref()?.1))
        .collect();
    assert_eq!(
        positions,
        (1..=plan.payouts).collect::<Vec<_>>(),
        "each item recorded once, in order"
    );
    if plan.converting {
        let (requoted, debited) = assert_quoted_once_paid(&sandbox, &ledger, &records).await;
        // What one uninterrupted run debits: each payout's amount and fee,
        // by the sandbox's own arithmetic.
        let uninterrupted: Decimal = (0..plan.payouts)
            .map(|i| {
                let to = fixtures::CONVERTING_TO[i % 4].parse::<Currency>().unwrap();
                crossborder_sandbox::rates::convert(converting_amount(i), Currency::Usd, to)
                    .unwrap()
                    .total_amount
            })
            .sum();
        assert_eq!(debited, uninterrupted);
        let balance = client.wallet().balance(Currency::Usd).await.unwrap().amount;
        assert_eq!(
            balance,
            opening - uninterrupted,
            "the USD wallet, to the cent"
        );
        println!("{test}: {kills} kills in {runs} runs; {requoted} payouts quoted again");
        return;
    }
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
