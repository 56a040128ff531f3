//! Exactly-once payouts under production's failures (#13, item 2; #38).
//!
//! 200 payouts of random amounts and 1,000 reads go, one operation at a
//! time, to a sandbox under its fault modes, drawn from one seed (printed;
//! `CROSSBORDER_FAULT_SEED` replays it): writes are applied and their
//! answer lost (502, 504, the connection closed, the answer held past the
//! client's timeout) or refused before they are applied (503, 429, the
//! connection closed before the request is read), and reads fail the same
//! ways, each kind at a few percent. The one fault a running server cannot
//! make, a connection refused, comes from a forwarder in front of it whose
//! listener closes for a while: the first attempts of 24 payouts meet such
//! a refusal (half of them outlasting every attempt of the SDK), in a
//! seeded order, and repeats and reads meet one at random.
//!
//! Every payout ends confirmed, or with an error whose
//! [`Error::outcome`] says it was not applied, and the sandbox's request
//! log and fault list confirm that no such request was served. A payout
//! whose outcome is "may have been applied" is repeated with the same
//! sessionId until it is confirmed. Every read ends in success or a typed
//! error. Afterwards the sandbox holds every confirmed payout once with
//! its amount, none of the others, and the wallet balance is the opening
//! balance minus the payouts it holds, to the kobo; every balance read
//! during the run said the same.
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
use crossborder_resilience_tests::refusal::RefusingProxy;
use crossborder_resilience_tests::sandbox::{client, Env, KEY};
use crossborder_resilience_tests::seed::seed;
use crossborder_sandbox::faults::{FaultConfig, FaultKind};
use crossborder_testkit::injected_faults;

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

/// The sandbox's request faults this suite meets, each at 3 % of the
/// requests of its kind (a held answer, which costs a client timeout, at
/// 2 %); the payout and webhook kinds are the Done-when test's (the CLI's
/// `production_faults`).
const WRITE_KINDS: [FaultKind; 7] = [
    FaultKind::WriteApplied502,
    FaultKind::WriteApplied504,
    FaultKind::WriteAppliedClose,
    FaultKind::WriteAppliedHeld,
    FaultKind::WriteRefused503,
    FaultKind::WriteRefused429,
    FaultKind::WriteRefusedClose,
];
const READ_KINDS: [FaultKind; 4] = [
    FaultKind::Read502,
    FaultKind::Read503,
    FaultKind::Read429,
    FaultKind::ReadClose,
];

/// The seed of a run that sets no `CROSSBORDER_FAULT_SEED`.
const DEFAULT_SEED: u64 = 38;

fn faults(seed: u64) -> FaultConfig {
    let mut config = FaultConfig::off().with_seed(seed);
    for kind in WRITE_KINDS.iter().chain(&READ_KINDS) {
        let rate = if *kind == FaultKind::WriteAppliedHeld {
            Decimal::new(2, 2)
        } else {
            Decimal::new(3, 2)
        };
        config = config.with_rate(*kind, rate).expect("a valid rate");
    }
    config
}

/// Whether a request of kind `fault` (none: served as asked) reached the
/// handler that applies it.
fn served(fault: Option<FaultKind>) -> bool {
    matches!(
        fault,
        None | Some(
            FaultKind::WriteApplied502
                | FaultKind::WriteApplied504
                | FaultKind::WriteAppliedClose
                | FaultKind::WriteAppliedHeld
        )
    )
}

/// What happens to one operation beyond the sandbox's faults.
#[derive(Debug, Clone, Copy, Default)]
struct Plan {
    /// The listener is closed for this long when the operation starts.
    refusal: Option<Duration>,
}

