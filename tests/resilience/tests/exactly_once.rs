//! Exactly-once payouts through a faulty network (#13, item 2).
//!
//! 200 payouts of random amounts and 1,000 reads go, one operation at a
//! time, through the fault proxy, on a schedule drawn from one seed
//! (printed; `CROSSBORDER_FAULT_SEED` replays it). The connections are
//! refused, dropped before or after the request is passed on, held past the
//! client's timeout, or answered 502 or 503 by the proxy. The first attempts
//! of the payouts meet a fixed number of each fault, in a seeded order;
//! repeats and reads meet faults at random.
//!
//! Every payout ends confirmed, or with an error whose
//! [`Error::outcome`] says it was not applied, and the proxy confirms that
//! such a request never reached the sandbox. A payout whose outcome is
//! "may have been applied" is repeated with the same sessionId until it is
//! confirmed. Every read ends in success or a typed error. Afterwards the
//! sandbox holds every confirmed payout once with its amount, none of the
//! others, and the wallet balance is the opening balance minus the payouts
//! it holds, to the kobo; every balance read during the run said the same.
//!
//! The run ends by searching everything logged at `TRACE` and every error
//! met for the API key (#13, item 5).

use std::collections::{BTreeMap, BTreeSet};
use std::future::Future;
use std::time::{Duration, Instant};

use crossborder::{
    types::{PayoutRequest, TransactionStatus},
    Client, Currency, Decimal, Error, Outcome, RetryPolicy,
};
use crossborder_resilience_tests::capture::capture;
use crossborder_resilience_tests::fault_proxy::{Fault, FaultProxy};
use crossborder_resilience_tests::sandbox::{client, Env, KEY};
use crossborder_resilience_tests::seed::seed;

const PAYOUTS: usize = 200;
const READS: usize = 1_000;
/// Short, so that a held answer costs little; a request the loaded machine
/// makes slower than this is one more "may have been applied", which the
/// test handles like any other.
const CLIENT_TIMEOUT: Duration = Duration::from_millis(400);
/// Attempts of one payout before the test gives up on the network.
const MAX_ATTEMPTS: usize = 40;
/// A refusal that outlasts every attempt of the SDK's retry policy below
/// (two waits of at most 5 and 10 ms).
const LONG_REFUSAL: Duration = Duration::from_millis(60);
/// Far longer than a run takes (about 10 s), to fail rather than hang.
const HANG_GUARD: Duration = Duration::from_secs(300);

/// What happens to one operation.
#[derive(Debug, Clone, Default)]
struct Plan {
    /// The listener is closed for this long when the operation starts.
    refusal: Option<Duration>,
    /// The faults of its first connections.
    faults: Vec<Fault>,
}

impl Plan {
    fn fault(fault: Fault) -> Plan {
        Plan {
            refusal: None,
            faults: vec![fault],
        }
    }

    fn refusal(window: Duration) -> Plan {
        Plan {
            refusal: Some(window),
            faults: Vec::new(),
        }
    }
}

/// The plans of the payouts' first attempts: a fixed number of each fault,
/// so every kind is met whatever the seed, in a seeded order.
fn first_attempts(rng: &mut fastrand::Rng) -> Vec<Plan> {
    let mut plans = Vec::with_capacity(PAYOUTS);
    for (fault, count) in [
        (Fault::DropBeforeSend, 12),
        (Fault::DropAfterSend, 12),
        (Fault::Delay, 8),
        (Fault::BadGateway, 12),
        (Fault::Unavailable, 12),
    ] {
        plans.extend(std::iter::repeat_n(Plan::fault(fault), count));
    }
    plans.extend(std::iter::repeat_n(Plan::refusal(LONG_REFUSAL), 12));
    for _ in 0..12 {
        plans.push(Plan::refusal(short_refusal(rng)));
    }
    plans.resize(PAYOUTS, Plan::fault(Fault::Pass));
    rng.shuffle(&mut plans);
    plans
}

/// A refusal that may end before the SDK's last attempt.
fn short_refusal(rng: &mut fastrand::Rng) -> Duration {
    Duration::from_millis(rng.u64(0..=4))
}

/// A random plan for a repeat or a read: a refusal one time in 40, and a
/// fault on each of the first `connections` connections about one time in
/// seven (a held answer, which costs a client timeout, one time in 200).
fn random_plan(rng: &mut fastrand::Rng, connections: usize) -> Plan {
    let refusal = match rng.u32(0..80) {
        0 => Some(LONG_REFUSAL),
        1 => Some(short_refusal(rng)),
        _ => None,
    };
    let faults = (0..connections)
        .map(|_| match rng.u32(0..400) {
            0..=11 => Fault::DropBeforeSend,
            12..=23 => Fault::DropAfterSend,
            24..=25 => Fault::Delay,
            26..=43 => Fault::BadGateway,
            44..=61 => Fault::Unavailable,
            _ => Fault::Pass,
        })
        .collect();
    Plan { refusal, faults }
}

