//! The database itself: a schema newer than the code is refused, its
//! bookkeeping is sqlx's migrator's own, money is
//! stored as exact decimal text, submits from many tasks take turns on
//! SQLite's one connection and are written together there (a dropped or
//! refused one leaving nothing open), and one dispatcher per SQLite file.

use crate::support;

use crossborder::Decimal;
use crossborder_ledger::{DispatchOptions, Ledger};
use crossborder_testkit::{fixtures, TestSandbox};
use support::{execute, TempDir};

#[tokio::test]
async fn a_schema_newer_than_the_code_is_refused_and_left_unchanged() {
    let dir = TempDir::new("schema");
    let url = dir.sqlite("payouts.db");
    let ledger = Ledger::open(&url).await.unwrap();
    ledger
        .submit(&fixtures::ngn_bank_payout(Decimal::new(100, 0), "kept-1"))
        .await
        .unwrap();
    drop(ledger);
    // What a newer crossborder-ledger leaves behind.
    execute(&url, "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time) VALUES (3, 'from a newer version', 1, x'00', 0)").await;
    execute(&url, "CREATE TABLE from_the_future (id INTEGER)").await;
    let refused = Ledger::open(&url).await.unwrap_err();
    assert_eq!(
        refused.to_string(),
        "the ledger's schema is at version 3, newer than the 2 this crossborder-ledger knows; upgrade crossborder-ledger to open it (nothing was changed)"
    );
    execute(&url, "DELETE FROM _sqlx_migrations WHERE version = 3").await;
    let reopened = Ledger::open(&url).await.unwrap();
    assert_eq!(reopened.payouts().await.unwrap()[0].session_id, "kept-1");
}

/// A migration the database records as unfinished, or as applied from
/// other SQL, is refused on open, naming it, and the ledger is left as it
/// was.
#[tokio::test]
async fn a_schema_whose_migrations_differ_is_refused_and_left_unchanged() {
    let dir = TempDir::new("differ");
    let url = dir.sqlite("payouts.db");
    let ledger = Ledger::open(&url).await.unwrap();
    ledger
        .submit(&fixtures::ngn_bank_payout(Decimal::new(100, 0), "kept-2"))
        .await
        .unwrap();
    drop(ledger);
    for (tamper, restore, problem) in [
        (
            "UPDATE _sqlx_migrations SET success = 0 WHERE version = 2",
            "UPDATE _sqlx_migrations SET success = 1 WHERE version = 2",
            "was left unfinished",
        ),
        (
            "CREATE TABLE saved AS SELECT checksum FROM _sqlx_migrations WHERE version = 1; \
             UPDATE _sqlx_migrations SET checksum = zeroblob(48) WHERE version = 1",
            "UPDATE _sqlx_migrations SET checksum = (SELECT checksum FROM saved) WHERE version = 1; \
             DROP TABLE saved",
            "was applied from other SQL than this crossborder-ledger's (its checksum differs)",
        ),
    ] {
        execute(&url, tamper).await;
        let version = if problem.starts_with("was left") {
            2
        } else {
            1
        };
        assert_eq!(
            Ledger::open(&url).await.unwrap_err().to_string(),
            format!("the ledger's schema cannot be brought up to date: migration {version} {problem}; nothing was changed")
        );
        execute(&url, restore).await;
        let reopened = Ledger::open(&url).await.unwrap();
        assert_eq!(reopened.payouts().await.unwrap()[0].session_id, "kept-2");
    }
}