/// The plans of the payouts' first attempts: 12 refusals outlasting the
/// SDK's retries and 12 short ones, in a seeded order.
fn first_attempts(rng: &mut fastrand::Rng) -> Vec<Plan> {
    let mut plans = Vec::with_capacity(PAYOUTS);
    plans.extend(std::iter::repeat_n(
        Plan {
            refusal: Some(LONG_REFUSAL),
        },
        12,
    ));
    for _ in 0..12 {
        plans.push(Plan {
            refusal: Some(short_refusal(rng)),
        });
    }
    plans.resize(PAYOUTS, Plan::default());
    rng.shuffle(&mut plans);
    plans
}

/// A refusal that may end before the SDK's last attempt.
fn short_refusal(rng: &mut fastrand::Rng) -> Duration {
    Duration::from_millis(rng.u64(0..=4))
}

/// A random plan for a repeat or a read: a refusal one time in 40.
fn random_plan(rng: &mut fastrand::Rng) -> Plan {
    let refusal = match rng.u32(0..80) {
        0 => Some(LONG_REFUSAL),
        1 => Some(short_refusal(rng)),
        _ => None,
    };
    Plan { refusal }
}

/// What the sandbox saw of one operation: the ground truth of whether it
/// could have been applied.
#[derive(Debug, Clone, Default)]
struct Seen {
    /// Requests that reached the sandbox (its request log).
    reached: usize,
    /// Of those, requests served by the handler that applies them: no
    /// fault, or one that loses the answer after applying.
    served: usize,
    /// The faults the sandbox injected, in order.
    faults: Vec<FaultKind>,
}

/// Runs operations one at a time through the forwarder, each under its
/// plan, and reads what the sandbox saw of each.
struct Runner<'a> {
    env: &'a Env,
    proxy: RefusingProxy,
    /// Request log lines and faults already attributed.
    lines: usize,
    faults: usize,
}

