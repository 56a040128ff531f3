//! The ledger under faults: a main file copied without its `-wal`, a lost
//! ledger replaced by a new one, processes opening and recording one batch
//! at the same instant, a database that is not a ledger, databases that
//! cannot be reached, and a run stopped by a refused key.

use crate::support;

use std::sync::Arc;

use crossborder::Currency;
use crossborder_ledger::{DispatchOptions, Ledger, LedgerError, PayoutState};
use crossborder_testkit::postgres::Postgres;
use crossborder_testkit::TestSandbox;
use support::{assert_paid_once, batch, execute, TempDir};

#[tokio::test]
async fn the_main_file_alone_is_the_whole_ledger_once_it_is_closed() {
    let dir = TempDir::new("copied");
    let url = dir.sqlite("payouts.db");
    let sandbox = TestSandbox::start().await;
    let ledger = Ledger::open(&url).await.unwrap();
    let recorded = ledger.record_batch("copied", &batch(20)).await.unwrap();
    ledger
        .dispatcher(
            sandbox.client(TestSandbox::KEY),
            DispatchOptions::new("one"),
        )
        .await
        .unwrap()
        .send_pending(|_| {})
        .await
        .unwrap();
    ledger.close().await;
    // Closed, it answers every call with an error (a clone too), as a
    // closed PostgreSQL pool does; closing again is harmless.
    let error = ledger.clone().payouts().await.unwrap_err();
    assert!(matches!(error, LedgerError::Database(_)), "{error:?}");
    assert_eq!(
        error.to_string(),
        "ledger database error: attempted to acquire a connection on a closed pool"
    );
    ledger.close().await;

    // What `cp payouts.db copy.db` takes: the main file, not its -wal.
    std::fs::copy(dir.path().join("payouts.db"), dir.path().join("copy.db")).unwrap();
    let copy = Ledger::open(&dir.sqlite("copy.db")).await.unwrap();
    let copied = copy.payouts().await.unwrap();
    assert_eq!(copied.len(), 20);
    for (copied, recorded) in copied.iter().zip(&recorded) {
        assert_eq!(copied.session_id, recorded.session_id);
        assert_eq!(copied.state, PayoutState::Accepted);
    }

    // `crossborder ledger backup`: VACUUM INTO a new file, refused over an
    // existing one.
    let backup = dir.path().join("backup.db");
    copy.backup(&backup).await.unwrap();
    let saved = Ledger::open(&dir.sqlite("backup.db")).await.unwrap();
    assert_eq!(
        saved.payouts().await.unwrap(),
        copy.payouts().await.unwrap()
    );
    let refused = copy.backup(&backup).await.unwrap_err();
    assert_eq!(
        refused.to_string(),
        format!(
            "ledger file error on {}: it exists already; a backup is written to a new file",
            backup.display()
        )
    );
}