/// The ledger keeps its schema's versions in sqlx's own table, as sqlx's
/// migrator writes it: a database migrated by sqlx opens as a ledger, and
/// one migrated by the ledger passes sqlx's migrator (same versions, same
/// checksums) with nothing left to apply.
#[tokio::test]
async fn the_schema_bookkeeping_is_sqlx_migrators_own() {
    let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations/sqlite");
    let sqlx_migrator = sqlx::migrate::Migrator::new(folder).await.unwrap();
    let dir = TempDir::new("bookkeeping");
    let by_sqlx = format!("{}?mode=rwc", dir.sqlite("by-sqlx.db"));
    let pool = sqlx::SqlitePool::connect(&by_sqlx).await.unwrap();
    sqlx_migrator.run(&pool).await.unwrap();
    pool.close().await;
    let ledger = Ledger::open(&dir.sqlite("by-sqlx.db")).await.unwrap();
    ledger
        .submit(&fixtures::ngn_bank_payout(
            Decimal::new(100, 0),
            "on-sqlx-schema",
        ))
        .await
        .unwrap();
    drop(ledger);

    let by_ledger = dir.sqlite("by-ledger.db");
    drop(Ledger::open(&by_ledger).await.unwrap());
    let pool = sqlx::SqlitePool::connect(&by_ledger).await.unwrap();
    let applied: Vec<(i64, String, bool)> = sqlx::query_as(
        "SELECT version, description, success FROM _sqlx_migrations ORDER BY version",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    assert_eq!(
        applied,
        [
            (1, "ledger".to_owned(), true),
            (2, "quotes".to_owned(), true)
        ]
    );
    // sqlx refuses a changed checksum and would apply anything missing.
    sqlx_migrator.run(&pool).await.unwrap();
    let count: i64 = sqlx::query_scalar("SELECT count(*) FROM _sqlx_migrations")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(count, 2);
}

#[tokio::test]
async fn money_is_stored_as_the_exact_decimal_text() {
    let dir = TempDir::new("money");
    let url = dir.sqlite("payouts.db");
    let ledger = Ledger::open(&url).await.unwrap();
    // 0.1 + 0.2 is not 0.3 in binary floating point; here it stays 0.30.
    let amount = Decimal::new(1_000_000_000_000_030, 2);
    ledger
        .submit(&fixtures::ngn_bank_payout(amount, "exact-1"))
        .await
        .unwrap();
    let pool = sqlx::SqlitePool::connect(&url).await.unwrap();
    let (kind, text): (String, String) =
        sqlx::query_as("SELECT typeof(amount), amount FROM payouts")
            .fetch_one(&pool)
            .await
            .unwrap();
    assert_eq!(
        (kind.as_str(), text.as_str()),
        ("text", "10000000000000.30")
    );
    assert_eq!(
        ledger.payout("exact-1").await.unwrap().unwrap().amount,
        amount
    );
}

/// 64 tasks submit at once through clones of one SQLite ledger, each
/// payout twice: every one is recorded once, with one `recorded` event,
/// and each task gets the same record back both times.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn submits_from_many_tasks_on_one_sqlite_ledger_are_each_recorded_once() {
    let dir = TempDir::new("many-tasks");
    let ledger = Ledger::open(&dir.sqlite("payouts.db")).await.unwrap();
    let mut tasks = tokio::task::JoinSet::new();
    for i in 0..64 {
        let ledger = ledger.clone();
        tasks.spawn(async move {
            let payout = fixtures::ngn_bank_payout(Decimal::new(100 + i, 0), &format!("task-{i}"));
            let first = ledger.submit(&payout).await.unwrap();
            let again = ledger.submit(&payout).await.unwrap();
            assert_eq!(
                (first.session_id, first.amount),
                (again.session_id, again.amount)
            );
        });
    }
    while let Some(done) = tasks.join_next().await {
        done.unwrap();
    }
    let payouts = ledger.payouts().await.unwrap();
    assert_eq!(payouts.len(), 64);
    for i in 0..64 {
        let id = format!("task-{i}");
        let payout = payouts.iter().find(|p| p.session_id == id).unwrap();
        assert_eq!(payout.amount, Decimal::new(100 + i, 0));
        let history = ledger.history(&id).await.unwrap();
        assert_eq!(history.len(), 1, "{id}: {history:?}");
    }
}

/// A caller that gives up on a submit midway (a timeout, a dropped task)
/// leaves no transaction open on SQLite's one connection: submitting the
/// same payout again records it once, with one event, and the ledger
/// goes on taking others.
#[tokio::test]
async fn a_submit_dropped_midway_leaves_nothing_half_done() {
    use futures_util::FutureExt;
    let dir = TempDir::new("dropped");
    let url = dir.sqlite("payouts.db");
    let ledger = Ledger::open(&url).await.unwrap();
    for i in 0..20 {
        let payout = fixtures::ngn_bank_payout(Decimal::new(100 + i, 0), &format!("dropped-{i}"));
        // Polled once, so its statements are on their way, then dropped
        // (it may also have finished within that poll on a busy machine).
        let _ = ledger.submit(&payout).now_or_never();
        let record = ledger.submit(&payout).await.unwrap();
        assert_eq!(record.amount, Decimal::new(100 + i, 0));
    }
    drop(ledger);
    each_recorded_once(&url, 20).await;
}