/// What the proxy saw of one operation.
#[derive(Debug, Clone, Copy)]
struct Seen {
    accepted: usize,
    passed_on: usize,
}

/// Runs operations one at a time through the proxy, each under its plan.
struct Runner {
    proxy: FaultProxy,
    operation: u64,
}

impl Runner {
    async fn run<T>(
        &mut self,
        plan: &Plan,
        call: impl Future<Output = crossborder::Result<T>>,
    ) -> (crossborder::Result<T>, Seen) {
        self.operation += 1;
        let operation = self.operation;
        self.proxy.begin(operation, plan.faults.iter().copied());
        let refusal = match plan.refusal {
            Some(window) => Some(self.proxy.refuse_for(window).await),
            None => None,
        };
        let result = call.await;
        if let Some(refusal) = refusal {
            refusal.reopened().await;
        }
        self.proxy.end();
        let seen = Seen {
            accepted: self.proxy.accepted(operation),
            passed_on: self.proxy.passed_on(operation),
        };
        (result, seen)
    }
}

/// A short name of an error's kind, for the tallies.
fn kind(error: &Error) -> String {
    match error {
        Error::Transport(inner) if inner.is_connect() => "connect error".into(),
        Error::Transport(_) => "transport error".into(),
        Error::Timeout(_) => "timeout".into(),
        Error::Decode {
            status: Some(status),
            ..
        } => format!("undecodable HTTP {status}"),
        Error::Api { status, .. } => format!("HTTP {status}"),
        other => format!("{other}"),
    }
}

/// An error the faults of the network explain: a failed connection, a
/// timeout, or a gateway's HTML page.
fn is_network_error(error: &Error) -> bool {
    matches!(
        error,
        Error::Transport(_)
            | Error::Timeout(_)
            | Error::Decode {
                status: Some(502 | 503),
                ..
            }
    )
}

fn payout(session_id: &str, amount: Decimal) -> PayoutRequest {
    crossborder_testkit::fixtures::ngn_bank_payout(amount, session_id)
}

#[derive(Debug, Default)]
struct Tally {
    confirmed: BTreeMap<String, Decimal>,
    not_applied: BTreeSet<String>,
    payout_attempts: usize,
    repeats: usize,
    /// "May have been applied" answers whose request the proxy had passed
    /// on, and those it had not: the SDK cannot tell them apart.
    uncertain_passed_on: usize,
    uncertain_not_passed_on: usize,
    payout_errors: BTreeMap<String, usize>,
    reads_ok: usize,
    read_errors: BTreeMap<String, usize>,
    balance_reads: usize,
    /// Reads of a payout not applied, or never sent, answered 404.
    unknown_not_found: usize,
}

impl Tally {
    fn paid(&self) -> Decimal {
        self.confirmed.values().copied().sum()
    }
}

