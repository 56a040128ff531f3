//! Converting payouts recorded without a `rateKey`: validated for
//! everything but the quote, quoted by the dispatcher just before sending
//! (the quote in the history, in the transaction that makes the payout
//! `sending`), quoted again under the same session id after a kill between
//! the quote and the send, and held by a rate guard.

use crate::support;

use std::process::Command;
use std::sync::atomic::{AtomicU32, Ordering::SeqCst};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use crossborder::types::PayoutRequest;
use crossborder::webhook::axum;
use crossborder::{Currency, Decimal};
use crossborder_ledger::{
    Backoff, DispatchOptions, Ledger, LedgerError, PayoutReason, PayoutState, RateGuard,
};
use crossborder_sandbox::SandboxConfig;
use crossborder_testkit::{fixtures, TestSandbox};
use support::{assert_quoted_once_paid, run_child, spawn_dispatcher, Role, TempDir};

fn usd_to_ngn(session_id: &str, amount: Decimal) -> PayoutRequest {
    PayoutRequest::new(session_id, amount, Currency::Usd, Currency::Ngn)
        .account_number("0123456789")
        .account_name("ADAEZE OKAFOR")
        .bank_name("Guaranty Trust Bank")
        .bank_code("058")
}

fn quick(id: &str) -> DispatchOptions {
    DispatchOptions::new(id).poll(Backoff {
        initial: Duration::from_millis(50),
        max: Duration::from_millis(200),
        factor: 2,
    })
}

#[tokio::test]
async fn a_converting_payout_without_rate_key_is_quoted_before_it_is_sent() {
    let sandbox = TestSandbox::start().await;
    let client = sandbox.client(TestSandbox::KEY);
    let opening = client.wallet().balance(Currency::Usd).await.unwrap().amount;
    let ledger = Ledger::open("sqlite::memory:").await.unwrap();

    // Everything but the quote is checked at once, every violation.
    let broken = usd_to_ngn("quoted-0", Decimal::new(100, 0))
        .bank_code("5")
        .account_name("");
    let LedgerError::Invalid(violations) = ledger.submit(&broken).await.unwrap_err() else {
        panic!("not Invalid");
    };
    assert_eq!(
        violations.fields().collect::<Vec<_>>(),
        ["accountName", "bankCode"]
    );
    // A guard on a payout the ledger does not quote is refused.
    let guard = RateGuard::new(Decimal::ONE, SystemTime::now());
    let refused = ledger
        .submit_with_guard(
            &fixtures::ngn_bank_payout(Decimal::ONE, "same-currency"),
            guard,
        )
        .await
        .unwrap_err();
    assert_eq!(
        refused.to_string(),
        "invalid payout (nothing recorded): rateGuard: applies only to a converting payout \
         without rateKey (the ledger quotes it)"
    );
    assert!(ledger.payouts().await.unwrap().is_empty());

    let records = [
        ledger
            .submit(&usd_to_ngn("quoted-1", Decimal::new(10_000, 2)))
            .await
            .unwrap(),
        ledger
            .record_batch(
                "payroll",
                &[fixtures::converting_payout_json("KES", "25.50")],
            )
            .await
            .unwrap()
            .remove(0),
    ];
    assert_eq!(records[0].state, PayoutState::Recorded);
    ledger
        .dispatcher(client.clone(), quick("quoter"))
        .await
        .unwrap()
        .run_until_idle(|_| {})
        .await
        .unwrap();
    let (requoted, debited) = assert_quoted_once_paid(&sandbox, &ledger, &records).await;
    assert_eq!(requoted, 0);
    // 100.00 + 0.50 and 25.50 + 0.13: the sandbox's 0.5 % fee.
    assert_eq!(debited, Decimal::new(12_613, 2));
    let balance = client.wallet().balance(Currency::Usd).await.unwrap().amount;
    assert_eq!(balance, opening - debited);

    let history = ledger.history("quoted-1").await.unwrap();
    let sending = &history[1];
    assert_eq!(
        (sending.from, sending.to),
        (Some(PayoutState::Recorded), PayoutState::Sending)
    );
    let quote = sending.quote.as_ref().unwrap();
    assert_eq!(quote.rate, Decimal::new(153_025, 2));
    assert_eq!(quote.total_amount, Some(Decimal::new(10_050, 2)));
    assert_eq!(quote.to_amount, Some(Decimal::new(15_302_500, 2)));
    assert_eq!(
        sending.detail.as_deref(),
        Some(
            format!(
                "quoted at rate 1530.25 (rateKey {}, fee 0.50 USD, toAmount 153025.00 NGN, \
                 totalAmount 100.50 USD, valid until {})",
                quote.rate_key,
                serde_json::to_value(quote).unwrap()["validUntil"]
                    .as_str()
                    .unwrap()
            )
            .as_str()
        )
    );
}

