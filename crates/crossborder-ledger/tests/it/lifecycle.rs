//! A payout's life in the ledger, against the sandbox, on SQLite and on
//! PostgreSQL: validation before anything is recorded, batches recorded
//! once, each outcome of a send, payouts left in flight resolved by reading
//! first, and the history of every change.

use crate::support;

use std::time::Duration;

use crossborder::{Currency, Decimal};
use crossborder_ledger::{Backoff, DispatchOptions, Ledger, LedgerError, PayoutState};
use crossborder_testkit::postgres::Postgres;
use crossborder_testkit::{fixtures, TestSandbox};
use serde_json::json;
use support::{batch, execute, TempDir};

#[tokio::test]
async fn on_sqlite() {
    let dir = TempDir::new("lifecycle");
    lifecycle(&dir.sqlite("payouts.db")).await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL"]
async fn on_postgres() {
    let Some(server) = Postgres::start_or_skip("the PostgreSQL lifecycle test") else {
        return;
    };
    let url = server.create_database("lifecycle").unwrap();
    lifecycle(&url).await;
    // Money is NUMERIC there, never a float.
    execute(&url, "DO $$ BEGIN IF (SELECT data_type FROM information_schema.columns WHERE table_name = 'payouts' AND column_name = 'amount') <> 'numeric' THEN RAISE 'amount is not numeric'; END IF; END $$").await;
}

async fn lifecycle(url: &str) {
    let ledger = Ledger::open(url).await.unwrap();
    submit_validates_and_records_once(&ledger).await;
    batches_are_recorded_once(&ledger).await;
    each_outcome_of_a_send(&ledger, url).await;
    batch_records_are_as_read_back(&ledger).await;
}

async fn submit_validates_and_records_once(ledger: &Ledger) {
    let mut invalid = fixtures::ngn_bank_payout(Decimal::new(-5, 0), "bad id!");
    invalid.bank_code = Some("5".into());
    let refused = ledger.submit(&invalid).await.unwrap_err();
    let LedgerError::Invalid(violations) = &refused else {
        panic!("{refused:?}")
    };
    assert_eq!(
        violations.fields().collect::<Vec<_>>(),
        ["amount", "sessionId", "bankCode"]
    );
    assert!(
        refused
            .to_string()
            .starts_with("invalid payout (nothing recorded): amount: "),
        "{refused}"
    );
    assert!(
        ledger.payouts().await.unwrap().is_empty(),
        "nothing recorded"
    );

    let payout = fixtures::ngn_bank_payout(Decimal::new(123_456, 2), "submit-1");
    let recorded = ledger.submit(&payout).await.unwrap();
    assert_eq!(
        (recorded.session_id.as_str(), recorded.state),
        ("submit-1", PayoutState::Recorded)
    );
    assert_eq!(recorded.amount.to_string(), "1234.56");
    assert_eq!(
        (recorded.from_currency, recorded.to_currency),
        (Currency::Ngn, Currency::Ngn)
    );
    let again = ledger.submit(&payout).await.unwrap();
    assert_eq!(
        again, recorded,
        "the same session id and request is the same record"
    );
    let changed = fixtures::ngn_bank_payout(Decimal::new(123_457, 2), "submit-1");
    assert_eq!(
        ledger.submit(&changed).await.unwrap_err().to_string(),
        "session id submit-1 is already recorded for a different payout; nothing was recorded"
    );
    let json = serde_json::to_value(&recorded).unwrap();
    assert_eq!(
        (
            &json["sessionId"],
            &json["state"],
            &json["amount"],
            &json["fromCurrency"],
            &json["toCurrency"]
        ),
        (
            &json!("submit-1"),
            &json!("recorded"),
            &json!("1234.56"),
            &json!("NGN"),
            &json!("NGN")
        )
    );
    let history = ledger.history("submit-1").await.unwrap();
    assert_eq!(history.len(), 1);
    assert_eq!(
        (history[0].from, history[0].to),
        (None, PayoutState::Recorded)
    );
}

async fn batches_are_recorded_once(ledger: &Ledger) {
    let items = batch(3);
    let first = ledger
        .record_batch("/data/june.json", &items)
        .await
        .unwrap();
    assert_eq!(first.len(), 3);
    assert!(first
        .iter()
        .all(|r| r.session_id.starts_with("ledger-") && r.state == PayoutState::Recorded));
    let positions: Vec<_> = first.iter().map(|r| r.batch.clone().unwrap()).collect();
    assert_eq!(
        positions,
        [1, 2, 3].map(|n| ("/data/june.json".to_owned(), n))
    );
    // Recorded in the batch's order, the order in which they are sent.
    let in_order: Vec<String> = ledger
        .payouts()
        .await
        .unwrap()
        .into_iter()
        .filter(|p| p.batch.is_some())
        .map(|p| p.session_id)
        .collect();
    let given: Vec<String> = first.iter().map(|r| r.session_id.clone()).collect();
    assert_eq!(in_order, given);
    // The same file again, its keys in another order: the same records.
    let reordered: Vec<_> = items
        .iter()
        .map(|item| {
            let mut pairs: Vec<_> = item.as_object().unwrap().clone().into_iter().collect();
            pairs.reverse();
            serde_json::Value::Object(pairs.into_iter().collect())
        })
        .collect();
    assert_eq!(
        ledger
            .record_batch("/data/june.json", &reordered)
            .await
            .unwrap(),
        first
    );
    // Item 2 changed and a fourth added: refused, naming both.
    let mut changed = batch(4);
    changed[1]["amount"] = json!("9.99");
    let refused = ledger
        .record_batch("/data/june.json", &changed)
        .await
        .unwrap_err();
    assert!(
        matches!(&refused, LedgerError::BatchChanged { items, .. } if items == &[2, 4]),
        "{refused:?}"
    );
    assert_eq!(
        refused.to_string(),
        "batch /data/june.json differs from when it was first recorded, at item(s) 2, 4; nothing was recorded (record the changed payouts under a new batch)"
    );
    // Invalid items: every violation of every item, nothing recorded.
    let mut invalid = batch(3);
    invalid[0]["amount"] = json!(12);
    invalid[2]["bankCode"] = json!("5");
    let before = ledger.payouts().await.unwrap().len();
    let refused = ledger
        .record_batch("/data/july.json", &invalid)
        .await
        .unwrap_err();
    assert_eq!(
        refused.to_string(),
        "invalid batch (nothing recorded): item 1: amount: must be a string; item 3: bankCode: must be 2 to 6 digits, a bank code from the NGN bank list such as 058"
    );
    assert_eq!(ledger.payouts().await.unwrap().len(), before);
}

async fn each_outcome_of_a_send(ledger: &Ledger, url: &str) {
    let sandbox = TestSandbox::start().await;
    let client = sandbox.client(TestSandbox::KEY);
    let opening = client.wallet().balance(Currency::Ngn).await.unwrap().amount;
    let mut to_fail = fixtures::ngn_bank_payout(Decimal::new(700, 0), "fails-1");
    to_fail.account_number = Some("0000000000".into());
    ledger.submit(&to_fail).await.unwrap();
    ledger
        .submit(&fixtures::ngn_bank_payout(
            opening * Decimal::TWO,
            "too-big-1",
        ))
        .await
        .unwrap();
    // Left in flight by a dispatcher that died: one the service made, one it never received.
    for (session_id, state) in [("made-1", "sending"), ("lost-1", "unknown")] {
        ledger
            .submit(&fixtures::ngn_bank_payout(Decimal::new(300, 0), session_id))
            .await
            .unwrap();
        execute(
            url,
            &format!("UPDATE payouts SET state = '{state}' WHERE session_id = '{session_id}'"),
        )
        .await;
    }
    client
        .payouts()
        .create(&fixtures::ngn_bank_payout(Decimal::new(300, 0), "made-1"))
        .await
        .unwrap();

    let options = DispatchOptions::new("test").retry(Backoff {
        initial: Duration::from_millis(10),
        max: Duration::from_millis(10),
        factor: 1,
    });
    let dispatcher = ledger.dispatcher(client.clone(), options).await.unwrap();
    let mut changes = Vec::new();
    let report = dispatcher
        .run_until_idle(|record| changes.push(record.clone()))
        .await
        .unwrap();
    assert_eq!(
        (
            report.sent,
            report.resolved_by_reading,
            report.accepted,
            report.refused,
            report.completed,
            report.failed
        ),
        // Sent: submit-1, the batch's 3, fails-1, too-big-1 and lost-1;
        // made-1 is read, not sent.
        (7, 1, 7, 1, 6, 1),
        "{report:?}"
    );
    assert!(changes
        .iter()
        .any(|r| r.session_id == "fails-1" && r.state == PayoutState::Failed));
    // A fresh payout's claim is reported (`sending`) before its acceptance.
    let states: Vec<PayoutState> = changes
        .iter()
        .filter(|r| r.session_id == "submit-1")
        .map(|r| r.state)
        .collect();
    assert_eq!(
        states,
        [
            PayoutState::Sending,
            PayoutState::Accepted,
            PayoutState::Completed
        ]
    );
    // Each payout's last record passed to `progress` is the one stored.
    let mut last = std::collections::BTreeMap::new();
    for record in &changes {
        last.insert(record.session_id.clone(), record);
    }
    assert_eq!(last.len(), 8, "{last:?}");
    for (session_id, record) in last {
        assert_eq!(
            ledger.payout(&session_id).await.unwrap().as_ref(),
            Some(record)
        );
    }

    let state = |id: &'static str| async move { ledger.payout(id).await.unwrap().unwrap() };
    let failed = state("fails-1").await;
    assert_eq!(failed.state, PayoutState::Failed);
    assert_eq!(
        failed.message.as_deref(),
        Some(
            format!(
                "the service reports payout fails-1 FAILED (transaction {}); it is not sent again",
                failed.transaction_id.as_deref().unwrap()
            )
            .as_str()
        )
    );
    let refused = state("too-big-1").await;
    assert_eq!(refused.state, PayoutState::Refused);
    assert!(
        refused
            .message
            .as_deref()
            .unwrap()
            .starts_with("Insufficient balance: available "),
        "{refused:?}"
    );
    assert_eq!(refused.transaction_id, None);
    // The reasons, as types with a stable code.
    let code = |record: &crossborder_ledger::PayoutRecord| {
        serde_json::to_value(record).unwrap()["reason"].clone()
    };
    assert_eq!(
        code(&refused),
        json!({"code": "api_refused", "status": 400, "message": refused.message})
    );
    assert_eq!(
        code(&failed),
        json!({"code": "service_failed", "message": failed.message})
    );

    let words = |history: Vec<crossborder_ledger::PayoutEvent>| -> Vec<(Option<PayoutState>, PayoutState, Option<String>)> {
        history.into_iter().map(|e| (e.from, e.to, e.detail)).collect()
    };
    use PayoutState::*;
    let made = words(ledger.history("made-1").await.unwrap());
    assert_eq!(
        made[1..].iter().map(|e| (e.0, e.1)).collect::<Vec<_>>(),
        [(Some(Sending), Accepted), (Some(Accepted), Completed)]
    );
    assert_eq!(
        made[1].2.as_deref(),
        Some("found by reading its session id")
    );
    let lost = words(ledger.history("lost-1").await.unwrap());
    assert_eq!(
        lost[1..].iter().map(|e| (e.0, e.1)).collect::<Vec<_>>(),
        [
            (Some(Unknown), Sending),
            (Some(Sending), Accepted),
            (Some(Accepted), Completed)
        ]
    );
    assert_eq!(
        lost[1].2.as_deref(),
        Some("not found by reading its session id; sending again with the same session id")
    );
    let failed = words(ledger.history("fails-1").await.unwrap());
    assert_eq!(
        failed.iter().map(|e| e.1).collect::<Vec<_>>(),
        [Recorded, Sending, Accepted, Failed]
    );

    // A second run has nothing to do: the failed payout is not sent again.
    let report = dispatcher.run_until_idle(|_| {}).await.unwrap();
    assert_eq!(report, Default::default());
    let debited = ledger
        .payouts()
        .await
        .unwrap()
        .iter()
        .filter(|r| r.state == Completed)
        .map(|r| r.amount)
        .sum::<Decimal>();
    assert_eq!(
        client.wallet().balance(Currency::Ngn).await.unwrap().amount,
        opening - debited
    );
}

/// A refused API key says nothing about the payouts: the run stops with
/// the API's error, and the payout waits, unchanged, for the next run.
#[tokio::test]
async fn a_refused_key_stops_the_run_and_marks_nothing_refused() {
    let dir = TempDir::new("key");
    let sandbox = TestSandbox::start().await;
    let ledger = Ledger::open(&dir.sqlite("payouts.db")).await.unwrap();
    ledger
        .submit(&fixtures::ngn_bank_payout(Decimal::new(100, 0), "key-1"))
        .await
        .unwrap();
    let no_access = sandbox.client(crossborder_testkit::NO_ACCESS_KEY);
    let dispatcher = ledger
        .dispatcher(no_access, DispatchOptions::new("keyless"))
        .await
        .unwrap();
    let stopped = dispatcher.run_until_idle(|_| {}).await.unwrap_err();
    assert!(
        matches!(&stopped, LedgerError::Api(error) if error.status() == Some(401)),
        "{stopped:?}"
    );
    let waiting = ledger.payout("key-1").await.unwrap().unwrap();
    assert_eq!(waiting.state, PayoutState::Sending);
    assert_eq!(
        waiting.message.as_deref(),
        Some(stopped.to_string().as_str())
    );
    drop(dispatcher);
    // With a key that works, the next run reads it first, then sends it.
    let dispatcher = ledger
        .dispatcher(
            sandbox.client(TestSandbox::KEY),
            DispatchOptions::new("keyed"),
        )
        .await
        .unwrap();
    let report = dispatcher.run_until_idle(|_| {}).await.unwrap();
    assert_eq!((report.sent, report.completed), (1, 1));
}

/// A base URL that does not reach the API (here without its `/v1`) answers
/// 404 to the quote and to the send, which the API documents for neither:
/// the run stops with that answer and marks nothing refused, and the next
/// run, on the right URL, quotes and sends both payouts.
#[tokio::test]
async fn a_base_url_that_misses_the_api_stops_the_run_and_marks_nothing_refused() {
    let dir = TempDir::new("route");
    let sandbox = TestSandbox::start().await;
    let ledger = Ledger::open(&dir.sqlite("payouts.db")).await.unwrap();
    ledger
        .submit(&fixtures::ngn_bank_payout(Decimal::new(100, 0), "route-1"))
        .await
        .unwrap();
    let mut converting = fixtures::converting_payout_json("NGN", "10.00");
    converting["sessionId"] = "route-2".into();
    ledger.record_batch("route", &[converting]).await.unwrap();
    let root = sandbox.base_url().trim_end_matches("/v1").to_owned();
    let misdirected = crossborder::Client::builder()
        .api_key(TestSandbox::KEY)
        .base_url(&root)
        .build()
        .unwrap();
    for options in [
        DispatchOptions::new("misdirected"),
        DispatchOptions::new("misdirected").concurrency(1),
    ] {
        let dispatcher = ledger
            .dispatcher(misdirected.clone(), options)
            .await
            .unwrap();
        let stopped = dispatcher.run_until_idle(|_| {}).await.unwrap_err();
        assert!(
            matches!(&stopped, LedgerError::Api(error) if error.status() == Some(404)),
            "{stopped:?}"
        );
        for record in ledger.payouts().await.unwrap() {
            assert!(
                matches!(record.state, PayoutState::Sending | PayoutState::Recorded),
                "{record:?}"
            );
        }
    }
    let dispatcher = ledger
        .dispatcher(
            sandbox.client(TestSandbox::KEY),
            DispatchOptions::new("routed"),
        )
        .await
        .unwrap();
    let report = dispatcher.run_until_idle(|_| {}).await.unwrap();
    assert_eq!(report.completed, 2, "{report:?}");
    let client = sandbox.client(TestSandbox::KEY);
    for id in ["route-1", "route-2"] {
        let paid = client.payouts().get(id).await.unwrap();
        assert_eq!(
            paid.status,
            crossborder::types::TransactionStatus::Completed,
            "{id}"
        );
    }
}

/// A service that answers every payout with `status` and never holds one;
/// asserts that the run ends with that answer as its error, and returns the
/// payout's states.
async fn against_a_failing_service(status: u16) -> Vec<PayoutState> {
    use crossborder::webhook::axum::{self, http::StatusCode, routing::get, routing::post, Json};

    let not_found = || async {
        let body = json!({"statusCode": 404, "message": "Transaction not found"});
        (StatusCode::NOT_FOUND, Json(body))
    };
    let failing = move || async move {
        let body = Json(json!({"statusCode": status, "message": "try later"}));
        (StatusCode::from_u16(status).unwrap(), body)
    };
    let app = axum::Router::new()
        .route("/v1/api/transaction/{id}", get(not_found))
        .route("/v1/api/payout", post(failing));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}/v1", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });

    let dir = TempDir::new(&format!("failing-{status}"));
    let ledger = Ledger::open(&dir.sqlite("payouts.db")).await.unwrap();
    ledger
        .submit(&fixtures::ngn_bank_payout(Decimal::new(100, 0), "boom-1"))
        .await
        .unwrap();
    let client = crossborder_testkit::sdk_client(&base, TestSandbox::KEY).unwrap();
    let mut options = DispatchOptions::new("boom").retry(Backoff {
        initial: Duration::from_millis(5),
        max: Duration::from_millis(5),
        factor: 1,
    });
    options.max_errors = 3;
    let dispatcher = ledger.dispatcher(client, options).await.unwrap();
    let stopped = dispatcher.run_until_idle(|_| {}).await.unwrap_err();
    assert!(
        matches!(&stopped, LedgerError::Api(error) if error.status() == Some(status)),
        "{stopped:?}"
    );
    let history = ledger.history("boom-1").await.unwrap();
    history.iter().map(|e| e.to).collect()
}

