//! `payout --body FILE --ledger DB` and `ledger list|show|resume`: a batch
//! killed with SIGKILL (or stopped by SIGINT) at seeded moments and run
//! again pays each payout once; a file changed after it was recorded is
//! refused naming what differs; CSV and JSON batches; a missing ledger.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use crossborder::{dec, Currency, Decimal};
use crossborder_ledger::{Ledger, PayoutState};
use crossborder_testkit::client_for;
use serde_json::{json, Value};

use crate::{at, bare, ngn_payout, run, sandbox, Live, Run, KEY};

/// The NGN wallet a sandbox starts with.
const OPENING_NGN: Decimal = dec!(5_000_000);

/// `payout --body FILE --ledger DB` against `base_url`, as arguments.
fn pay_args<'a>(base_url: &'a str, file: &'a str, ledger: &'a str) -> Vec<&'a str> {
    vec![
        "--api-key",
        KEY,
        "--base-url",
        base_url,
        "payout",
        "--body",
        file,
        "--ledger",
        ledger,
    ]
}

/// `ledger ARGS --ledger DB` (no API needed), run to its end.
async fn ledger_command(ledger: &Path, args: &[&str]) -> Run {
    let mut command = bare();
    command
        .env_remove("CROSSBORDER_LEDGER")
        .arg("ledger")
        .args(args)
        .arg("--ledger")
        .arg(ledger);
    run(command).await
}

/// `ledger list --json`, parsed.
async fn listed(ledger: &Path) -> Vec<Value> {
    let out = ledger_command(ledger, &["list", "--json"]).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    out.json().as_array().cloned().unwrap_or_default()
}

/// A batch of `count` NGN payouts with distinct exact amounts; every third
/// has no sessionId (the ledger gives it one when first recorded).
fn batch(prefix: &str, count: usize) -> Vec<Value> {
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

async fn ngn_balance(sandbox: &crossborder_sandbox::SandboxHandle) -> Decimal {
    let client = client_for(sandbox, KEY).unwrap();
    client.wallet().balance(Currency::Ngn).await.unwrap().amount
}

fn total(batch: &[Value]) -> Decimal {
    batch
        .iter()
        .map(|p| p["amount"].as_str().unwrap().parse::<Decimal>().unwrap())
        .sum()
}

/// A small, replayable pseudo-random sequence (splitmix64): the moments the
/// runs are stopped at.
struct Moments(u64);

impl Moments {
    fn next(&mut self, below: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (z ^ (z >> 31)) % below
    }
}

/// The seed of the stop moments: `CROSSBORDER_KILL_SEED` replays a run.
fn seed() -> u64 {
    let seed = std::env::var("CROSSBORDER_KILL_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(7, |d| d.as_nanos() as u64)
        });
    println!("stop moments seed {seed} (replay: CROSSBORDER_KILL_SEED={seed})");
    seed
}

