//! Production's worst day, rehearsed (#38, "Done when"): 500 payouts
//! through the durable ledger (`payout --ledger … --wait`, the real binary)
//! and 200 collections through the SDK's webhook receiver and reconciler,
//! against a sandbox under `--faults standard --fault-seed SEED`. Every kind
//! of fault is injected at least once (read from the control API's state);
//! every payout is paid once, every collection's final state is recorded
//! once, no webhook is acted on twice, and every wallet is exact to the
//! minor unit. The same seed twice gives the same fault list.
//!
//! The payouts are one business's, the collections another's, so each
//! meets its own faults. The collections' business also meets
//! `write_applied_held` (which `standard` leaves at 0, since each costs a
//! client its whole timeout): its SDK client gives up after 2 s, where the
//! CLI's would wait 30 s.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use crossborder::types::{CollectionRequest, TransactionStatus};
use crossborder::webhook::{dedupe_key, Delivery, Receiver, Reconciler, Source, Verdict};
use crossborder::{dec, Client, Currency, Decimal, Error, Outcome, RetryPolicy, WaitOptions};
use crossborder_sandbox::faults::{FaultConfig, FaultKind};
use crossborder_sandbox::{ApiKeySpec, Clock, SandboxConfig, SandboxHandle};
use crossborder_testkit::{fixtures, injected_faults, sdk_client_with, LocalServer};
use serde_json::{json, Value};

use crate::{bare, run, sandbox_with, Live, KEY};

/// The seed of the run: every kind of fault is met under it.
const SEED: u64 = 38;
/// The payouts' business: [`KEY`]. The collections' business:
const COLLECT_KEY: &str = "test_cli_collect_r8Tn42Vx6Hq1";
/// The key of `crossborder sandbox` in the seed test: the sandbox prints
/// its keys at start, so it is not [`KEY`], which no output may contain.
const BINARY_KEY: &str = "test_cli_faults_p5Wd83Kj1Zs7";

const NGN_PAYOUTS: usize = 350;
const USD_PAYOUTS: usize = 150;
const COLLECTIONS: usize = 200;

/// The wallets every business starts with (the sandbox's defaults).
const OPENING_NGN: Decimal = dec!(5_000_000);
const OPENING_USD: Decimal = dec!(10_000);

/// A sandbox clock that runs 50 times faster than the wall clock, from
/// now: a payout settling late (60 s on the sandbox's clock) settles in a
/// little over a second, and a quote still lives 6 s.
fn fast_clock() -> Clock {
    let clock = Clock::manual(SystemTime::now());
    let ticking = clock.clone();
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_millis(20));
        loop {
            tick.tick().await;
            ticking.advance(Duration::from_secs(1));
        }
    });
    clock
}

/// `amount * 0.5 %`, rounded half away from zero to the cent: the
/// sandbox's fee on a USD payout.
fn usd_fee(amount: Decimal) -> Decimal {
    // In cents, `amount * 0.5`; half away from zero is `floor(x + 0.5)`
    // for a positive x.
    (amount * dec!(0.5) + dec!(0.5)).floor() / dec!(100)
}

/// The batch: NGN payouts of distinct exact amounts, then converting USD
/// payouts to NGN without a rateKey (the ledger quotes each just before
/// sending it, so `quote_lapsed_early` meets them).
fn batch() -> Vec<Value> {
    let mut payouts = Vec::with_capacity(NGN_PAYOUTS + USD_PAYOUTS);
    for i in 0..NGN_PAYOUTS {
        let amount = format!("{}.{:02}", 100 + i, i % 100);
        payouts.push(fixtures::ngn_payout_json(
            &format!("chaos-ngn-{i}"),
            &amount,
        ));
    }
    for i in 0..USD_PAYOUTS {
        let amount = Decimal::new(1_000 + 37 * i as i64, 2).to_string();
        let mut payout = fixtures::converting_payout_json("NGN", &amount);
        payout["sessionId"] = json!(format!("chaos-usd-{i}"));
        payouts.push(payout);
    }
    payouts
}

/// One run of the ledger over the batch, and what it left.
struct PayoutsRun {
    code: i32,
    stderr: String,
    /// `ledger list --json`.
    records: Vec<Value>,
}