/// The NGN balance `client` reads, with no fault in the way.
async fn ngn_balance(client: &Client) -> Decimal {
    match client.wallet().balance(Currency::Ngn).await {
        Ok(balance) => balance.amount,
        Err(error) => panic!("no NGN balance: {error}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn payouts_through_a_faulty_network_are_applied_exactly_once() {
    let capture = capture();
    let seed = seed("CROSSBORDER_FAULT_SEED");
    let mut rng = fastrand::Rng::with_seed(seed);
    let env = Env::start(&[KEY]).await;
    let checking = env.checking_client(KEY);
    let opening = ngn_balance(&checking).await;

    let proxy = FaultProxy::start(env.sandbox.local_addr()).await;
    let sdk = client(
        proxy.base_url(),
        KEY,
        CLIENT_TIMEOUT,
        RetryPolicy::default()
            .max_attempts(3)
            .base_delay(Duration::from_millis(5))
            .max_delay(Duration::from_millis(20)),
    );
    let mut runner = Runner {
        proxy,
        operation: 0,
    };

    // 200 payouts and 1,000 reads, interleaved in a seeded order.
    let mut first = first_attempts(&mut rng).into_iter();
    let mut order: Vec<bool> = std::iter::repeat_n(true, PAYOUTS)
        .chain(std::iter::repeat_n(false, READS))
        .collect();
    rng.shuffle(&mut order);
    let mut tally = Tally::default();
    let mut payouts = 0;
    let mut reads = 0;
    let deadline = Instant::now() + HANG_GUARD;
    for is_payout in order {
        assert!(
            Instant::now() < deadline,
            "the run is stuck: {payouts} payouts and {reads} reads in {HANG_GUARD:?}"
        );
        if is_payout {
            let session_id = format!("fault-{seed}-{payouts}");
            // 1.00 to 20,000.00 NGN: 200 of them stay below the opening
            // balance, so no payout is refused for want of money.
            let amount = Decimal::new(rng.i64(100..=2_000_000), 2);
            let plan = first.next().expect("a plan per payout");
            pay_once(
                &mut runner,
                &sdk,
                &mut rng,
                &mut tally,
                plan,
                &session_id,
                amount,
            )
            .await;
            payouts += 1;
        } else {
            read(&mut runner, &sdk, &mut rng, &mut tally, opening, reads).await;
            reads += 1;
        }
    }
    let injected = runner.proxy.injected();
    let refusals = runner.proxy.refusals();

    // The state the run left, read straight from the sandbox.
    for (session_id, amount) in &tally.confirmed {
        let held = checking.payouts().get(session_id).await.unwrap();
        assert_eq!(held.payment_reference, *session_id);
        assert_eq!(held.amount, *amount, "{session_id}");
        assert_eq!(held.total_amount, *amount, "{session_id}");
        assert_eq!(held.status, TransactionStatus::Completed, "{session_id}");
    }
    for session_id in &tally.not_applied {
        let error = checking.payouts().get(session_id).await.unwrap_err();
        capture.record_error(&error);
        assert!(
            matches!(error, Error::Api { status: 404, .. }),
            "{session_id} was reported not applied, but: {error:?}"
        );
    }
    assert_eq!(
        tally.confirmed.len() + tally.not_applied.len(),
        PAYOUTS,
        "every payout ends confirmed or not applied"
    );
    let closing = ngn_balance(&checking).await;
    let held_total = tally.paid();
    assert_eq!(
        closing,
        opening - held_total,
        "the wallet paid something other than the payouts it holds"
    );
    let accepted_payouts = env.answered("POST", "/v1/api/payout", 200);
    let replays = accepted_payouts - tally.confirmed.len();

    let logged = capture.log_text();
    let sdk_retries = logged
        .lines()
        .filter(|line| line.contains(": retrying"))
        .count();
    println!("faults injected, by connection:");
    for fault in Fault::ALL {
        println!("  {fault}: {}", injected.get(&fault).copied().unwrap_or(0));
    }
    println!("  listener closed (connections refused): {refusals}");
    println!(
        "payouts: {PAYOUTS} ({} confirmed, {} not applied and absent from the sandbox), {} attempts, {} repeats with the same sessionId",
        tally.confirmed.len(),
        tally.not_applied.len(),
        tally.payout_attempts,
        tally.repeats
    );
    println!(
        "  'may have been applied': {} had reached the sandbox, {} had not",
        tally.uncertain_passed_on, tally.uncertain_not_passed_on
    );
    println!("  payout errors: {:?}", tally.payout_errors);
    println!(
        "  the sandbox accepted {accepted_payouts} payout requests: {} payouts and {replays} repeats answered without paying again",
        tally.confirmed.len()
    );
    println!(
        "reads: {READS} ({} succeeded: {} balance reads exact, {} unknown payouts answered 404), errors: {:?}",
        tally.reads_ok, tally.balance_reads, tally.unknown_not_found, tally.read_errors
    );
    println!("SDK retries (logged): {sdk_retries}");
    println!(
        "duplicates found: 0 (balance {opening} - {held_total} held = {closing}, to the kobo)"
    );

    // Every kind of fault was met, and both sides of the uncertainty.
    for fault in Fault::ALL {
        assert!(
            injected.get(&fault).copied().unwrap_or(0) > 0,
            "{fault}: never injected"
        );
    }
    assert!(refusals >= 24, "{refusals} refusals");
    assert!(tally.uncertain_passed_on > 0 && tally.uncertain_not_passed_on > 0);
    assert!(
        replays > 0,
        "no repeat of an applied payout reached the sandbox"
    );
    assert!(sdk_retries > 0, "the SDK never retried");

    capture.assert_no_leak(&[KEY]);
}

/// Sends one payout until it is confirmed, or until an error says it was
/// not applied and no earlier attempt may have been.
#[allow(clippy::too_many_arguments)]
async fn pay_once(
    runner: &mut Runner,
    sdk: &Client,
    rng: &mut fastrand::Rng,
    tally: &mut Tally,
    first_plan: Plan,
    session_id: &str,
    amount: Decimal,
) {
    let capture = capture();
    let request = payout(session_id, amount);
    let mut plan = first_plan;
    let mut may_have_been_applied = false;
    for attempt in 1..=MAX_ATTEMPTS {
        if attempt > 1 {
            tally.repeats += 1;
            plan = random_plan(rng, 1);
        }
        tally.payout_attempts += 1;
        let (result, seen) = runner.run(&plan, sdk.payouts().create(&request)).await;
        let error = match result {
            Ok(receipt) => {
                assert_eq!(receipt.session_id, session_id);
                tally.confirmed.insert(session_id.to_owned(), amount);
                return;
            }
            Err(error) => error,
        };
        capture.record_error(&error);
        *tally.payout_errors.entry(kind(&error)).or_default() += 1;
        assert!(
            is_network_error(&error),
            "{session_id}: an error the network does not explain: {error:?}"
        );
        match error.outcome() {
            Outcome::NotApplied => {
                // The ground truth: no connection of this attempt reached
                // the proxy, so nothing reached the sandbox.
                assert_eq!(
                    (seen.accepted, seen.passed_on),
                    (0, 0),
                    "{session_id}: 'not applied', yet the proxy took it: {error:?}"
                );
                if !may_have_been_applied {
                    tally.not_applied.insert(session_id.to_owned());
                    return;
                }
                // An earlier attempt may have been applied: only a repeat
                // can tell.
            }
            Outcome::MayHaveBeenApplied => {
                may_have_been_applied = true;
                if seen.passed_on > 0 {
                    tally.uncertain_passed_on += 1;
                } else {
                    tally.uncertain_not_passed_on += 1;
                }
            }
            Outcome::Applied => panic!("{session_id}: 'applied' without a 2xx: {error:?}"),
        }
    }
    panic!("{session_id}: not settled in {MAX_ATTEMPTS} attempts");
}

/// One read, checked against what the test knows.
async fn read(
    runner: &mut Runner,
    sdk: &Client,
    rng: &mut fastrand::Rng,
    tally: &mut Tally,
    opening: Decimal,
    number: usize,
) {
    let capture = capture();
    let plan = random_plan(rng, 2);
    let kind_of_read = rng.u32(0..4);
    let failed = match kind_of_read {
        // The balance is exactly the opening balance minus the payouts
        // confirmed so far: no payout is ever in doubt between two
        // operations, and none is paid twice.
        0 => {
            let (result, _) = runner.run(&plan, sdk.wallet().balance(Currency::Ngn)).await;
            result
                .map(|balance| {
                    assert_eq!(balance.amount, opening - tally.paid(), "read {number}");
                    tally.balance_reads += 1;
                })
                .err()
        }
        1 if !tally.confirmed.is_empty() => {
            let index = rng.usize(0..tally.confirmed.len());
            let (session_id, amount) = tally.confirmed.iter().nth(index).expect("in range");
            let (result, _) = runner.run(&plan, sdk.payouts().get(session_id)).await;
            result
                .map(|held| {
                    assert_eq!(held.amount, *amount, "{session_id}");
                    assert_eq!(held.status, TransactionStatus::Completed, "{session_id}");
                })
                .err()
        }
        // A payout reported not applied, or one never sent, is unknown.
        2 | 1 => {
            let not_applied = tally.not_applied.len();
            let session_id = match tally.not_applied.iter().nth(rng.usize(0..=not_applied)) {
                Some(session_id) => session_id.clone(),
                None => format!("never-sent-{number}"),
            };
            let (result, _) = runner.run(&plan, sdk.payouts().get(&session_id)).await;
            match result {
                Ok(found) => panic!("{session_id} exists: {found:?}"),
                Err(error @ Error::Api { status: 404, .. }) => {
                    capture.record_error(&error);
                    tally.reads_ok += 1;
                    tally.unknown_not_found += 1;
                    return;
                }
                Err(error) => Some(error),
            }
        }
        _ => {
            let (result, _) = runner
                .run(&plan, sdk.banks().list(Currency::Ngn, Currency::Ngn))
                .await;
            result.map(|banks| assert!(!banks.is_empty())).err()
        }
    };
    match failed {
        None => tally.reads_ok += 1,
        Some(error) => {
            capture.record_error(&error);
            assert!(
                is_network_error(&error),
                "read {number}: an error the network does not explain: {error:?}"
            );
            *tally.read_errors.entry(kind(&error)).or_default() += 1;
        }
    }
}