/// The ledger at `url`, opened again, holds `count` payouts, each with
/// one event (`recorded`).
async fn each_recorded_once(url: &str, count: usize) {
    let reopened = Ledger::open(url).await.unwrap();
    let payouts = reopened.payouts().await.unwrap();
    assert_eq!(payouts.len(), count);
    for payout in &payouts {
        let history = reopened.history(&payout.session_id).await.unwrap();
        assert_eq!(history.len(), 1, "{}: {history:?}", payout.session_id);
    }
}

/// What a submit of `boom` to a [`refusing_boom`] ledger fails with.
const BOOM_REFUSED: &str =
    "ledger database error: error returned from database: (code: 1811) no boom here";

/// A SQLite ledger at `url` whose database refuses a payout with session
/// id `boom` (`RAISE(ABORT)`: it undoes the statement but leaves its
/// transaction open).
async fn refusing_boom(url: &str) -> Ledger {
    drop(Ledger::open(url).await.unwrap());
    execute(
        url,
        "CREATE TRIGGER refuse_boom BEFORE INSERT ON payouts WHEN NEW.session_id = 'boom' \
         BEGIN SELECT RAISE(ABORT, 'no boom here'); END",
    )
    .await;
    Ledger::open(url).await.unwrap()
}

/// A submit whose insert the database refuses is reported as the
/// database's error, and its transaction is rolled back: the next submit
/// on the same connection is recorded.
#[tokio::test]
async fn a_submit_the_database_refuses_leaves_the_next_one_recorded() {
    let dir = TempDir::new("refused-insert");
    let url = dir.sqlite("payouts.db");
    let ledger = refusing_boom(&url).await;
    let refused = ledger
        .submit(&fixtures::ngn_bank_payout(Decimal::new(100, 0), "boom"))
        .await
        .unwrap_err();
    assert!(
        matches!(refused, crossborder_ledger::LedgerError::Database(_)),
        "{refused:?}"
    );
    assert_eq!(refused.to_string(), BOOM_REFUSED);
    let kept = ledger
        .submit(&fixtures::ngn_bank_payout(
            Decimal::new(200, 0),
            "after-boom",
        ))
        .await
        .unwrap();
    assert_eq!(kept.amount, Decimal::new(200, 0));
    let ids: Vec<String> = ledger
        .payouts()
        .await
        .unwrap()
        .into_iter()
        .map(|p| p.session_id)
        .collect();
    assert_eq!(ids, ["after-boom"]);
    assert_eq!(ledger.history("after-boom").await.unwrap().len(), 1);
}