/// Checks the end state of a batch paid through `ledger` against the
/// sandbox: every payout accepted or completed in the ledger with its exact
/// amount, each once in the sandbox, and the wallet down by the batch's
/// total to the kobo.
async fn assert_paid_once(
    sandbox: &crossborder_sandbox::SandboxHandle,
    ledger: &Path,
    payouts: &[Value],
) -> Vec<String> {
    let listed = listed(ledger).await;
    assert_eq!(listed.len(), payouts.len(), "{listed:?}");
    let client = client_for(sandbox, KEY).unwrap();
    let mut sessions = Vec::new();
    for (record, payout) in listed.iter().zip(payouts) {
        assert!(
            ["accepted", "completed"].contains(&record["state"].as_str().unwrap()),
            "{record}"
        );
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
    assert_eq!(ngn_balance(sandbox).await, OPENING_NGN - total(payouts));
    sessions
}

/// How many payouts of `ledger` have moved on from `recorded`.
async fn moved(ledger: &Ledger) -> usize {
    let records = ledger.payouts().await.unwrap();
    records
        .iter()
        .filter(|r| r.state != PayoutState::Recorded)
        .count()
}

/// Each state of `ledger`'s payouts with how many are in it.
async fn tally(ledger: &Ledger) -> BTreeMap<String, usize> {
    let mut tally = BTreeMap::new();
    for record in ledger.payouts().await.unwrap() {
        *tally.entry(record.state.to_string()).or_default() += 1;
    }
    tally
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_killed_and_run_again_pays_each_payout_once() {
    let sandbox = sandbox().await;
    let dir = tempfile::tempdir().unwrap();
    let payouts = batch("kill", 200);
    let file = dir.path().join("batch.json");
    std::fs::write(&file, Value::Array(payouts.clone()).to_string()).unwrap();
    let ledger = dir.path().join("batch.db");
    let (file_arg, ledger_arg) = (file.to_str().unwrap(), ledger.to_str().unwrap());
    // The test reads the ledger while the command runs (SQLite in WAL
    // mode: readers never block the writer).
    let watch = Ledger::open(ledger_arg).await.unwrap();

    // Each run is stopped once a seeded number of further payouts (0: at
    // once, before or while the batch is recorded) has moved on.
    let mut moments = Moments(seed());
    let mut stopped_mid_batch = 0;
    for round in 0..8 {
        let further = moments.next(25) as usize;
        let gentle = moments.next(3) == 0;
        let before = moved(&watch).await;
        let mut live = Live::start(&pay_args(sandbox.base_url(), file_arg, ledger_arg));
        while live.running() && moved(&watch).await < before + further {
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        let stopped = tokio::task::spawn_blocking(move || {
            if gentle {
                live.interrupt()
            } else {
                live.kill()
            }
        })
        .await
        .unwrap();
        let tally = tally(&watch).await;
        println!(
            "round {round}: {} after {further} more, exit {}; {tally:?}",
            if gentle { "SIGINT" } else { "SIGKILL" },
            stopped.code
        );
        if tally.get("recorded").is_some_and(|&n| n > 0) && before + further > 0 {
            stopped_mid_batch += 1;
        }
        if gentle && stopped.code == 130 {
            assert_eq!(
                stopped.stderr,
                "error: interrupted\n  nothing is lost: run the same command again \
                 (or `crossborder ledger resume`) to finish\n"
            );
        }
    }
    assert!(stopped_mid_batch > 0, "no run was stopped mid-batch");

    let mut again = bare();
    again.args(pay_args(sandbox.base_url(), file_arg, ledger_arg));
    let out = run(again).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    let sessions = assert_paid_once(&sandbox, &ledger, &payouts).await;
    // The table: each element by its index, with its session id and state.
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines.len(), payouts.len());
    assert!(lines[0].starts_with("[0] kill-0"), "{}", out.stdout);
    assert!(lines[2].starts_with(&format!("[2] {}", sessions[2])));
    assert!(lines[199].ends_with("299.99 NGN -> NGN"), "{}", lines[199]);

    // Once more, after the end: nothing is sent.
    let mut after = bare();
    after.args(pay_args(sandbox.base_url(), file_arg, ledger_arg));
    assert_eq!(run(after).await.code, 0);
    assert_eq!(
        assert_paid_once(&sandbox, &ledger, &payouts).await,
        sessions
    );
}

/// The states of every payout in `ledger`, in order.
async fn states(ledger: &Path) -> Vec<Value> {
    listed(ledger)
        .await
        .iter()
        .map(|r| r["state"].clone())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ctrl_c_while_sending_stops_cleanly_and_the_next_run_reads_back_first() {
    let sandbox = sandbox().await;
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
    let dir = tempfile::tempdir().unwrap();
    let payouts = batch("ctrl-c", 2);
    let file = dir.path().join("batch.json");
    std::fs::write(&file, Value::Array(payouts.clone()).to_string()).unwrap();
    let ledger = dir.path().join("batch.db");
    let (file_arg, ledger_arg) = (file.to_str().unwrap(), ledger.to_str().unwrap());

    let live = Live::start(&pay_args(&silent_url, file_arg, ledger_arg));
    let deadline = tokio::time::Instant::now() + crate::LINE_WAIT;
    while !states(&ledger).await.contains(&json!("sending")) {
        assert!(tokio::time::Instant::now() < deadline, "never sending");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    // While it lives, a second run on the same SQLite file may record (the
    // same batch) but not send.
    let mut second = bare();
    second.args(pay_args(sandbox.base_url(), file_arg, ledger_arg));
    let out = run(second).await;
    assert_eq!(
        (out.code, out.stderr.as_str()),
        (
            1,
            format!(
                "error: another dispatcher is running on {}-dispatcher.lock (a SQLite ledger \
                 has one dispatcher at a time; stop it, or use PostgreSQL for several)\n",
                ledger.display()
            )
            .as_str()
        )
    );

    let stopped = tokio::task::spawn_blocking(move || live.interrupt())
        .await
        .unwrap();
    assert_eq!(
        (stopped.code, stopped.stderr.as_str()),
        (
            130,
            "error: interrupted\n  nothing is lost: run the same command again \
             (or `crossborder ledger resume`) to finish\n"
        )
    );
    holder.abort();

    // The same command against the sandbox: the payout left in flight is
    // read first (the sandbox never got it), then sent, once.
    let mut again = bare();
    again.args(pay_args(sandbox.base_url(), file_arg, ledger_arg));
    let out = run(again).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_paid_once(&sandbox, &ledger, &payouts).await;
    let out = ledger_command(&ledger, &["show", "ctrl-c-0", "--json"]).await;
    let changes: Vec<(Value, Value)> = out.json()["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["from"].clone(), e["to"].clone()))
        .collect();
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
    let sandbox = sandbox().await;
    let dir = tempfile::tempdir().unwrap();
    let mut payouts = batch("changed", 4);
    let file = dir.path().join("batch.json");
    std::fs::write(&file, Value::Array(payouts.clone()).to_string()).unwrap();
    let ledger = dir.path().join("batch.db");
    let args = pay_args(
        sandbox.base_url(),
        file.to_str().unwrap(),
        ledger.to_str().unwrap(),
    );
    let mut first = bare();
    first.args(&args);
    assert_eq!(run(first).await.code, 0);

    payouts[1]["amount"] = json!("101.02");
    payouts[3]["narration"] = json!("a second thought");
    std::fs::write(&file, Value::Array(payouts).to_string()).unwrap();
    let mut changed = bare();
    changed.args(&args);
    let out = run(changed).await;
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
    assert_eq!(ngn_balance(&sandbox).await, OPENING_NGN - dec!(406.06));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn csv_and_json_batches_go_through_the_ledger_with_exact_amounts() {
    let sandbox = sandbox().await;
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("payouts.db");
    let csv = dir.path().join("march.csv");
    std::fs::write(
        &csv,
        "amount,fromCurrency,toCurrency,sessionId,accountNumber,accountName,bankName,bankCode,narration\n\
         1234.56,NGN,NGN,csv-1,0123456789,ADAEZE OKAFOR,Guaranty Trust Bank,058,\"Rent, March\"\n\
         0.01,NGN,NGN,,0123456789,ADAEZE OKAFOR,Guaranty Trust Bank,058,\n",
    )
    .unwrap();
    let mut command = bare();
    command
        .args(pay_args(
            sandbox.base_url(),
            csv.to_str().unwrap(),
            ledger.to_str().unwrap(),
        ))
        .arg("--json");
    let out = run(command).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    let sent = out.json();
    assert_eq!(sent[0]["sessionId"], "csv-1");
    assert_eq!(
        (&sent[0]["index"], &sent[0]["amount"], &sent[1]["amount"]),
        (&json!(0), &json!("1234.56"), &json!("0.01"))
    );
    let given = sent[1]["sessionId"].as_str().unwrap().to_owned();

    // The same payouts as a JSON file with another name is another batch.
    let json_file = dir.path().join("april.json");
    let april = json!([ngn_payout("json-1")]);
    std::fs::write(&json_file, april.to_string()).unwrap();
    let mut command = bare();
    command.args(pay_args(
        sandbox.base_url(),
        json_file.to_str().unwrap(),
        ledger.to_str().unwrap(),
    ));
    let out = run(command).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.starts_with("[0] json-1"), "{}", out.stdout);

    // A plain `payout` ignores CROSSBORDER_LEDGER: only --ledger records.
    let unused = dir.path().join("unused.db");
    let mut plain = at(sandbox.base_url());
    plain
        .env("CROSSBORDER_LEDGER", &unused)
        .args(["payout", "--body"])
        .arg(&json_file);
    let out = run(plain).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(!unused.exists());

    let listed = listed(&ledger).await;
    let summary: Vec<(&str, &str)> = listed
        .iter()
        .map(|r| {
            (
                r["sessionId"].as_str().unwrap(),
                r["amount"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            ("csv-1", "1234.56"),
            (given.as_str(), "0.01"),
            ("json-1", "2500.00")
        ]
    );
    assert_eq!(ngn_balance(&sandbox).await, OPENING_NGN - dec!(3734.57));

    // `ledger show`: the payout and its history, recorded first.
    let out = ledger_command(&ledger, &["show", "csv-1", "--json"]).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    let shown = out.json();
    assert_eq!(shown["payout"]["amount"], "1234.56");
    let history = shown["history"].as_array().unwrap();
    assert_eq!(history[0]["to"], "recorded");
    assert_eq!(history[0]["from"], Value::Null);
    assert!(
        ["accepted", "completed"].contains(&history.last().unwrap()["to"].as_str().unwrap()),
        "{history:?}"
    );
    let out = ledger_command(&ledger, &["show", "no-such-payout"]).await;
    assert_eq!(
        (out.code, out.stderr.as_str()),
        (1, "error: the ledger has no payout no-such-payout\n")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_payout_does_not_stop_the_others_and_is_never_sent_again() {
    let sandbox = sandbox().await;
    let dir = tempfile::tempdir().unwrap();
    let mut too_much = ngn_payout("refused-b");
    too_much["amount"] = json!("6000000.00");
    let file = dir.path().join("batch.json");
    std::fs::write(
        &file,
        json!([ngn_payout("refused-a"), too_much, ngn_payout("refused-c")]).to_string(),
    )
    .unwrap();
    let ledger = dir.path().join("batch.db");
    let args = pay_args(
        sandbox.base_url(),
        file.to_str().unwrap(),
        ledger.to_str().unwrap(),
    );
    for _ in 0..2 {
        let mut command = bare();
        command.args(&args);
        let out = run(command).await;
        assert_eq!(out.code, 1, "{}", out.stderr);
        assert_eq!(
            out.stderr,
            "error: 1 of 3 payouts did not go through\n  refused-b refused: Insufficient \
             balance: available 4997500.00 NGN, required 6000000.00 NGN\n"
        );
    }
    assert_eq!(states(&ledger).await[1], "refused");
    assert_eq!(ngn_balance(&sandbox).await, OPENING_NGN - dec!(5000));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resume_sends_what_was_recorded_and_then_has_nothing_left() {
    let sandbox = sandbox().await;
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("resume.db");
    let recorded = Ledger::open(ledger.to_str().unwrap()).await.unwrap();
    recorded
        .record_batch(
            "recorded-elsewhere",
            &[ngn_payout("resume-1"), ngn_payout("resume-2")],
        )
        .await
        .unwrap();
    drop(recorded);
    assert_eq!(states(&ledger).await, ["recorded", "recorded"]);

    let resume = |extra: &'static [&'static str]| {
        let mut command = at(sandbox.base_url());
        command
            .env_remove("CROSSBORDER_LEDGER")
            .env("CROSSBORDER_LEDGER", &ledger)
            .args(["ledger", "resume"])
            .args(extra);
        command
    };
    let out = run(resume(&["--json"])).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    let moved: Vec<(Value, Value)> = out
        .json()
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["sessionId"].clone(), r["amount"].clone()))
        .collect();
    assert_eq!(
        moved,
        [
            (json!("resume-1"), json!("2500.00")),
            (json!("resume-2"), json!("2500.00"))
        ]
    );
    let out = run(resume(&[])).await;
    assert_eq!((out.code, out.stdout.as_str()), (0, "nothing left to do\n"));
    assert_eq!(ngn_balance(&sandbox).await, OPENING_NGN - dec!(5000));
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