async fn pay_through_the_ledger(base_url: String, dir: &tempfile::TempDir) -> PayoutsRun {
    let file = dir.path().join("batch.json");
    std::fs::write(&file, Value::Array(batch()).to_string()).unwrap();
    let ledger = dir.path().join("payouts.db");
    let mut pay = bare();
    pay.args([
        "--api-key",
        KEY,
        "--base-url",
        &base_url,
        "payout",
        "--body",
    ])
    .arg(&file)
    .arg("--ledger")
    .arg(&ledger)
    .args(["--wait", "--give-up-after", "60"]);
    let out = run(pay).await;
    let mut list = bare();
    list.env_remove("CROSSBORDER_LEDGER")
        .args(["ledger", "list", "--json", "--ledger"])
        .arg(&ledger);
    let listed = run(list).await;
    PayoutsRun {
        code: out.code,
        stderr: out.stderr,
        records: listed.ok_json().as_array().cloned().unwrap_or_default(),
    }
}

/// What the collections' side saw.
#[derive(Default)]
struct Collected {
    /// The dedupe key of each confirmed change handed to the handler.
    acted: Vec<String>,
    /// `(reference, status)` of each confirmed change handed over.
    changes: Vec<(String, String)>,
    superseded: usize,
    unconfirmed: usize,
}

/// Opens collection `reference`: sent again while no answer says it was
/// made, and read back when an answer was lost.
async fn open_collection(client: &Client, reference: &str, amount: Decimal) {
    let request = CollectionRequest::new(reference, amount, Currency::Ngn, Currency::Ngn);
    for _ in 0..30 {
        let error = match client.collections().create(&request).await {
            Ok(created) => {
                assert_eq!(created.amount, amount, "{reference}");
                return;
            }
            Err(error) => error,
        };
        if error.outcome() == Outcome::NotApplied && error.status() != Some(409) {
            continue;
        }
        // May have been applied (or already was): the read says.
        match client.collections().get(reference).await {
            Ok(found) => {
                assert_eq!(found.amount, amount, "{reference}");
                return;
            }
            Err(Error::Api { status: 404, .. }) | Err(_) => continue,
        }
    }
    panic!("collection {reference}: not opened in 30 attempts");
}