#[tokio::test]
async fn the_rate_guard_holds_a_worse_quote_ends_it_at_its_deadline_and_a_guard_met_sends_it() {
    let sandbox = TestSandbox::start().await;
    let client = sandbox.client(TestSandbox::KEY);
    let ledger = Ledger::open("sqlite::memory:").await.unwrap();
    // The sandbox quotes USD/NGN at 1530.25: a guard of 1600 is never met.
    let strict = Decimal::new(1600, 0);
    let soon = SystemTime::now() + Duration::from_millis(600);
    let later = SystemTime::now() + Duration::from_secs(120);
    let ended = usd_to_ngn("guarded-ends", Decimal::new(50, 0));
    let waits = usd_to_ngn("guarded-waits", Decimal::new(60, 0));
    ledger
        .submit_with_guard(&ended, RateGuard::new(strict, soon))
        .await
        .unwrap();
    ledger
        .submit_with_guard(&waits, RateGuard::new(strict, later))
        .await
        .unwrap();

    let dispatcher = ledger
        .dispatcher(client.clone(), quick("guard"))
        .await
        .unwrap();
    let run = tokio::spawn(async move { dispatcher.run_until_idle(|_| {}).await });
    // The first ends at its deadline, with its reason as a type.
    let ended_record = loop {
        let record = ledger.payout("guarded-ends").await.unwrap().unwrap();
        if record.state.is_final() {
            break record;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!(ended_record.state, PayoutState::Refused);
    let Some(PayoutReason::RateGuard {
        worst_rate,
        last_rate,
        ..
    }) = &ended_record.reason
    else {
        panic!("{:?}", ended_record.reason);
    };
    assert_eq!(
        (*worst_rate, *last_rate),
        (strict, Decimal::new(153_025, 2))
    );
    assert_eq!(
        serde_json::to_value(&ended_record).unwrap()["reason"]["code"],
        "rate_guard"
    );
    assert!(client
        .payouts()
        .get("guarded-ends")
        .await
        .unwrap_err()
        .is_not_found());

    // The second waits: recorded, its history showing each quote turned
    // down and why.
    while ledger.history("guarded-waits").await.unwrap().len() < 2 {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let waiting = ledger.payout("guarded-waits").await.unwrap().unwrap();
    assert_eq!(waiting.state, PayoutState::Recorded);
    assert!(
        waiting
            .message
            .as_deref()
            .unwrap()
            .starts_with("waiting for a rate of 1600 or better until "),
        "{waiting:?}"
    );
    let turned_down = ledger.history("guarded-waits").await.unwrap();
    assert!(turned_down.len() >= 2, "{turned_down:?}");
    assert!(turned_down[1..]
        .iter()
        .all(|e| e.from == Some(PayoutState::Recorded)
            && e.to == PayoutState::Recorded
            && e.quote.as_ref().unwrap().rate == Decimal::new(153_025, 2)));

    // A guard the market meets, set while it waits: it is sent, once.
    ledger
        .submit_with_guard(&waits, RateGuard::new(Decimal::new(1500, 0), later))
        .await
        .unwrap();
    let report = run.await.unwrap().unwrap();
    assert_eq!(report.refused, 1);
    let sent = ledger.payout("guarded-waits").await.unwrap().unwrap();
    assert!(
        matches!(sent.state, PayoutState::Accepted | PayoutState::Completed),
        "{sent:?}"
    );
    let held = client.payouts().get("guarded-waits").await.unwrap();
    let history = ledger.history("guarded-waits").await.unwrap();
    let used = history
        .iter()
        .find(|e| e.to == PayoutState::Sending)
        .and_then(|e| e.quote.as_ref())
        .unwrap();
    assert_eq!(held.rate_key.as_deref(), Some(used.rate_key.as_str()));
}

/// The payout a proxy stopped: the child dispatcher is killed at its first
/// `POST /api/payout`, which never reaches the sandbox.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn killed_between_its_quote_and_its_send_a_payout_is_quoted_again_under_its_session_id() {
    if run_child().await {
        return;
    }
    let dir = TempDir::new("kill-after-quote");
    let url = dir.sqlite("payouts.db");
    let ttl = Duration::from_secs(2);
    let sandbox = TestSandbox::start_with(SandboxConfig::default().with_quote_ttl(ttl)).await;
    let child_pid = Arc::new(AtomicU32::new(0));
    let api = killing_proxy(sandbox.base_url(), child_pid.clone()).await;
    let mut child = spawn_dispatcher(&Role {
        test: "quotes::killed_between_its_quote_and_its_send_a_payout_is_quoted_again_under_its_session_id",
        ledger: &url,
        api: &api,
        id: "doomed",
        lease: Duration::from_millis(400),
        record: 4,
        kill_after: None,
        converting: true,
    });
    child_pid.store(child.id(), SeqCst);
    let status = tokio::task::spawn_blocking(move || child.wait().unwrap())
        .await
        .unwrap();
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(status.signal(), Some(9), "{status}");

    let ledger = Ledger::open(&url).await.unwrap();
    let stopped: Vec<_> = ledger
        .payouts()
        .await
        .unwrap()
        .into_iter()
        .filter(|r| r.state == PayoutState::Sending)
        .collect();
    assert!(
        !stopped.is_empty(),
        "no payout was left sending with its quote"
    );
    // Longer than the quote lives: the recorded one has expired, on the
    // sandbox's clock and on this machine's.
    let pause = ttl + Duration::from_millis(300);
    sandbox.clock.advance(pause);
    tokio::time::sleep(pause).await;
    ledger
        .dispatcher(sandbox.client(TestSandbox::KEY), quick("restart"))
        .await
        .unwrap()
        .run_until_idle(|_| {})
        .await
        .unwrap();
    let records = ledger.payouts().await.unwrap();
    let (requoted, _) = assert_quoted_once_paid(&sandbox, &ledger, &records).await;
    assert!(requoted >= stopped.len());
    for record in &stopped {
        let history = ledger.history(&record.session_id).await.unwrap();
        let quotes: Vec<_> = history.iter().filter(|e| e.quote.is_some()).collect();
        assert_eq!(quotes.len(), 2, "{history:?}");
        assert_eq!(
            (quotes[0].from, quotes[0].to),
            (Some(PayoutState::Recorded), PayoutState::Sending)
        );
        // The same payout, the same session id, a new rate key.
        assert_eq!(
            (quotes[1].from, quotes[1].to),
            (Some(PayoutState::Sending), PayoutState::Sending)
        );
        assert!(quotes[1]
            .detail
            .as_deref()
            .unwrap()
            .starts_with("not found by reading its session id; quoted at rate "));
        let keys = [&quotes[0], &quotes[1]].map(|e| e.quote.as_ref().unwrap().rate_key.clone());
        assert_ne!(keys[0], keys[1]);
    }
}

/// A payout the API refuses for its rate key alone (its quote expired at
/// the service before the send arrived) is read, quoted again under the
/// same session id, and paid once; it is not refused.
#[tokio::test]
async fn a_send_refused_for_its_expired_rate_key_is_quoted_again_not_refused() {
    let ttl = Duration::from_secs(2);
    let sandbox = TestSandbox::start_with(SandboxConfig::default().with_quote_ttl(ttl)).await;
    let api = proxy(
        sandbox.base_url(),
        OnFirstPayout::Advance(sandbox.clock.clone(), ttl + Duration::from_secs(1)),
    )
    .await;
    let client = crossborder_testkit::sdk_client(&api, TestSandbox::KEY).unwrap();
    let ledger = Ledger::open("sqlite::memory:").await.unwrap();
    let record = ledger
        .submit(&usd_to_ngn("late-key", Decimal::new(40, 0)))
        .await
        .unwrap();
    let report = ledger
        .dispatcher(client, quick("late"))
        .await
        .unwrap()
        .run_until_idle(|_| {})
        .await
        .unwrap();
    assert_eq!(report.refused, 0);
    let (requoted, _) = assert_quoted_once_paid(&sandbox, &ledger, &[record]).await;
    assert_eq!(requoted, 1);
    let history = ledger.history("late-key").await.unwrap();
    let quoted: Vec<_> = history.iter().filter(|e| e.quote.is_some()).collect();
    assert_eq!(quoted.len(), 2, "{history:?}");
    assert!(quoted[1]
        .detail
        .as_deref()
        .unwrap()
        .starts_with("not found by reading its session id; quoted at rate 1530.25"));
}

/// What [`proxy`] does at the first `POST .../payout`.
enum OnFirstPayout {
    /// Kills the process whose id this holds (waiting for it to be set)
    /// with SIGKILL, and drops the request (and every later one).
    Kill(Arc<AtomicU32>),
    /// Moves the sandbox's clock on, then passes the request.
    Advance(crossborder_sandbox::Clock, Duration),
}

/// A proxy to the sandbox that kills the child process at the first
/// `POST .../payout`, dropping the request.
async fn killing_proxy(base_url: &str, pid: Arc<AtomicU32>) -> String {
    proxy(base_url, OnFirstPayout::Kill(pid)).await
}

/// A proxy to the sandbox that does `action` at the first
/// `POST .../payout`; everything else passes (the `Date` header too).
async fn proxy(base_url: &str, action: OnFirstPayout) -> String {
    use axum::extract::{Request, State};
    use axum::http::{header, StatusCode};
    use axum::response::{IntoResponse, Response};

    struct Proxy {
        origin: String,
        http: reqwest::Client,
        action: OnFirstPayout,
        done: std::sync::atomic::AtomicBool,
    }
    async fn forward(State(proxy): State<Arc<Proxy>>, request: Request) -> Response {
        let (parts, body) = request.into_parts();
        // Every payout sent while killing: none reaches the sandbox.
        let kills = matches!(proxy.action, OnFirstPayout::Kill(_));
        if parts.method == axum::http::Method::POST
            && parts.uri.path().ends_with("/payout")
            && (!proxy.done.swap(true, SeqCst) || kills)
        {
            match &proxy.action {
                OnFirstPayout::Kill(pid) => {
                    let pid = loop {
                        match pid.load(SeqCst) {
                            0 => tokio::time::sleep(Duration::from_millis(5)).await,
                            pid => break pid,
                        }
                    };
                    let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
                    return StatusCode::BAD_GATEWAY.into_response();
                }
                OnFirstPayout::Advance(clock, by) => clock.advance(*by),
            }
        }
        let outgoing = support::forwarded(&proxy.http, &proxy.origin, parts, body).await;
        match outgoing.send().await {
            Ok(answer) => {
                let status = answer.status();
                let headers = answer.headers().clone();
                let body = answer.bytes().await.unwrap_or_default();
                let mut response = (status, body).into_response();
                for name in [header::CONTENT_TYPE, header::DATE] {
                    if let Some(value) = headers.get(&name) {
                        response.headers_mut().insert(name, value.clone());
                    }
                }
                response
            }
            Err(error) => (StatusCode::BAD_GATEWAY, error.to_string()).into_response(),
        }
    }

    let origin = base_url.strip_suffix("/v1").unwrap_or(base_url).to_owned();
    let proxy = Arc::new(Proxy {
        origin,
        http: reqwest::Client::new(),
        action,
        done: false.into(),
    });
    let app = axum::Router::new().fallback(forward).with_state(proxy);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    format!("http://{addr}/v1")
}
