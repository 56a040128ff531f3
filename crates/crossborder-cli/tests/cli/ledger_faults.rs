//! `payout --ledger` under faults: the ledger file copied without its
//! `-wal`, four processes started at once on PostgreSQL, a database that
//! is not a ledger or cannot be reached, an API that cannot be reached or
//! never answers, and `--wait` on payouts that do not settle.

use std::time::{Duration, Instant};

use crossborder_sandbox::{PayoutSettlement, SandboxConfig};
use serde_json::json;

use crate::ledger::{batch, Case};
use crate::{bare, postgres_ledger, run, sandbox_with, spawned, waited, KEY};

/// The give-up bound the tests pass (`--give-up-after`), and the slack a
/// loaded machine gets on top of it.
const GIVE_UP: &str = "2";
const SLACK: Duration = Duration::from_secs(30);

const HINT: &str =
    "  nothing is lost: run the same command again (or `crossborder ledger resume`) to finish";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_copy_of_the_ledger_file_alone_pays_nothing_twice() {
    let mut case = Case::new().await;
    let payouts = batch("copy", 6);
    let file = case.batch_file("batch.json", &payouts);
    let out = run(case.pay(&file)).await;
    assert_eq!(out.code, 0, "{}", out.stderr);

    // `cp payouts.db copy.db` once the command has ended: the main file
    // alone holds every payout.
    let copy = case.dir.path().join("copy.db");
    std::fs::copy(&case.ledger, &copy).unwrap();
    let original = std::mem::replace(&mut case.ledger, copy.clone());
    assert_eq!(case.listed().await.len(), 6);
    let out = run(case.pay(&file)).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    let sessions = case.assert_paid_once(&payouts).await;

    // The ledger lost, the same file through a new one: the elements
    // without a sessionId get the same ids, and the API finds them.
    case.ledger = case.dir.path().join("new.db");
    let out = run(case.pay(&file)).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(case.assert_paid_once(&payouts).await, sessions);

    // `ledger backup`: a consistent copy in a new file, never over one.
    case.ledger = original;
    let saved = case.dir.path().join("saved.db");
    let out = case.ledger(&["backup", saved.to_str().unwrap()]).await;
    assert_eq!(
        (out.code, out.stdout),
        (0, format!("{}\n", saved.display()))
    );
    let out = case.ledger(&["backup", saved.to_str().unwrap()]).await;
    assert_eq!(
        (out.code, out.stderr),
        (
            2,
            format!(
                "error: ledger file error on {}: it exists already; a backup is written to a \
                 new file\n",
                saved.display()
            )
        )
    );
    case.ledger = saved;
    assert_eq!(case.listed().await.len(), 6);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL"]
async fn four_processes_started_at_once_on_a_new_postgres_database_pay_each_payout_once() {
    let Some((_server, ledger)) = postgres_ledger("four CLI processes at once", "cli_fleet") else {
        return;
    };
    let mut case = Case::new().await;
    case.ledger = ledger;
    let payouts = batch("fleet", 12);
    let file = case.batch_file("batch.json", &payouts);
    let args = case.pay_args(case.sandbox.base_url(), &file);
    let children: Vec<_> = (0..4).map(|_| spawned(&args)).collect();
    for child in children {
        let out = waited(child).await;
        assert_eq!(out.code, 0, "{}", out.shown());
    }
    case.assert_paid_once(&payouts).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_that_is_not_a_ledger_is_refused_and_nothing_is_sent() {
    let case = Case::new().await;
    let foreign = case.dir.path().join("customers.db");
    let url = format!("sqlite://{}?mode=rwc", foreign.display());
    let pool = sqlx::SqlitePool::connect(&url).await.unwrap();
    sqlx::query("CREATE TABLE customers (id INTEGER)")
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
    let before = std::fs::read(&foreign).unwrap();

    let file = case.batch_file("batch.json", &batch("foreign", 3));
    let mut args = case.pay_args(case.sandbox.base_url(), &file);
    *args.last_mut().unwrap() = foreign.to_str().unwrap();
    let mut command = bare();
    command.args(args);
    let out = run(command).await;
    assert_eq!(
        (out.code, out.stderr),
        (
            3,
            format!(
                "error: {} is not a crossborder ledger: it holds other tables (customers) and \
                 no ledger; nothing was changed (give a new file, or an empty database)\n",
                foreign.display()
            )
        )
    );
    assert_eq!(std::fs::read(&foreign).unwrap(), before);
    assert_eq!(case.paid_out().await, crossborder::Decimal::ZERO);
}

#[test]
fn a_ledger_that_cannot_be_opened_is_one_line_naming_it_with_exit_code_3() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let dir = tempfile::tempdir().unwrap();
    let corrupt = dir.path().join("payouts.db");
    std::fs::write(&corrupt, "not a database ".repeat(300)).unwrap();
    let cases = [
        (
            format!("postgres://app:s3cret@127.0.0.1:{port}/payouts"),
            format!(
                "error: cannot open the ledger postgres://app:***@127.0.0.1:{port}/payouts: \
                 connection refused (is the database server running, on that host and port?)\n"
            ),
        ),
        (
            corrupt.display().to_string(),
            format!(
                "error: cannot open the ledger {}: not a SQLite database, or a damaged one \
                 (file is not a database)\n",
                corrupt.display()
            ),
        ),
    ];
    for (ledger, expected) in cases {
        let mut command = bare();
        command.args(["ledger", "list", "--ledger", &ledger]);
        let out = crate::run_now(command);
        assert_eq!((out.code, out.stderr), (3, expected));
    }
}

/// `payout --ledger` of `payouts` against `api`, giving up after
/// [`GIVE_UP`] s: what it printed, and how long it took.
async fn pay_against(case: &Case, api: &str, name: &str, extra: &[&str]) -> (crate::Run, Duration) {
    let payouts = batch(name, 2);
    let file = case.batch_file(&format!("{name}.json"), &payouts);
    let mut command = bare();
    command
        .args(case.pay_args(api, &file))
        .args(["--give-up-after", GIVE_UP])
        .args(extra);
    let started = Instant::now();
    let out = run(command).await;
    (out, started.elapsed())
}

/// Checks a run that gave up on an API that never answered: a line saying
/// what it waits for, then the error naming both payouts, then the hint.
fn assert_gave_up(out: &crate::Run, took: Duration, api: &str, name: &str) {
    assert_eq!(out.code, 1, "{}", out.shown());
    assert!(took < Duration::from_secs(2) + SLACK, "{took:?}");
    let lines: Vec<&str> = out.stderr.lines().collect();
    let waiting = format!(
        "waiting for the API at {api} to answer for 2 payouts ([0] {name}-0, [1] {name}-1): 1 s \
         so far, giving up after 2 s"
    );
    assert!(lines[0].starts_with(&waiting), "{}", out.shown());
    let gave_up = format!(
        "error: gave up after 2 s without an answer from the API at {api} for 2 payouts ([0] \
         {name}-0, [1] {name}-1)"
    );
    let end = &lines[lines.len() - 2..];
    assert!(end[0].starts_with(&gave_up), "{}", out.shown());
    assert_eq!(end[1], HINT);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_api_that_cannot_be_reached_or_never_answers_is_given_up_on_with_the_hint() {
    let case = Case::new().await;
    // Nothing listens on a port just freed.
    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let closed = format!("http://{closed}/v1");
    let (out, took) = pay_against(&case, &closed, "unreachable", &[]).await;
    assert_gave_up(&out, took, &closed, "unreachable");

    // A server that takes connections and never answers.
    let silent = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let silent_url = format!("http://{}/v1", silent.local_addr().unwrap());
    let holder = tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((connection, _)) = silent.accept().await {
            held.push(connection);
        }
    });
    let (out, took) = pay_against(&case, &silent_url, "silent", &[]).await;
    assert_gave_up(&out, took, &silent_url, "silent");
    holder.abort();
    // A run that gives up lets go of its payouts: the next starts at once.
    assert_eq!(leases_held(&case.ledger).await, 0);

    // Every payout is still to do, and the sandbox gets each once.
    let states: Vec<_> = case
        .listed()
        .await
        .iter()
        .map(|r| r["state"].clone())
        .collect();
    assert!(
        states.iter().all(|s| s == "sending" || s == "recorded"),
        "{states:?}"
    );
    let out = run(case.pay(&case.dir.path().join("silent.json"))).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    // Two batches of 100.00 and 101.01.
    assert_eq!(case.paid_out().await, crossborder::dec!(402.02));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wait_names_what_it_follows_stops_at_its_bound_and_resume_wait_follows_on() {
    let mut case = Case::new().await;
    case.sandbox =
        sandbox_with(SandboxConfig::default().with_payout_settlement(PayoutSettlement::Manual))
            .await;
    let api = case.sandbox.base_url().to_owned();
    let (out, took) = pay_against(&case, &api, "manual", &["--wait"]).await;
    assert_eq!(out.code, 1, "{}", out.shown());
    assert!(took < Duration::from_secs(2) + SLACK, "{took:?}");
    let lines: Vec<&str> = out.stderr.lines().collect();
    assert!(
        lines[0].starts_with(&format!(
            "following 2 accepted payouts ([0] manual-0, [1] manual-1) until settled, at the API \
             at {api}: 1 s so far, giving up after 2 s"
        )),
        "{}",
        out.shown()
    );
    assert_eq!(
        lines[lines.len() - 2..],
        [
            "error: stopped following after 2 s without a change: 2 accepted payouts ([0] \
             manual-0, [1] manual-1) still not settled",
            "  nothing is lost: run the same command again (or `crossborder ledger resume \
             --wait`) to finish"
        ]
    );

    // Settled at the service: `ledger resume --wait` follows them on.
    for session in ["manual-0", "manual-1"] {
        case.sandbox.complete_payout(KEY, session).unwrap();
    }
    let mut resume = crate::at(&api);
    resume
        .args(["ledger", "resume", "--wait", "--json", "--ledger"])
        .arg(&case.ledger);
    let out = run(resume).await;
    let states: Vec<_> = out
        .ok_json()
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["sessionId"].clone(), r["state"].clone()))
        .collect();
    assert_eq!(
        states,
        [
            (json!("manual-0"), json!("completed")),
            (json!("manual-1"), json!("completed"))
        ]
    );
}