/// 200 collections of the second business, each paid in full (every
/// other one in two parts, so that a status follows another and events
/// can be reordered), their events taken by the SDK's receiver and their
/// final states by its reconciler.
async fn collect(sandbox: &SandboxHandle) -> (BTreeMap<String, Decimal>, Collected) {
    let client = sdk_client_with(
        sandbox.base_url(),
        COLLECT_KEY,
        Duration::from_secs(2),
        RetryPolicy::default()
            .max_attempts(4)
            .base_delay(Duration::from_millis(10))
            .max_delay(Duration::from_millis(1_500)),
    )
    .unwrap();
    let mut reconciler = Reconciler::new(client.clone())
        .grace(Duration::from_secs(8))
        .polling(
            WaitOptions::default()
                .timeout(Duration::from_secs(60))
                .initial_interval(Duration::from_millis(200))
                .max_interval(Duration::from_secs(1)),
        );
    let notifier = reconciler.notifier();
    let seen: Arc<Mutex<Collected>> = Arc::default();
    let record = Arc::clone(&seen);
    let route = Receiver::new(client.clone()).route(move |delivery: Delivery| {
        notifier.notify_delivery(&delivery);
        let record = Arc::clone(&record);
        async move {
            let mut seen = record.lock().unwrap();
            match delivery.verdict {
                Verdict::Confirmed(confirmed) => {
                    seen.acted.push(dedupe_key(&confirmed.transaction));
                    seen.changes.push((
                        confirmed.transaction.payment_reference.clone(),
                        confirmed.transaction.status.as_str().to_owned(),
                    ));
                }
                Verdict::Superseded(_) => seen.superseded += 1,
                Verdict::Unconfirmed(_) => seen.unconfirmed += 1,
            }
        }
    });
    let receiver = LocalServer::start(axum::Router::new().route("/hooks/crossborder", route)).await;
    let hook = receiver.url("/hooks/crossborder");
    // A PUT of the same URL: safe to send again after any fault.
    let mut attempts = 0;
    while client.webhooks().set_url(&hook).await.is_err() {
        attempts += 1;
        assert!(attempts < 30, "the webhook URL is never set");
    }

    let mut amounts = BTreeMap::new();
    for i in 0..COLLECTIONS {
        let reference = format!("chaos-order-{i:03}");
        let amount = Decimal::new(100_000 + 731 * i as i64, 2);
        open_collection(&client, &reference, amount).await;
        amounts.insert(reference, amount);
    }
    // Each grace period starts now, as the payer starts paying.
    for reference in amounts.keys() {
        reconciler.watch(reference.clone());
    }
    // The payer pays: through the control API, which meets no request
    // fault, while the events meet theirs.
    for (i, (reference, amount)) in amounts.iter().enumerate() {
        if i % 2 == 1 {
            let part = (amount / Decimal::from(3)).round_dp(2);
            sandbox
                .fund_collection(COLLECT_KEY, reference, Some(part))
                .unwrap();
        }
        sandbox
            .fund_collection(COLLECT_KEY, reference, None)
            .unwrap();
    }

    let mut finals: BTreeMap<String, Decimal> = BTreeMap::new();
    let mut by_source: BTreeMap<String, usize> = BTreeMap::new();
    while let Some(done) = tokio::time::timeout(Duration::from_secs(120), reconciler.next())
        .await
        .expect("the reconciler settles every collection within 120 s")
    {
        let settled = done
            .result
            .unwrap_or_else(|error| panic!("{}: {error}", done.reference));
        assert_eq!(
            settled.status,
            TransactionStatus::Completed,
            "{}",
            done.reference
        );
        let source = match done.source {
            Source::Event => "event",
            Source::Polling => "polling",
        };
        *by_source.entry(source.to_owned()).or_default() += 1;
        let previous = finals.insert(
            done.reference.clone(),
            settled.paid_amount.unwrap_or_default(),
        );
        assert!(
            previous.is_none(),
            "{}: a final state recorded twice",
            done.reference
        );
    }
    println!("collections settled, by source: {by_source:?}");
    // The events still under way (delayed, reordered) arrive before the
    // receiver stops.
    tokio::time::sleep(Duration::from_secs(6)).await;
    let collected = std::mem::take(&mut *seen.lock().unwrap());
    drop(receiver);
    assert_eq!(finals.len(), COLLECTIONS);
    for (reference, paid) in &finals {
        assert_eq!(paid, &amounts[reference], "{reference}");
    }
    (amounts, collected)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn payouts_and_collections_under_standard_faults_are_each_settled_once() {
    let sandbox = sandbox_with(
        SandboxConfig::default()
            .with_clock(fast_clock())
            .with_key(ApiKeySpec::new(COLLECT_KEY).unwrap())
            .with_faults(FaultConfig::standard(SEED)),
    )
    .await;
    sandbox
        .set_faults(
            COLLECT_KEY,
            FaultConfig::standard(SEED)
                .with_rate(FaultKind::WriteAppliedHeld, Decimal::new(2, 2))
                .unwrap(),
        )
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let base_url = sandbox.base_url().to_owned();
    let ((amounts, collected), paid) =
        tokio::join!(collect(&sandbox), pay_through_the_ledger(base_url, &dir));

    // Every kind of fault was injected, as the control API lists them.
    let mut met: BTreeMap<FaultKind, usize> = BTreeMap::new();
    for key in [KEY, COLLECT_KEY] {
        for fault in injected_faults(&sandbox, key) {
            *met.entry(fault.kind).or_default() += 1;
        }
    }
    println!("faults injected: {met:?}");
    for kind in FaultKind::ALL {
        assert!(met.contains_key(&kind), "{kind}: never injected ({met:?})");
    }

    // Payouts: each in the ledger and in the sandbox once, final, with its
    // amount; the wallets down by what completed, to the minor unit.
    let state = sandbox.state(KEY).unwrap();
    let held: BTreeMap<&str, (&str, Decimal)> = state
        .payouts
        .iter()
        .map(|payout| {
            (
                payout.session_id.as_str(),
                (payout.status.as_str(), payout.amount),
            )
        })
        .collect();
    assert_eq!(
        state.payouts.len(),
        NGN_PAYOUTS + USD_PAYOUTS,
        "a payout made twice or not at all"
    );
    assert_eq!(
        held.len(),
        NGN_PAYOUTS + USD_PAYOUTS,
        "a sessionId paid twice"
    );
    assert_eq!(paid.records.len(), NGN_PAYOUTS + USD_PAYOUTS);
    let (mut ngn_paid, mut usd_paid, mut failed) = (Decimal::ZERO, Decimal::ZERO, 0);
    for (record, payout) in paid.records.iter().zip(batch()) {
        let session = record["sessionId"].as_str().unwrap();
        assert_eq!(Some(session), payout["sessionId"].as_str());
        let amount: Decimal = payout["amount"].as_str().unwrap().parse().unwrap();
        assert_eq!(record["amount"], payout["amount"], "{record}");
        let (status, held_amount) = held[session];
        assert_eq!(held_amount, amount, "{session}");
        match (record["state"].as_str().unwrap(), status) {
            ("completed", "COMPLETED") => {
                if payout["fromCurrency"] == "USD" {
                    usd_paid += amount + usd_fee(amount);
                } else {
                    ngn_paid += amount;
                }
            }
            ("failed", "FAILED") => failed += 1,
            (ours, theirs) => panic!("{session}: the ledger says {ours}, the sandbox {theirs}"),
        }
    }
    let failed_by_fault = injected_faults(&sandbox, KEY)
        .iter()
        .filter(|fault| fault.kind == FaultKind::PayoutFailed)
        .count();
    assert_eq!(failed, failed_by_fault);
    let line = format!(
        "{failed} of {} payouts did not go through",
        NGN_PAYOUTS + USD_PAYOUTS
    );
    // Some failed (`payout_failed` was met): the command says how many.
    assert!(failed > 0);
    assert_eq!(paid.code, 1, "{}", paid.stderr);
    assert!(paid.stderr.contains(&line), "{line:?}?\n{}", paid.stderr);
    let balance = |key: &str, currency: &str| {
        sandbox
            .state(key)
            .unwrap()
            .balances
            .iter()
            .find(|balance| balance.currency == currency)
            .map(|balance| balance.amount)
            .unwrap()
    };
    assert_eq!(balance(KEY, "NGN"), OPENING_NGN - ngn_paid);
    assert_eq!(balance(KEY, "USD"), OPENING_USD - usd_paid);

    // Collections: no webhook acted on twice, each change confirmed once,
    // and the wallet up by every collection, to the kobo.
    let unique: BTreeSet<&String> = collected.acted.iter().collect();
    assert_eq!(
        unique.len(),
        collected.acted.len(),
        "a webhook acted on twice"
    );
    let changes: BTreeSet<&(String, String)> = collected.changes.iter().collect();
    assert_eq!(
        changes.len(),
        collected.changes.len(),
        "a change handled twice"
    );
    assert!(
        collected.acted.len() > COLLECTIONS / 2,
        "{}",
        collected.acted.len()
    );
    // Partial payments' events arriving after the collection completed
    // (and reordered ones) were superseded, not acted on.
    assert!(collected.superseded > 0);
    println!(
        "webhooks acted on: {}, superseded: {}, unconfirmed: {}",
        collected.acted.len(),
        collected.superseded,
        collected.unconfirmed
    );
    let collected_total: Decimal = amounts.values().copied().sum();
    assert_eq!(balance(COLLECT_KEY, "NGN"), OPENING_NGN + collected_total);
}

/// `crossborder sandbox --faults standard --fault-seed SEED` on a free
/// port, its base URL and its console URL.
fn faulty_sandbox() -> (Live, String, String) {
    let seed = SEED.to_string();
    let mut live = Live::start(&[
        "sandbox",
        "--port",
        "0",
        "--key",
        BINARY_KEY,
        "--faults",
        "standard",
        "--fault-seed",
        &seed,
    ]);
    let url = Live::url_in(&live.line("listening"));
    let console = Live::url_in(&live.line("console"));
    live.until("faults", |line| {
        line == format!("Faults: standard (--fault-seed {SEED})")
    });
    (live, url, console)
}

/// The same requests, one at a time, against the binary under the seed:
/// the fault list its control API gives, `(kind, target, applied)`.
async fn fault_list_of_a_run() -> Vec<(String, String, String)> {
    let (live, url, console) = faulty_sandbox();
    let client = sdk_client_with(
        &url,
        BINARY_KEY,
        Duration::from_secs(10),
        RetryPolicy::none(),
    )
    .unwrap();
    for i in 0..80 {
        let _ = client.wallet().balance(Currency::Ngn).await;
        let payout = fixtures::ngn_bank_payout(Decimal::new(10_000, 2), &format!("seeded-{i}"));
        let _ = client.payouts().create(&payout).await;
    }
    let state: Value = reqwest::Client::new()
        .get(format!("{}/_sandbox/state", console.trim_end_matches('/')))
        .header("x-api-key", BINARY_KEY)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    live.kill();
    state["faults"]
        .as_array()
        .unwrap()
        .iter()
        .map(|fault| {
            let text = |name: &str| fault[name].as_str().unwrap().to_owned();
            (text("kind"), text("target"), text("applied"))
        })
        .collect()
}

#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_seed_twice_gives_the_binary_the_same_fault_list() {
    let first = fault_list_of_a_run().await;
    let second = fault_list_of_a_run().await;
    assert!(first.len() > 10, "{first:?}");
    assert_eq!(first, second);
}
