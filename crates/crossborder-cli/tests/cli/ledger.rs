//! `payout --body FILE --ledger DB` and `ledger list|show|resume`: a batch
//! killed with SIGKILL (or stopped by SIGINT) at seeded moments and run
//! again pays each payout once; a file changed after it was recorded is
//! refused naming what differs; CSV and JSON batches; a missing ledger.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use assert_cmd::Command;
use crossborder::{dec, Currency, Decimal};
use crossborder_ledger::{Ledger, PayoutState};
use crossborder_sandbox::{SandboxConfig, SandboxHandle};
use crossborder_testkit::{client_for, fixtures};
use serde_json::{json, Value};

use crate::{at, bare, ngn_payout, postgres_ledger, run, sandbox, sandbox_with, Live, Run, KEY};

/// How long the converting tests' sandbox honours a quote.
const QUOTE_TTL: Duration = Duration::from_secs(2);

/// The NGN wallet a sandbox starts with.
const OPENING_NGN: Decimal = dec!(5_000_000);

/// One test's sandbox, its temporary directory and the ledger file there.
pub(crate) struct Case {
    pub(crate) sandbox: SandboxHandle,
    pub(crate) dir: tempfile::TempDir,
    /// The ledger: a SQLite file here, or a PostgreSQL URL.
    pub(crate) ledger: PathBuf,
}

impl Case {
    pub(crate) async fn new() -> Case {
        Case::on(sandbox().await)
    }

    /// A case whose sandbox (on the real clock) honours a quote for
    /// [`QUOTE_TTL`].
    async fn quoting() -> Case {
        Case::on(sandbox_with(SandboxConfig::default().with_quote_ttl(QUOTE_TTL)).await)
    }

    fn on(sandbox: SandboxHandle) -> Case {
        let dir = tempfile::tempdir().unwrap();
        Case {
            sandbox,
            ledger: dir.path().join("payouts.db"),
            dir,
        }
    }

    /// How much the USD wallet has paid out since `opening`.
    async fn usd_paid_out(&self, opening: Decimal) -> Decimal {
        let client = client_for(&self.sandbox, KEY).unwrap();
        opening - client.wallet().balance(Currency::Usd).await.unwrap().amount
    }

    /// The USD wallet now.
    async fn usd(&self) -> Decimal {
        let client = client_for(&self.sandbox, KEY).unwrap();
        client.wallet().balance(Currency::Usd).await.unwrap().amount
    }

    /// Checks the end of a converting payroll: every payout accepted or
    /// completed (none refused), in the sandbox once under its session id,
    /// sent with the last quote its history records as used (recorded
    /// before its acceptance); the sum of what each debited.
    async fn assert_quoted_and_paid_once(&self, ledger: &Ledger, rows: usize) -> Decimal {
        let records = ledger.payouts().await.unwrap();
        assert_eq!(records.len(), rows);
        let client = client_for(&self.sandbox, KEY).unwrap();
        let mut debited = Decimal::ZERO;
        for record in &records {
            let history = ledger.history(&record.session_id).await.unwrap();
            assert!(
                matches!(record.state, PayoutState::Accepted | PayoutState::Completed),
                "{record:?}: {history:?}"
            );
            let held = client.payouts().get(&record.session_id).await.unwrap();
            let used: Vec<usize> = (0..history.len())
                .filter(|&i| history[i].quote.as_ref().is_some_and(|q| q.used))
                .collect();
            let last = *used.last().expect("quoted");
            let quote = history[last].quote.as_ref().unwrap();
            assert_eq!(held.rate_key.as_deref(), Some(quote.rate_key.as_str()));
            assert_eq!(Some(held.total_amount), quote.total_amount);
            let accepted = history
                .iter()
                .position(|e| e.to == PayoutState::Accepted)
                .unwrap();
            assert!(last < accepted, "{history:?}");
            debited += held.total_amount;
        }
        debited
    }