/// How many payouts of the SQLite ledger at `path` a dispatcher holds.
pub(crate) async fn leases_held(path: &std::path::Path) -> i64 {
    let pool = sqlx::SqlitePool::connect(&format!("sqlite://{}", path.display()))
        .await
        .unwrap();
    let held = sqlx::query_scalar("SELECT COUNT(*) FROM payouts WHERE lease_owner IS NOT NULL")
        .fetch_one(&pool)
        .await
        .unwrap();
    pool.close().await;
    held
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL"]
async fn a_database_lost_mid_run_ends_it_with_exit_code_3_naming_it_and_the_hint() {
    let Some((server, ledger)) = postgres_ledger("a database lost mid-run", "lost") else {
        return;
    };
    let mut case = Case::new().await;
    case.sandbox =
        sandbox_with(SandboxConfig::default().with_payout_settlement(PayoutSettlement::Manual))
            .await;
    let url = ledger.display().to_string();
    case.ledger = ledger;
    let file = case.batch_file("batch.json", &batch("lost", 2));
    let mut args = case.pay_args(case.sandbox.base_url(), &file);
    args.push("--wait");
    let child = spawned(args);
    // Following both payouts (they never settle here): the server goes.
    let ledger = crossborder_ledger::Ledger::open(&url).await.unwrap();
    let deadline = Instant::now() + crate::LINE_WAIT;
    loop {
        let records = ledger.payouts().await.unwrap();
        if records.len() == 2 && records.iter().all(|r| r.state.to_string() == "accepted") {
            break;
        }
        assert!(Instant::now() < deadline, "{records:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    ledger.close().await;
    drop(server);
    let out = waited(child).await;
    assert_eq!(out.code, 3, "{}", out.shown());
    let lines: Vec<&str> = out.stderr.lines().collect();
    assert_eq!(lines.len(), 2, "{}", out.shown());
    assert!(
        lines[0].starts_with(&format!(
            "error: on the ledger {url}: ledger database error: "
        )),
        "{}",
        out.shown()
    );
    assert_eq!(
        lines[1],
        "  nothing is lost: run the same command again (or `crossborder ledger resume --wait`) \
         to finish"
    );
}