/// Submits from many tasks at the same instant, written together on
/// SQLite (one transaction for the submits that queued meanwhile), each
/// get their own outcome: a new record, the same record again, a
/// conflict for the request that lost its session id to another, and the
/// database's refusal for the one it refuses, which takes nothing else
/// down with it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn submits_written_together_each_get_their_own_outcome() {
    use crossborder_ledger::LedgerError;
    let dir = TempDir::new("grouped");
    let url = dir.sqlite("payouts.db");
    let ledger = refusing_boom(&url).await;
    // 32 payouts; the first 8 twice; ids 8 to 11 also with another
    // amount; and the refused one.
    let mut payouts: Vec<(String, i64)> =
        (0..32).map(|i| (format!("grouped-{i}"), 100 + i)).collect();
    payouts.extend((0..8).map(|i| (format!("grouped-{i}"), 100 + i)));
    payouts.extend((8..12).map(|i| (format!("grouped-{i}"), 900 + i)));
    payouts.push(("boom".to_owned(), 1));
    let start = std::sync::Arc::new(tokio::sync::Barrier::new(payouts.len()));
    let mut tasks = tokio::task::JoinSet::new();
    for (id, amount) in payouts {
        let (ledger, start) = (ledger.clone(), start.clone());
        tasks.spawn(async move {
            start.wait().await;
            let payout = fixtures::ngn_bank_payout(Decimal::new(amount, 0), &id);
            (id, amount, ledger.submit(&payout).await)
        });
    }
    let mut outcomes = Vec::new();
    while let Some(done) = tasks.join_next().await {
        outcomes.push(done.unwrap());
    }
    let stored: std::collections::HashMap<String, Decimal> = ledger
        .payouts()
        .await
        .unwrap()
        .into_iter()
        .map(|p| (p.session_id, p.amount))
        .collect();
    assert_eq!(stored.len(), 32, "{stored:?}");
    for (id, amount, outcome) in outcomes {
        let amount = Decimal::new(amount, 0);
        match outcome {
            Ok(record) => {
                assert_eq!((&record.session_id, record.amount), (&id, amount));
                assert_eq!(stored[&id], amount);
            }
            Err(LedgerError::SessionConflict { session_id }) => {
                assert_eq!(session_id, id);
                assert_ne!(stored[&id], amount, "{id}: the winner's amount is stored");
            }
            Err(error) => {
                assert_eq!(id, "boom");
                assert_eq!(error.to_string(), BOOM_REFUSED);
            }
        }
    }
    for id in stored.keys() {
        assert_eq!(ledger.history(id).await.unwrap().len(), 1, "{id}");
    }
}

/// Submits written together whose tasks are aborted at any point (the one
/// writing the group, or those waiting for it) leave each payout recorded
/// once or not at all: submitting them all again records each once, with
/// one event.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn aborted_submits_written_together_leave_nothing_half_done() {
    let dir = TempDir::new("aborted-group");
    let url = dir.sqlite("payouts.db");
    let ledger = Ledger::open(&url).await.unwrap();
    let payout = |round: u64, i: i64| {
        fixtures::ngn_bank_payout(Decimal::new(100 + i, 0), &format!("aborted-{round}-{i}"))
    };
    for round in 0..10 {
        let mut tasks = tokio::task::JoinSet::new();
        for i in 0..16 {
            let (ledger, payout) = (ledger.clone(), payout(round, i));
            tasks.spawn(async move { ledger.submit(&payout).await });
        }
        // A different cut each round.
        tokio::time::sleep(std::time::Duration::from_micros(150 * round)).await;
        tasks.abort_all();
        while tasks.join_next().await.is_some() {}
        for i in 0..16 {
            let record = ledger.submit(&payout(round, i)).await.unwrap();
            assert_eq!(record.amount, Decimal::new(100 + i, 0));
        }
    }
    drop(ledger);
    each_recorded_once(&url, 160).await;
}

#[tokio::test]
async fn a_second_dispatcher_on_one_sqlite_file_is_refused_until_the_first_is_gone() {
    let dir = TempDir::new("busy");
    let url = dir.sqlite("payouts.db");
    let sandbox = TestSandbox::start().await;
    let client = sandbox.client(TestSandbox::KEY);
    let first = Ledger::open(&url).await.unwrap();
    let second = Ledger::open(&url).await.unwrap();
    let running = first
        .dispatcher(client.clone(), DispatchOptions::new("one"))
        .await
        .unwrap();
    let refused = second
        .dispatcher(client.clone(), DispatchOptions::new("two"))
        .await
        .unwrap_err();
    let lock = dir.path().join("payouts.db-dispatcher.lock");
    assert_eq!(
        refused.to_string(),
        format!(
            "another dispatcher is running on {} (a SQLite ledger has one dispatcher at a time; stop it, or use PostgreSQL for several)",
            lock.display()
        )
    );
    // Only dispatching is one process's: others still record and read.
    let payout = fixtures::ngn_bank_payout(Decimal::new(100, 0), "while-busy-1");
    second.submit(&payout).await.unwrap();
    assert_eq!(first.payouts().await.unwrap().len(), 1);
    drop(running);
    second
        .dispatcher(client, DispatchOptions::new("two"))
        .await
        .unwrap();
}