    /// Writes `contents` to the file `name`; its path.
    fn file(&self, name: &str, contents: &str) -> PathBuf {
        let path = self.dir.path().join(name);
        std::fs::write(&path, contents).unwrap();
        path
    }

    /// Writes `payouts` as the JSON file `name`; its path.
    pub(crate) fn batch_file(&self, name: &str, payouts: &[Value]) -> PathBuf {
        self.file(name, &Value::Array(payouts.to_vec()).to_string())
    }

    /// `payout --body FILE --ledger DB` against the sandbox, as arguments.
    pub(crate) fn pay_args<'a>(&'a self, base_url: &'a str, file: &'a Path) -> Vec<&'a str> {
        let path = |p: &'a Path| p.to_str().unwrap();
        vec![
            "--api-key",
            KEY,
            "--base-url",
            base_url,
            "payout",
            "--body",
            path(file),
            "--ledger",
            path(&self.ledger),
        ]
    }

    /// `payout --body FILE --ledger DB` against the sandbox.
    pub(crate) fn pay(&self, file: &Path) -> Command {
        let mut command = bare();
        command.args(self.pay_args(self.sandbox.base_url(), file));
        command
    }

    /// `ledger ARGS --ledger DB` (no API needed), run to its end.
    pub(crate) async fn ledger(&self, args: &[&str]) -> Run {
        let mut command = bare();
        command
            .env_remove("CROSSBORDER_LEDGER")
            .arg("ledger")
            .args(args)
            .arg("--ledger")
            .arg(&self.ledger);
        run(command).await
    }

    /// `ledger list --json`, parsed.
    pub(crate) async fn listed(&self) -> Vec<Value> {
        let out = self.ledger(&["list", "--json"]).await;
        out.ok_json().as_array().cloned().unwrap_or_default()
    }

    /// The state of every payout of the ledger, in order.
    async fn states(&self) -> Vec<Value> {
        self.listed()
            .await
            .iter()
            .map(|r| r["state"].clone())
            .collect()
    }

    /// How much the NGN wallet has paid out.
    pub(crate) async fn paid_out(&self) -> Decimal {
        let client = client_for(&self.sandbox, KEY).unwrap();
        OPENING_NGN - client.wallet().balance(Currency::Ngn).await.unwrap().amount
    }

    /// Checks the end of a batch of `payouts`: every payout accepted or
    /// completed in the ledger with its exact amount and its session id
    /// (the one given, or one given once), each in the sandbox, and the
    /// wallet down by the batch's total to the kobo. The session ids.
    pub(crate) async fn assert_paid_once(&self, payouts: &[Value]) -> Vec<String> {
        let listed = self.listed().await;
        assert_eq!(listed.len(), payouts.len(), "{listed:?}");
        let client = client_for(&self.sandbox, KEY).unwrap();
        let mut sessions = Vec::new();
        for (record, payout) in listed.iter().zip(payouts) {
            let state = record["state"].as_str().unwrap();
            assert!(["accepted", "completed"].contains(&state), "{record}");
            assert_eq!(record["amount"], payout["amount"], "{record}");
            assert_eq!(
                (&record["fromCurrency"], &record["toCurrency"]),
                (&json!("NGN"), &json!("NGN"))
            );
            let session = record["sessionId"].as_str().unwrap().to_owned();
            if let Some(given) = payout.get("sessionId") {
                assert_eq!(given, &json!(session));
            }
            let paid = client.payouts().get(&session).await.unwrap();
            assert_eq!(
                Some(paid.amount),
                record["amount"].as_str().and_then(|a| a.parse().ok())
            );
            sessions.push(session);
        }
        let mut unique = sessions.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), payouts.len(), "a session id given twice");
        let total: Decimal = payouts
            .iter()
            .map(|p| p["amount"].as_str().unwrap().parse::<Decimal>().unwrap())
            .sum();
        assert_eq!(self.paid_out().await, total);
        sessions
    }
}