/// Each 500 leaves the outcome unknown; each read finds nothing, so the
/// payout is sent again; after `max_errors` in a row the run ends instead
/// of looping, the payout left `unknown` for the next run.
#[tokio::test]
async fn sends_that_keep_failing_end_the_run_after_max_errors() {
    let states = against_a_failing_service(500).await;
    use PayoutState::*;
    assert_eq!(
        states,
        [Recorded, Sending, Unknown, Sending, Unknown, Sending, Unknown]
    );
}

/// A 429 is not a refusal: nothing was applied, the payout stays
/// `sending` and is tried again (read first), until `max_errors`.
#[tokio::test]
async fn too_many_requests_is_retried_not_refused() {
    let states = against_a_failing_service(429).await;
    assert_eq!(states, [PayoutState::Recorded, PayoutState::Sending]);
}

async fn batch_records_are_as_read_back(ledger: &Ledger) {
    // An item given twice in a new batch, and one submitted before in
    // another: each record is the one read back, the repeat's with its
    // first position, the earlier payout's with none.
    let mut repeated = batch(2);
    repeated[0]["sessionId"] = json!("twice-1");
    repeated.push(repeated[0].clone());
    let submitted = fixtures::ngn_bank_payout(Decimal::new(5, 0), "submitted-first-1");
    ledger.submit(&submitted).await.unwrap();
    let mixed = vec![
        batch(1).remove(0),
        fixtures::ngn_payout_json("submitted-first-1", "5"),
    ];
    let at = |key: &str, n| Some((key.to_owned(), n));
    for (key, items, positions) in [
        (
            "/data/twice.json",
            repeated,
            vec![
                at("/data/twice.json", 1),
                at("/data/twice.json", 2),
                at("/data/twice.json", 1),
            ],
        ),
        (
            "/data/mixed.json",
            mixed,
            vec![at("/data/mixed.json", 1), None],
        ),
    ] {
        let records = ledger.record_batch(key, &items).await.unwrap();
        let batches: Vec<_> = records.iter().map(|r| r.batch.clone()).collect();
        assert_eq!(batches, positions);
        for record in &records {
            let read = ledger.payout(&record.session_id).await.unwrap();
            assert_eq!(read.as_ref(), Some(record));
        }
    }
}