#[tokio::test]
async fn a_lost_ledger_replaced_by_a_new_one_pays_nothing_twice() {
    let dir = TempDir::new("lost");
    let sandbox = TestSandbox::start().await;
    let client = sandbox.client(TestSandbox::KEY);
    let opening = client.wallet().balance(Currency::Ngn).await.unwrap().amount;
    let items = batch(6);
    let first = Ledger::open(&dir.sqlite("first.db")).await.unwrap();
    let paid = first.record_batch("payroll.json", &items).await.unwrap();
    first
        .dispatcher(client.clone(), DispatchOptions::new("first"))
        .await
        .unwrap()
        .send_pending(|_| {})
        .await
        .unwrap();

    // The ledger is gone; the same file goes through a new one (under
    // another path, too): the same session ids, so the API finds each
    // payout rather than paying it again.
    let second = Ledger::open(&dir.sqlite("second.db")).await.unwrap();
    let again = second
        .record_batch("moved/payroll.json", &items)
        .await
        .unwrap();
    let ids = |records: &[crossborder_ledger::PayoutRecord]| {
        records
            .iter()
            .map(|r| r.session_id.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(ids(&again), ids(&paid));
    assert!(ids(&paid)
        .iter()
        .all(|id| id.len() == 39 && id.starts_with("ledger-")));
    let report = second
        .dispatcher(client.clone(), DispatchOptions::new("second"))
        .await
        .unwrap()
        .run_until_idle(|_| {})
        .await
        .unwrap();
    // Found at the service (a 409 read back, or the API's idempotent
    // answer): the wallet is debited once.
    assert_eq!(report.failed + report.refused, 0, "{report:?}");
    assert_paid_once(&sandbox, &second, opening, &again).await;

    // Another batch with one item changed: every id differs.
    let mut changed = items.clone();
    changed[5]["narration"] = "a second thought".into();
    let other = second.record_batch("changed.json", &changed).await.unwrap();
    assert!(ids(&other).iter().all(|id| !ids(&paid).contains(id)));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL"]
async fn processes_opening_and_recording_one_batch_at_the_same_instant_record_it_once() {
    let Some(server) = Postgres::start_or_skip("record_batch at the same instant") else {
        return;
    };
    for round in 0..3 {
        // A database never opened before: the migrations race too.
        let url = server.create_database(&format!("instant_{round}")).unwrap();
        let start = Arc::new(tokio::sync::Barrier::new(4));
        let tasks: Vec<_> = (0..4)
            .map(|_| {
                let (url, start) = (url.clone(), start.clone());
                tokio::spawn(async move {
                    start.wait().await;
                    let ledger = Ledger::open(&url).await?;
                    ledger.record_batch("fleet.json", &batch(10)).await
                })
            })
            .collect();
        let mut recorded = Vec::new();
        for task in tasks {
            recorded.push(task.await.unwrap().unwrap());
        }
        assert!(recorded.iter().all(|r| r == &recorded[0]), "round {round}");
        let ledger = Ledger::open(&url).await.unwrap();
        assert_eq!(ledger.payouts().await.unwrap().len(), 10);
    }
}

#[tokio::test]
async fn a_database_that_is_not_a_ledger_is_refused_and_left_as_it_was() {
    let dir = TempDir::new("foreign");
    let url = dir.sqlite("customers.db");
    execute(
        &format!("{url}?mode=rwc"),
        "CREATE TABLE customers (id INTEGER)",
    )
    .await;
    let before = std::fs::read(dir.path().join("customers.db")).unwrap();
    let refused = Ledger::open(&url).await.unwrap_err();
    assert!(matches!(refused, LedgerError::NotALedger { .. }));
    assert_eq!(
        refused.to_string(),
        format!(
            "{url} is not a crossborder ledger: it holds other tables (customers) and no \
             ledger; nothing was changed (give a new file, or an empty database)"
        )
    );
    assert_eq!(
        std::fs::read(dir.path().join("customers.db")).unwrap(),
        before
    );
    assert!(!dir.path().join("customers.db-wal").exists());
    // A new path is still a new ledger.
    Ledger::open(&dir.sqlite("new.db")).await.unwrap();
}

#[tokio::test]
#[ignore = "needs PostgreSQL"]
async fn a_postgres_database_that_is_not_a_ledger_is_refused_and_left_as_it_was() {
    let Some(server) = Postgres::start_or_skip("a PostgreSQL database that is not a ledger") else {
        return;
    };
    let url = server.create_database("foreign").unwrap();
    execute(&url, "CREATE TABLE customers (id INTEGER)").await;
    let refused = Ledger::open(&url).await.unwrap_err();
    assert_eq!(
        refused.to_string(),
        format!(
            "{url} is not a crossborder ledger: it holds other tables (customers) and no \
             ledger; nothing was changed (give a new file, or an empty database)"
        )
    );
    let pool = sqlx::PgPool::connect(&url).await.unwrap();
    let tables: Vec<String> = sqlx::query_scalar(
        "SELECT table_name::text FROM information_schema.tables WHERE table_schema = 'public'",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    assert_eq!(tables, ["customers"]);
}

#[tokio::test]
async fn a_database_that_cannot_be_reached_or_read_is_named_with_the_reason() {
    // Nothing listens on a port just freed.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("postgres://app:s3cret@127.0.0.1:{port}/payouts");
    let refused = Ledger::open(&url).await.unwrap_err();
    assert_eq!(
        refused.to_string(),
        format!(
            "cannot open the ledger postgres://app:***@127.0.0.1:{port}/payouts: connection \
             refused (is the database server running, on that host and port?)"
        )
    );

    // An HTTP server where PostgreSQL was expected.
    let http = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = http.local_addr().unwrap().port();
    tokio::spawn(async move {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        while let Ok((mut socket, _)) = http.accept().await {
            let mut buffer = [0u8; 512];
            let _ = socket.read(&mut buffer).await;
            let _ = socket
                .write_all(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
                .await;
        }
    });
    let url = format!("postgres://app:s3cret@127.0.0.1:{port}/payouts");
    let wrong = Ledger::open(&url).await.unwrap_err();
    assert_eq!(
        wrong.to_string(),
        format!(
            "cannot open the ledger postgres://app:***@127.0.0.1:{port}/payouts: the server \
             there does not answer as PostgreSQL does (is it the right port?)"
        )
    );

    // A server that takes the connection and never answers.
    let silent = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = silent.local_addr().unwrap().port();
    let holder = tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((socket, _)) = silent.accept().await {
            held.push(socket);
        }
    });
    let url = format!("postgres://app@127.0.0.1:{port}/payouts");
    let silent = Ledger::open(&url).await.unwrap_err();
    assert_eq!(
        silent.to_string(),
        format!("cannot open the ledger {url}: no answer within 5 s")
    );
    holder.abort();

    // A file that is not SQLite.
    let dir = TempDir::new("corrupt");
    std::fs::write(dir.path().join("payouts.db"), "not a database ".repeat(300)).unwrap();
    let url = dir.sqlite("payouts.db");
    let corrupt = Ledger::open(&url).await.unwrap_err();
    assert_eq!(
        corrupt.to_string(),
        format!(
            "cannot open the ledger {url}: not a SQLite database, or a damaged one (file is \
             not a database)"
        )
    );
}

/// A stored request edited by hand into text that is not JSON: the run
/// ends naming the payout, which is not sent.
#[tokio::test]
async fn a_stored_request_that_is_not_json_ends_the_run_naming_its_payout() {
    let dir = TempDir::new("unreadable-request");
    let url = dir.sqlite("payouts.db");
    let sandbox = TestSandbox::start().await;
    let ledger = Ledger::open(&url).await.unwrap();
    ledger.record_batch("hand-edited", &batch(3)).await.unwrap();
    let payouts = ledger.payouts().await.unwrap();
    let edited = payouts[1].session_id.clone();
    execute(
        &url,
        &format!("UPDATE payouts SET request = 'not json' WHERE session_id = '{edited}'"),
    )
    .await;
    let client = sandbox.client(TestSandbox::KEY);
    let dispatcher = ledger
        .dispatcher(client.clone(), DispatchOptions::new("one"))
        .await
        .unwrap();
    let error = dispatcher.send_pending(|_| {}).await.unwrap_err();
    assert!(matches!(error, LedgerError::Corrupt { .. }), "{error:?}");
    assert!(
        error
            .to_string()
            .starts_with(&format!("ledger row payout {edited} is unreadable: ")),
        "{error}"
    );
    assert!(client
        .payouts()
        .get(&edited)
        .await
        .unwrap_err()
        .is_not_found());
}

/// Payouts still held (a lease) or not due at once.
async fn held(url: &str) -> Vec<(String, Option<String>, Option<i64>)> {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    let text = "SELECT session_id, lease_owner, lease_until FROM payouts \
                WHERE lease_owner IS NOT NULL OR lease_until > $1";
    if url.starts_with("postgres") {
        let pool = sqlx::PgPool::connect(url).await.unwrap();
        sqlx::query_as(text)
            .bind(now)
            .fetch_all(&pool)
            .await
            .unwrap()
    } else {
        let pool = sqlx::SqlitePool::connect(url).await.unwrap();
        sqlx::query_as(text)
            .bind(now)
            .fetch_all(&pool)
            .await
            .unwrap()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_stopped_by_a_refused_key_lets_go_of_every_payout_it_held() {
    let dir = TempDir::new("released");
    refused_key_lets_go(&dir.sqlite("payouts.db")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL"]
async fn a_run_stopped_by_a_refused_key_lets_go_of_every_payout_it_held_on_postgres() {
    let Some(server) = Postgres::start_or_skip("leases released on a refused key") else {
        return;
    };
    refused_key_lets_go(&server.create_database("released").unwrap()).await;
}

/// A run stopped by a 401 releases its leases, and the next run takes
/// every payout at once and pays each once. Each database its own sandbox:
/// the same batch has the same session ids anywhere.
async fn refused_key_lets_go(url: &str) {
    let sandbox = TestSandbox::start().await;
    let ledger = Ledger::open(url).await.unwrap();
    let recorded = ledger.record_batch("refused-key", &batch(8)).await.unwrap();
    let opening = sandbox
        .client(TestSandbox::KEY)
        .wallet()
        .balance(Currency::Ngn)
        .await
        .unwrap()
        .amount;
    let stranger = sandbox.client(crossborder_testkit::NO_ACCESS_KEY);
    let stopped = ledger
        .dispatcher(stranger, DispatchOptions::new("refused"))
        .await
        .unwrap()
        .send_pending(|_| {})
        .await
        .unwrap_err();
    assert!(
        matches!(&stopped, LedgerError::Api(e) if e.status() == Some(401)),
        "{stopped}"
    );
    assert_eq!(held(url).await, [], "{url}");
    // The next run, under another name, takes every payout at once.
    let lease = std::time::Duration::from_secs(600);
    ledger
        .dispatcher(
            sandbox.client(TestSandbox::KEY),
            DispatchOptions::new("next").lease(lease),
        )
        .await
        .unwrap()
        .run_until_idle(|_| {})
        .await
        .unwrap();
    assert_paid_once(&sandbox, &ledger, opening, &recorded).await;
}

#[tokio::test]
async fn a_new_run_on_a_sqlite_ledger_takes_up_what_an_earlier_one_parked_at_once() {
    let dir = TempDir::new("parked");
    let sandbox = TestSandbox::start().await;
    let ledger = Ledger::open(&dir.sqlite("payouts.db")).await.unwrap();
    let recorded = ledger.record_batch("parked", &batch(2)).await.unwrap();
    let opening = sandbox
        .client(TestSandbox::KEY)
        .wallet()
        .balance(Currency::Ngn)
        .await
        .unwrap()
        .amount;
    // A run against an API that is not there, told to wait an hour
    // before trying again, gives up at the first error.
    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let nowhere =
        crossborder_testkit::sdk_client(&format!("http://{closed}/v1"), TestSandbox::KEY).unwrap();
    let hour = std::time::Duration::from_secs(3600);
    let mut options = DispatchOptions::new("first").retry(crossborder_ledger::Backoff {
        initial: hour,
        max: hour,
        factor: 1,
    });
    options.max_errors = 1;
    let stopped = ledger
        .dispatcher(nowhere, options)
        .await
        .unwrap()
        .send_pending(|_| {})
        .await;
    assert!(matches!(stopped, Err(LedgerError::Api(_))), "{stopped:?}");
    // The next run, with the API back, does not wait for that hour.
    let next = ledger
        .dispatcher(
            sandbox.client(TestSandbox::KEY),
            DispatchOptions::new("next"),
        )
        .await
        .unwrap();
    let run = next.run_until_idle(|_| {});
    tokio::time::timeout(std::time::Duration::from_secs(60), run)
        .await
        .expect("the next run waited for the parked payouts' time")
        .unwrap();
    assert_paid_once(&sandbox, &ledger, opening, &recorded).await;
}