/// `(item[a], item[b])` of each item of a JSON array.
fn pairs(items: &Value, a: &str, b: &str) -> Vec<(Value, Value)> {
    let items = items.as_array().map(Vec::as_slice).unwrap_or_default();
    items
        .iter()
        .map(|item| (item[a].clone(), item[b].clone()))
        .collect()
}

/// A batch of `count` NGN payouts with distinct exact amounts; every third
/// has no sessionId (the ledger gives it one when first recorded).
pub(crate) fn batch(prefix: &str, count: usize) -> Vec<Value> {
    (0..count)
        .map(|i| {
            let mut payout = ngn_payout(&format!("{prefix}-{i}"));
            payout["amount"] = json!(format!("{}.{:02}", 100 + i, i % 100));
            if i % 3 == 2 {
                payout.as_object_mut().unwrap().remove("sessionId");
            }
            payout
        })
        .collect()
}

/// A payroll of `count` converting payouts from USD without a rateKey
/// column (to NGN, KES, GBP and USDT in turn, 10.00 USD and 0.37 more each
/// time) as CSV; every fifth row has no sessionId.
fn payroll_csv(prefix: &str, count: usize) -> String {
    const COLUMNS: [&str; 13] = [
        "amount",
        "fromCurrency",
        "toCurrency",
        "sessionId",
        "narration",
        "accountNumber",
        "accountName",
        "bankName",
        "bankCode",
        "sortCode",
        "swiftCode",
        "address",
        "toNetwork",
    ];
    let mut text = COLUMNS.join(",");
    text.push('\n');
    for i in 0..count {
        let to = fixtures::CONVERTING_TO[i % fixtures::CONVERTING_TO.len()];
        let amount = Decimal::new(1_000 + 37 * i as i64, 2).to_string();
        let mut row = fixtures::converting_payout_json(to, &amount);
        if i % 5 != 4 {
            row["sessionId"] = json!(format!("{prefix}-{i}"));
        }
        let cells: Vec<&str> = COLUMNS
            .iter()
            .map(|c| row.get(*c).and_then(Value::as_str).unwrap_or(""))
            .collect();
        text.push_str(&cells.join(","));
        text.push('\n');
    }
    text
}

/// A small, replayable pseudo-random sequence (splitmix64): when the runs
/// are stopped.
struct Moments(u64);

impl Moments {
    /// The seed: `CROSSBORDER_KILL_SEED` replays a run.
    fn seeded() -> Moments {
        let seed = std::env::var("CROSSBORDER_KILL_SEED")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| {
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(7, |d| d.as_nanos() as u64)
            });
        println!("stop moments seed {seed} (replay: CROSSBORDER_KILL_SEED={seed})");
        Moments(seed)
    }

    fn next(&mut self, below: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (z ^ (z >> 31)) % below
    }
}

/// How many payouts of `ledger` have moved on from `recorded`, and each
/// state with how many are in it.
async fn progress(ledger: &Ledger) -> (usize, BTreeMap<String, usize>) {
    let mut tally = BTreeMap::new();
    let mut moved = 0;
    for record in ledger.payouts().await.unwrap() {
        moved += usize::from(record.state != PayoutState::Recorded);
        *tally.entry(record.state.to_string()).or_default() += 1;
    }
    (moved, tally)
}