impl Runner<'_> {
    async fn run<T>(
        &mut self,
        plan: &Plan,
        call: impl Future<Output = crossborder::Result<T>>,
    ) -> (crossborder::Result<T>, Seen) {
        let refusal = match plan.refusal {
            Some(window) => Some(self.proxy.refuse_for(window).await),
            None => None,
        };
        let result = call.await;
        if let Some(refusal) = refusal {
            refusal.reopened().await;
        }
        (result, self.seen())
    }

    /// What the sandbox logged and injected since the last operation. A
    /// held answer is logged when its hold ends, long after: its fault,
    /// listed when it was injected, stands for it.
    fn seen(&mut self) -> Seen {
        let lines = self.env.lines_from(self.lines);
        self.lines += lines.len();
        let injected = injected_faults(&self.env.sandbox, KEY);
        let faults: Vec<FaultKind> = injected
            .get(self.faults..)
            .unwrap_or_default()
            .iter()
            .map(|fault| fault.kind)
            .collect();
        self.faults = injected.len();
        let held = faults
            .iter()
            .filter(|kind| **kind == FaultKind::WriteAppliedHeld)
            .count();
        let logged = lines
            .iter()
            .filter(|line| line.fault != Some(FaultKind::WriteAppliedHeld));
        let (reached, served_now) = logged.fold((0, 0), |(reached, served_now), line| {
            (reached + 1, served_now + usize::from(served(line.fault)))
        });
        Seen {
            reached: reached + held,
            served: served_now + held,
            faults,
        }
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
            | Error::Decode { .. }
            | Error::Api {
                status: 429 | 502 | 503 | 504,
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
    /// "May have been applied" answers whose request the sandbox had
    /// served, and those it had not: the SDK cannot tell them apart.
    uncertain_served: usize,
    uncertain_not_served: usize,
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
    // A fixed seed unless the variable names one: at rates of 2-3 % a
    // random seed leaves some kind unmet in about one run in thirty, and
    // the check below that every kind was met is the point of the test.
    let seed = match std::env::var_os("CROSSBORDER_FAULT_SEED") {
        Some(_) => seed("CROSSBORDER_FAULT_SEED"),
        None => {
            println!("seed {DEFAULT_SEED}; set CROSSBORDER_FAULT_SEED for another");
            DEFAULT_SEED
        }
    };
    let mut rng = fastrand::Rng::with_seed(seed);
    let env = Env::start(&[KEY]).await;
    let checking = env.checking_client(KEY);
    let opening = ngn_balance(&checking).await;
    // The faults start now (the checking client's reads meet none).
    env.sandbox.set_faults(KEY, faults(seed)).unwrap();

    let proxy = RefusingProxy::start(env.sandbox.local_addr()).await;
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
        env: &env,
        proxy,
        lines: env.answered_total(),
        faults: 0,
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
    let refusals = runner.proxy.refusals();
    // The fault list, as the control API gives it; then no more faults,
    // for reading the state the run left.
    let mut injected: BTreeMap<FaultKind, usize> = BTreeMap::new();
    // Payouts the sandbox accepted whose answer a fault then lost.
    let mut accepted_then_lost = 0;
    for fault in injected_faults(&env.sandbox, KEY) {
        *injected.entry(fault.kind).or_default() += 1;
        if fault.target.starts_with("POST /v1/api/payout")
            && fault.applied.starts_with("applied, answered 200")
        {
            accepted_then_lost += 1;
        }
    }
    env.sandbox.set_faults(KEY, FaultConfig::off()).unwrap();

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
    let accepted_payouts = env.answered("POST", "/v1/api/payout", 200) + accepted_then_lost;
    let replays = accepted_payouts - tally.confirmed.len();

    let logged = capture.log_text();
    let sdk_retries = logged
        .lines()
        .filter(|line| line.contains(": retrying"))
        .count();
    println!("faults injected by the sandbox:");
    for kind in WRITE_KINDS.iter().chain(&READ_KINDS) {
        println!("  {kind}: {}", injected.get(kind).copied().unwrap_or(0));
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
        "  'may have been applied': {} had been served by the sandbox, {} had not",
        tally.uncertain_served, tally.uncertain_not_served
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
    for kind in WRITE_KINDS.iter().chain(&READ_KINDS) {
        assert!(
            injected.get(kind).copied().unwrap_or(0) > 0,
            "{kind}: never injected"
        );
    }
    assert_eq!(
        injected.keys().copied().collect::<BTreeSet<_>>(),
        WRITE_KINDS.iter().chain(&READ_KINDS).copied().collect(),
        "a kind not asked for"
    );
    assert!(refusals >= 24, "{refusals} refusals");
    assert!(tally.uncertain_served > 0 && tally.uncertain_not_served > 0);
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
    runner: &mut Runner<'_>,
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
            plan = random_plan(rng);
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
                // The ground truth: no request of this attempt was served;
                // any that reached the sandbox was refused by a fault
                // before its handler (or the connection was refused).
                assert_eq!(
                    seen.served, 0,
                    "{session_id}: 'not applied', yet the sandbox served it: {error:?} {seen:?}"
                );
                assert!(
                    seen.faults.len() == seen.reached
                        && seen.faults.iter().all(|kind| matches!(
                            kind,
                            FaultKind::WriteRefused503
                                | FaultKind::WriteRefused429
                                | FaultKind::WriteRefusedClose
                        )),
                    "{session_id}: 'not applied', yet not refused: {error:?} {seen:?}"
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
                if seen.served > 0 {
                    tally.uncertain_served += 1;
                } else {
                    tally.uncertain_not_served += 1;
                }
            }
            Outcome::Applied => panic!("{session_id}: 'applied' without a 2xx: {error:?}"),
        }
    }
    panic!("{session_id}: not settled in {MAX_ATTEMPTS} attempts");
}

/// One read, checked against what the test knows.
async fn read(
    runner: &mut Runner<'_>,
    sdk: &Client,
    rng: &mut fastrand::Rng,
    tally: &mut Tally,
    opening: Decimal,
    number: usize,
) {
    let capture = capture();
    let plan = random_plan(rng);
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