const INTERRUPTED: &str = "error: interrupted\n  nothing is lost: run the same command again \
                           (or `crossborder ledger resume`) to finish\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_killed_and_run_again_pays_each_payout_once() {
    let case = Case::new().await;
    let payouts = batch("kill", 200);
    let file = case.batch_file("batch.json", &payouts);
    // The test reads the ledger while the command runs (SQLite in WAL
    // mode: readers never block the writer).
    let watch = Ledger::open(case.ledger.to_str().unwrap()).await.unwrap();

    // Each run is stopped once a seeded number of further payouts (0: at
    // once, before or while the batch is recorded) has moved on.
    let mut moments = Moments::seeded();
    let mut stopped_mid_batch = 0;
    for round in 0..8 {
        let further = moments.next(25) as usize;
        let gentle = moments.next(3) == 0;
        let before = progress(&watch).await.0;
        let mut live = Live::start(&case.pay_args(case.sandbox.base_url(), &file));
        while live.running() && progress(&watch).await.0 < before + further {
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        let stopped = tokio::task::spawn_blocking(move || {
            // A run that finished the batch already cannot be sent SIGINT.
            if gentle && live.running() {
                live.interrupt()
            } else {
                live.kill()
            }
        })
        .await
        .unwrap();
        let (_, tally) = progress(&watch).await;
        println!(
            "round {round}: {} after {further} more, exit {}; {tally:?}",
            if gentle { "SIGINT" } else { "SIGKILL" },
            stopped.code
        );
        if tally.get("recorded").is_some_and(|&n| n > 0) && before + further > 0 {
            stopped_mid_batch += 1;
        }
        if gentle && stopped.code == 130 {
            assert_eq!(stopped.stderr, INTERRUPTED);
        }
    }
    assert!(stopped_mid_batch > 0, "no run was stopped mid-batch");

    let out = run(case.pay(&file)).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    let sessions = case.assert_paid_once(&payouts).await;
    // The table: each element by its index, with its session id and state.
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines.len(), payouts.len());
    assert!(lines[0].starts_with("[0] kill-0"), "{}", out.stdout);
    assert!(lines[2].starts_with(&format!("[2] {}", sessions[2])));
    assert!(lines[199].ends_with("299.99 NGN -> NGN"), "{}", lines[199]);

    // Once more, after the end: nothing is sent.
    assert_eq!(run(case.pay(&file)).await.code, 0);
    assert_eq!(case.assert_paid_once(&payouts).await, sessions);
}

/// The converting payroll of the crash test: 100 rows without rateKey,
/// killed with SIGKILL at seeded moments 10 times with pauses longer than
/// a quote lives, then run to the end; then the same file, uninterrupted,
/// against a fresh sandbox: the same USD debit.
async fn converting_payroll_killed(case: &Case, watch: &Ledger) {
    const ROWS: usize = 100;
    let file = case.file("payroll.csv", &payroll_csv("payroll", ROWS));
    let opening = case.usd().await;
    let mut moments = Moments::seeded();
    let (mut kills, mut rounds) = (0, 0);
    while kills < 10 {
        rounds += 1;
        assert!(rounds < 40, "the runs kept finishing before a kill");
        let further = moments.next(6) as usize;
        let before = progress(watch).await.0;
        let mut live = Live::start(&case.pay_args(case.sandbox.base_url(), &file));
        while live.running() && progress(watch).await.0 < before + further {
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        let (killed, stopped) = tokio::task::spawn_blocking(move || {
            let running = live.running();
            (running, live.kill())
        })
        .await
        .unwrap();
        kills += usize::from(killed);
        println!(
            "round {rounds}: {} after {further} more, exit {}; {:?}",
            if killed { "SIGKILL" } else { "finished" },
            stopped.code,
            progress(watch).await.1
        );
        // Every quote recorded before the kill expires before the restart.
        tokio::time::sleep(QUOTE_TTL + Duration::from_millis(300)).await;
    }
    let out = run(case.pay(&file)).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    let debited = case.assert_quoted_and_paid_once(watch, ROWS).await;
    assert_eq!(case.usd_paid_out(opening).await, debited);

    let fresh = Case::quoting().await;
    let file = fresh.file("payroll.csv", &payroll_csv("payroll", ROWS));
    let fresh_opening = fresh.usd().await;
    let out = run(fresh.pay(&file)).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        fresh.usd_paid_out(fresh_opening).await,
        debited,
        "the killed runs debit exactly what one uninterrupted run does"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_converting_payroll_killed_ten_times_is_quoted_at_send_time_and_paid_once() {
    let case = Case::quoting().await;
    Ledger::open(case.ledger.to_str().unwrap()).await.unwrap();
    let watch = Ledger::open(case.ledger.to_str().unwrap()).await.unwrap();
    converting_payroll_killed(&case, &watch).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL"]
async fn a_converting_payroll_killed_ten_times_on_postgres_is_paid_once() {
    let Some((_server, ledger)) =
        postgres_ledger("a_converting_payroll_on_postgres", "cli_payroll")
    else {
        return;
    };
    let mut case = Case::quoting().await;
    case.ledger = ledger;
    let watch = Ledger::open(case.ledger.to_str().unwrap()).await.unwrap();
    converting_payroll_killed(&case, &watch).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_converting_row_is_checked_without_its_quote_shown_with_it_and_held_by_the_rate_guard() {
    let case = Case::quoting().await;
    let mut text = payroll_csv("one", 2);
    // --dry-run: everything but the quote; the broken bank code is named,
    // the missing rateKey is not.
    let broken = text.replacen(",058,", ",5,", 1);
    let file = case.file("broken.csv", &broken);
    let mut dry = at(case.sandbox.base_url());
    dry.args(["payout", "--dry-run", "--body"]).arg(&file);
    let out = run(dry).await;
    assert_eq!(
        (out.code, out.stdout.as_str()),
        (
            2,
            "[0] invalid\n[0]   bankCode: must be 2 to 6 digits, a bank code from the NGN bank \
             list such as 058\n[1] valid\n"
        )
    );

    let file = case.file("payroll.csv", &text);
    let opening = case.usd().await;
    let out = run(case.pay(&file)).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    let watch = Ledger::open(case.ledger.to_str().unwrap()).await.unwrap();
    let debited = case.assert_quoted_and_paid_once(&watch, 2).await;
    assert_eq!(case.usd_paid_out(opening).await, debited);
    // `ledger show`: the quote it was sent with.
    let out = case.ledger(&["show", "one-0"]).await;
    let quote = out
        .stdout
        .lines()
        .find(|l| l.starts_with("quote "))
        .unwrap_or_else(|| panic!("{}", out.stdout))
        .to_owned();
    let shown = case.ledger(&["show", "one-0", "--json"]).await.ok_json();
    let used = &shown["history"][1]["quote"];
    assert_eq!(shown["history"][1]["to"], "sending");
    assert_eq!(
        quote,
        format!(
            "quote      rate 1530.25 (rateKey {}, totalAmount 10.05 USD, valid until {})",
            used["rateKey"].as_str().unwrap(),
            used["validUntil"].as_str().unwrap()
        )
    );
    assert_eq!(shown["payout"]["reason"], Value::Null);

    // The rate guard: 1,600 NGN a dollar is never quoted; after --rate-wait
    // the payout ends refused, with its reason's code.
    text = payroll_csv("guarded", 1);
    let file = case.file("guarded.csv", &text);
    let mut command = case.pay(&file);
    command.args(["--worst-rate", "1600", "--rate-wait", "1"]);
    let out = run(command).await;
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        out.stderr.starts_with(
            "error: 1 of 1 payouts did not go through\n  [0] guarded-0 refused: rate guard: no \
             quote at 1600 or better by "
        ),
        "{}",
        out.stderr
    );
    let listed = case.listed().await;
    let guarded = listed
        .iter()
        .find(|r| r["sessionId"] == "guarded-0")
        .unwrap();
    assert_eq!(guarded["state"], "refused");
    assert_eq!(guarded["reason"]["code"], "rate_guard");
    assert_eq!(guarded["reason"]["worstRate"], "1600");
    assert_eq!(guarded["reason"]["lastRate"], "1530.25");
    let client = client_for(&case.sandbox, KEY).unwrap();
    assert!(client
        .payouts()
        .get("guarded-0")
        .await
        .unwrap_err()
        .is_not_found());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ctrl_c_while_sending_stops_cleanly_and_the_next_run_reads_back_first() {
    let case = Case::new().await;
    // An API that takes connections and never answers: the first payout
    // stays in flight until the run is stopped.
    let silent = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let silent_url = format!("http://{}/v1", silent.local_addr().unwrap());
    let holder = tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((connection, _)) = silent.accept().await {
            held.push(connection);
        }
    });
    let payouts = batch("ctrl-c", 2);
    let file = case.batch_file("batch.json", &payouts);

    // Created (and migrated) first, so the test can list it at once.
    Ledger::open(case.ledger.to_str().unwrap()).await.unwrap();
    let mut live = Live::start(&case.pay_args(&silent_url, &file));
    let deadline = tokio::time::Instant::now() + crate::LINE_WAIT;
    while !case.states().await.contains(&json!("sending")) {
        assert!(live.running(), "the run ended: {:?}", live.kill());
        let listed = case.listed().await;
        assert!(
            tokio::time::Instant::now() < deadline,
            "never sending: {listed:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    // While it lives, a second run on the same SQLite file may record (the
    // same batch) but not send.
    let out = run(case.pay(&file)).await;
    let busy = format!(
        "error: another dispatcher is running on {}-dispatcher.lock (a SQLite ledger has one \
         dispatcher at a time; stop it, or use PostgreSQL for several)\n",
        case.ledger.display()
    );
    assert_eq!((out.code, out.stderr), (1, busy));

    let stopped = tokio::task::spawn_blocking(move || live.interrupt())
        .await
        .unwrap();
    assert_eq!((stopped.code, stopped.stderr.as_str()), (130, INTERRUPTED));
    holder.abort();
    // Its payouts let go of: the next run starts at once.
    assert_eq!(crate::ledger_faults::leases_held(&case.ledger).await, 0);

    // The same command against the sandbox: the payout left in flight is
    // read first (the sandbox never got it), then sent, once.
    let out = run(case.pay(&file)).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    case.assert_paid_once(&payouts).await;
    let out = case.ledger(&["show", "ctrl-c-0", "--json"]).await;
    let changes = pairs(&out.json()["history"], "from", "to");
    assert_eq!(
        changes[..2],
        [
            (Value::Null, json!("recorded")),
            (json!("recorded"), json!("sending"))
        ]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_file_changed_after_it_was_recorded_is_refused_naming_the_elements() {
    let case = Case::new().await;
    let mut payouts = batch("changed", 4);
    let file = case.batch_file("batch.json", &payouts);
    assert_eq!(run(case.pay(&file)).await.code, 0);

    payouts[1]["amount"] = json!("101.02");
    payouts[3]["narration"] = json!("a second thought");
    case.batch_file("batch.json", &payouts);
    let out = run(case.pay(&file)).await;
    assert_eq!(out.code, 2);
    assert_eq!(
        out.stderr,
        format!(
            "error: {} has changed since it was recorded in the ledger: elements [1], [3] \
             differ; nothing was sent\n  put the file back as it was to finish that batch, \
             or save new payouts as a new file\n",
            file.display()
        )
    );
    assert_eq!(out.stdout, "");
    assert_eq!(case.paid_out().await, dec!(406.06));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn csv_and_json_batches_go_through_the_ledger_with_exact_amounts() {
    let case = Case::new().await;
    let csv = case.file(
        "march.csv",
        "amount,fromCurrency,toCurrency,sessionId,accountNumber,accountName,bankName,bankCode,narration\n\
         1234.56,NGN,NGN,csv-1,0123456789,ADAEZE OKAFOR,Guaranty Trust Bank,058,\"Rent, March\"\n\
         0.01,NGN,NGN,,0123456789,ADAEZE OKAFOR,Guaranty Trust Bank,058,\n",
    );
    // --dry-run reads CSV too (by --csv whatever the name); without a
    // ledger, nobody gives the second row a sessionId.
    let txt = case.file("march.txt", &std::fs::read_to_string(&csv).unwrap());
    let mut dry = at(case.sandbox.base_url());
    dry.args(["payout", "--dry-run", "--csv", "--body"])
        .arg(&txt);
    let out = run(dry).await;
    assert_eq!(
        (out.code, out.stdout.as_str()),
        (2, "[0] valid\n[1] invalid\n[1]   sessionId: is required\n")
    );

    let mut command = case.pay(&csv);
    command.args(["--json", "--wait"]);
    let out = run(command).await;
    let sent = out.ok_json();
    assert_eq!(
        (&sent[0]["index"], &sent[0]["amount"], &sent[1]["amount"]),
        (&json!(0), &json!("1234.56"), &json!("0.01"))
    );
    // --wait: followed until the service settled each.
    assert_eq!(
        pairs(&sent, "sessionId", "state")[0],
        (json!("csv-1"), json!("completed"))
    );
    let given = sent[1]["sessionId"].clone();

    // A JSON file is another batch.
    let april = case.batch_file("april.json", &[ngn_payout("json-1")]);
    let out = run(case.pay(&april)).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.starts_with("[0] json-1"), "{}", out.stdout);

    // A plain `payout` ignores CROSSBORDER_LEDGER: only --ledger records.
    let unused = case.dir.path().join("unused.db");
    let mut plain = at(case.sandbox.base_url());
    plain
        .env("CROSSBORDER_LEDGER", &unused)
        .args(["payout", "--body"])
        .arg(&april);
    assert_eq!(run(plain).await.code, 0);
    assert!(!unused.exists());

    let listed = Value::Array(case.listed().await);
    assert_eq!(
        pairs(&listed, "sessionId", "amount"),
        [
            (json!("csv-1"), json!("1234.56")),
            (given, json!("0.01")),
            (json!("json-1"), json!("2500.00"))
        ]
    );
    assert_eq!(case.paid_out().await, dec!(3734.57));

    // `ledger show`: the payout and its history, recorded first.
    let out = case.ledger(&["show", "csv-1", "--json"]).await;
    let shown = out.ok_json();
    assert_eq!(shown["payout"]["amount"], "1234.56");
    let changes = pairs(&shown["history"], "from", "to");
    assert_eq!(changes[0], (Value::Null, json!("recorded")));
    assert_eq!(changes.last().unwrap().1, "completed");
    let out = case.ledger(&["show", "no-such-payout"]).await;
    assert_eq!(
        (out.code, out.stderr.as_str()),
        (1, "error: the ledger has no payout no-such-payout\n")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_payout_does_not_stop_the_others_and_is_never_sent_again() {
    let case = Case::new().await;
    let mut too_much = ngn_payout("refused-b");
    too_much["amount"] = json!("6000000.00");
    let file = case.batch_file(
        "batch.json",
        &[ngn_payout("refused-a"), too_much, ngn_payout("refused-c")],
    );
    for _ in 0..2 {
        let out = run(case.pay(&file)).await;
        assert_eq!(out.code, 1, "{}", out.stderr);
        // The dispatcher sends several at once, so the balance the refusal
        // names depends on how many went before it.
        let refused = |available: &str| {
            format!(
                "error: 1 of 3 payouts did not go through\n  [1] refused-b refused: Insufficient \
                 balance: available {available} NGN, required 6000000.00 NGN\n"
            )
        };
        assert!(
            ["5000000.00", "4997500.00", "4995000.00"]
                .map(refused)
                .contains(&out.stderr),
            "{}",
            out.stderr
        );
    }
    assert_eq!(case.states().await[1], "refused");
    let refused = &case.listed().await[1];
    assert_eq!(
        (&refused["reason"]["code"], &refused["reason"]["status"]),
        (&json!("api_refused"), &json!(400))
    );
    assert_eq!(refused["reason"]["message"], refused["message"]);
    assert_eq!(case.paid_out().await, dec!(5000));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resume_sends_what_was_recorded_and_then_has_nothing_left() {
    let case = Case::new().await;
    let recorded = Ledger::open(case.ledger.to_str().unwrap()).await.unwrap();
    let items = [ngn_payout("resume-1"), ngn_payout("resume-2")];
    recorded.record_batch("elsewhere", &items).await.unwrap();
    drop(recorded);
    assert_eq!(case.states().await, ["recorded", "recorded"]);

    let resume = |extra: &'static [&'static str]| {
        let mut command = at(case.sandbox.base_url());
        command
            .env("CROSSBORDER_LEDGER", &case.ledger)
            .args(["ledger", "resume"])
            .args(extra);
        command
    };
    let out = run(resume(&["--json"])).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        pairs(&out.json(), "sessionId", "amount"),
        [
            (json!("resume-1"), json!("2500.00")),
            (json!("resume-2"), json!("2500.00"))
        ]
    );
    let out = run(resume(&[])).await;
    assert_eq!((out.code, out.stdout.as_str()), (0, "nothing left to do\n"));

    // The tables. Without --wait a run stops at accepted: a payout sent
    // for the first time is not read back (its settlement is --wait's).
    let out = case.ledger(&["list"]).await;
    assert_eq!(
        out.stdout,
        "resume-1  accepted  2500.00 NGN -> NGN\nresume-2  accepted  2500.00 NGN -> NGN\n"
    );
    let out = case.ledger(&["show", "resume-1"]).await;
    let shown: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(shown[..2], ["sessionId  resume-1", "state      accepted"]);
    // No transaction id yet (it comes with the first read), so no such row.
    assert_eq!(shown[2], "amount     2500.00 NGN -> NGN");
    assert!(!out.stdout.contains("transaction"), "{}", out.stdout);
    let history = shown.iter().position(|l| *l == "history").unwrap();
    assert!(
        shown[history + 1].ends_with("Z  recorded  (recorded as item 1 of batch elsewhere)"),
        "{}",
        out.stdout
    );
    assert!(
        shown[history + 2].contains("Z  recorded -> sending  (claimed by pid"),
        "{}",
        out.stdout
    );
    assert_eq!(case.paid_out().await, dec!(5000));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL"]
async fn a_postgres_ledger_works_the_same() {
    let Some((_server, ledger)) = postgres_ledger("a_postgres_ledger_works_the_same", "cli_ledger")
    else {
        return;
    };
    let mut case = Case::new().await;
    case.ledger = ledger;
    let payouts = batch("pg", 5);
    let file = case.batch_file("batch.json", &payouts);
    for _ in 0..2 {
        let out = run(case.pay(&file)).await;
        assert_eq!(out.code, 0, "{}", out.stderr);
    }
    case.assert_paid_once(&payouts).await;
}

#[test]
fn every_ledger_command_needs_a_ledger_and_a_batch_needs_a_file() {
    let no_ledger = "error: no ledger: pass --ledger PATH_OR_URL (a SQLite file such as \
                     payouts.db, or a postgres:// URL) or set CROSSBORDER_LEDGER\n";
    for args in [&["list"][..], &["show", "x"], &["resume"]] {
        let mut command = bare();
        command
            .env_remove("CROSSBORDER_LEDGER")
            .arg("ledger")
            .args(args);
        let out = crate::run_now(command);
        assert_eq!((out.code, out.stderr.as_str()), (2, no_ledger), "{args:?}");
    }
    // A ledger that does not exist is not created by reading it.
    let dir = tempfile::tempdir().unwrap();
    let typo = dir.path().join("payuots.db");
    let mut list = bare();
    list.args(["ledger", "list", "--ledger"]).arg(&typo);
    let out = crate::run_now(list);
    let missing = format!(
        "error: no ledger at {0}: `crossborder payout --body FILE --ledger {0}` creates it\n",
        typo.display()
    );
    assert_eq!((out.code, out.stderr), (2, missing));
    assert!(!typo.exists());

    let mut stdin = crate::with_stdin(bare(), &ngn_payout("stdin-1").to_string());
    stdin.args(["payout", "--body", "-", "--ledger", "never.db"]);
    let out = crate::run_now(stdin);
    assert_eq!(
        (out.code, out.stderr.as_str()),
        (
            2,
            "error: --ledger needs --body FILE: a run is recognised again by its file, \
             and stdin has none\n"
        )
    );
    assert!(!Path::new("never.db").exists());
}
