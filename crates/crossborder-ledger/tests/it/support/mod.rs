//! What the ledger's tests share: a temporary directory, batches of NGN
//! payouts, a proxy that answers late, and dispatchers run as child
//! processes of the test binary (a library has no binary of its own).

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

use crossborder::webhook::axum;
use crossborder::{Currency, Decimal};
use crossborder_ledger::{DispatchOptions, Ledger, PayoutRecord};
use crossborder_testkit::postgres::Postgres;
use crossborder_testkit::{fixtures, sdk_client, TestSandbox};
use serde_json::Value;

/// The environment variable that makes a test binary a dispatcher.
pub const CHILD: &str = "LEDGER_TEST_CHILD";

/// A directory removed on drop.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(name: &str) -> TempDir {
        let dir =
            std::env::temp_dir().join(format!("crossborder-ledger-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    /// `sqlite://<dir>/<file>`.
    pub fn sqlite(&self, file: &str) -> String {
        format!("sqlite://{}", self.0.join(file).display())
    }

    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// `count` NGN payouts (1,000.01 NGN, then a kobo and a naira more each
/// time) as the API's JSON, without session ids: the ledger gives them.
pub fn batch(count: usize) -> Vec<Value> {
    (0..count)
        .map(|i| {
            let mut item = fixtures::ngn_payout_json("unused", &amount(i).to_string());
            item.as_object_mut().unwrap().remove("sessionId");
            item
        })
        .collect()
}

/// `count` converting payouts from USD without `rateKey` (to NGN, KES,
/// GBP and USDT in turn; 10.00 USD, then 0.37 USD more each time) as the
/// API's JSON, without session ids: the ledger quotes each at send time.
pub fn converting_batch(count: usize) -> Vec<Value> {
    (0..count)
        .map(|i| {
            let to = fixtures::CONVERTING_TO[i % fixtures::CONVERTING_TO.len()];
            fixtures::converting_payout_json(to, &converting_amount(i).to_string())
        })
        .collect()
}

/// The amount of item `i` of [`converting_batch`], in USD.
pub fn converting_amount(i: usize) -> Decimal {
    Decimal::new(1_000 + 37 * i64::try_from(i).unwrap(), 2)
}

/// What a finished converting batch must show, beside
/// [`assert_paid_once`]'s checks on the sandbox: each payout was sent with
/// the last quote its history records (taken before the send, never
/// turned down), none was refused; returns how many were quoted more than
/// once, and the USD debited (each payout's `totalAmount`).
pub async fn assert_quoted_once_paid(
    sandbox: &TestSandbox,
    ledger: &Ledger,
    records: &[PayoutRecord],
) -> (usize, Decimal) {
    let client = sandbox.client(TestSandbox::KEY);
    let mut requoted = 0;
    let mut debited = Decimal::ZERO;
    for record in records {
        let now = ledger.payout(&record.session_id).await.unwrap().unwrap();
        let history = ledger.history(&record.session_id).await.unwrap();
        assert!(
            matches!(now.state.to_string().as_str(), "accepted" | "completed"),
            "{} is {}: {history:?}",
            now.session_id,
            now.state
        );
        let held = client.payouts().get(&record.session_id).await.unwrap();
        let quotes: Vec<_> = history
            .iter()
            .filter_map(|e| e.quote.as_ref().filter(|q| q.used).map(|q| (e, q)))
            .collect();
        let (used_at, used) = quotes.last().expect("a converting payout is quoted");
        assert_eq!(
            held.rate_key.as_deref(),
            Some(used.rate_key.as_str()),
            "{history:?}"
        );
        assert_eq!(held.rate, used.rate);
        assert_eq!(Some(held.total_amount), used.total_amount);
        // The quote was recorded (with the change to `sending`) before the
        // acceptance was.
        let accepted = history
            .iter()
            .position(|e| e.to.to_string() == "accepted")
            .unwrap();
        assert!(
            history
                .iter()
                .position(|e| std::ptr::eq(e, *used_at))
                .unwrap()
                < accepted
        );
        requoted += usize::from(quotes.len() > 1);
        debited += held.total_amount;
    }
    (requoted, debited)
}

/// The amount of item `i` of [`batch`].
pub fn amount(i: usize) -> Decimal {
    Decimal::new(100_001 + 101 * i64::try_from(i).unwrap(), 2)
}

/// What a finished batch must show: every payout once at the sandbox, in
/// the ledger accepted or completed, and the wallet debited by exactly the
/// payouts and their fees.
pub async fn assert_paid_once(
    sandbox: &TestSandbox,
    ledger: &Ledger,
    opening: Decimal,
    records: &[PayoutRecord],
) {
    let client = sandbox.client(TestSandbox::KEY);
    let mut debited = Decimal::ZERO;
    for record in records {
        let now = ledger.payout(&record.session_id).await.unwrap().unwrap();
        assert!(
            matches!(now.state.to_string().as_str(), "accepted" | "completed"),
            "{} is {}: {:?}",
            now.session_id,
            now.state,
            ledger.history(&now.session_id).await.unwrap()
        );
        let held = client.payouts().get(&record.session_id).await.unwrap();
        assert_eq!(held.amount, record.amount, "{}", record.session_id);
        assert_eq!(
            now.transaction_id.as_deref(),
            Some(held.transaction_id.as_str())
        );
        debited += held.amount + held.fee;
    }
    let balance = client.wallet().balance(Currency::Ngn).await.unwrap().amount;
    assert_eq!(
        balance,
        opening - debited,
        "the wallet is debited once per payout, to the kobo"
    );
}

/// The settings of a dispatcher run by [`spawn_dispatcher`].
pub struct Role<'a> {
    pub test: &'a str,
    pub ledger: &'a str,
    pub api: &'a str,
    pub id: &'a str,
    pub lease: Duration,
    /// Items to record (as batch `crash`) before dispatching; 0: none.
    pub record: usize,
    /// Whether the items are [`converting_batch`]'s, not [`batch`]'s.
    pub converting: bool,
    /// When to die: SIGKILL from a `kill -9` process this many milliseconds
    /// after this many state changes; none: never.
    pub kill_after: Option<(usize, u64)>,
}

/// Runs this test binary again as a dispatcher of `role` (see
/// [`run_child`]), its output discarded except errors.
pub fn spawn_dispatcher(role: &Role<'_>) -> Child {
    Command::new(std::env::current_exe().unwrap())
        .args([
            role.test,
            "--exact",
            "--include-ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD, "dispatch")
        .env("LEDGER_URL", role.ledger)
        .env("LEDGER_API", role.api)
        .env("LEDGER_ID", role.id)
        .env("LEDGER_LEASE_MS", role.lease.as_millis().to_string())
        .env("LEDGER_RECORD", role.record.to_string())
        .env("LEDGER_CONVERTING", role.converting.to_string())
        .env(
            "LEDGER_KILL_AFTER",
            role.kill_after
                .map_or(String::new(), |(n, ms)| format!("{n} {ms}")),
        )
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap()
}

/// The PostgreSQL server of a test that runs dispatchers as child
/// processes, in the test's own process; `None` in a child dispatcher
/// (once [`run_child`] has done its work) or where PostgreSQL cannot start
/// (the test is skipped, saying `what` it skips).
pub async fn parent_postgres(what: &str) -> Option<Postgres> {
    if run_child().await {
        return None;
    }
    Postgres::start_or_skip(what)
}

/// Whether this process is a child dispatcher; when it is, does its work
/// (records the batch, then sends everything until idle) and exits.
pub async fn run_child() -> bool {
    if std::env::var_os(CHILD).is_none() {
        return false;
    }
    let var = |name: &str| std::env::var(name).unwrap();
    let ledger = Ledger::open(&var("LEDGER_URL")).await.unwrap();
    let record: usize = var("LEDGER_RECORD").parse().unwrap();
    if record > 0 {
        let items = if var("LEDGER_CONVERTING") == "true" {
            converting_batch(record)
        } else {
            batch(record)
        };
        ledger.record_batch("crash", &items).await.unwrap();
    }
    let client = sdk_client(&var("LEDGER_API"), TestSandbox::KEY).unwrap();
    let options = DispatchOptions::new(var("LEDGER_ID"))
        .lease(Duration::from_millis(
            var("LEDGER_LEASE_MS").parse().unwrap(),
        ))
        .concurrency(4);
    // The kill comes from outside the process (SIGKILL cannot be caught),
    // at a moment set by this run's progress, so it always falls mid-work
    // however loaded the machine is.
    let kill_after = var("LEDGER_KILL_AFTER");
    let mut kill_after = kill_after.split(' ').filter_map(|n| n.parse::<u64>().ok());
    let (changes, delay) = (kill_after.next(), kill_after.next().unwrap_or(0));
    let mut seen = 0;
    let report = ledger
        .dispatcher(client, options)
        .await
        .unwrap()
        .run_until_idle(|_| {
            seen += 1;
            if Some(seen) == changes {
                std::thread::spawn(move || {
                    std::thread::sleep(Duration::from_millis(delay));
                    let pid = std::process::id().to_string();
                    let _ = Command::new("kill").args(["-9", &pid]).status();
                });
            }
        })
        .await
        .unwrap();
    println!("{report:?}");
    std::process::exit(0);
}

/// Waits for `child` to exit by itself, successfully, within `limit`.
pub async fn finished(child: &mut Child, limit: Duration) {
    let deadline = tokio::time::Instant::now() + limit;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success(), "the dispatcher failed: {status}");
            return;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the dispatcher did not finish in {limit:?}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A test proxy's request as it goes on to `origin`: the same method,
/// path, headers (less the hop's own) and body, read whole.
pub async fn forwarded(
    http: &reqwest::Client,
    origin: &str,
    parts: axum::http::request::Parts,
    body: axum::body::Body,
) -> reqwest::RequestBuilder {
    use axum::http::header;

    let body = axum::body::to_bytes(body, 1 << 20)
        .await
        .unwrap_or_default();
    let path = parts.uri.path_and_query().map_or("/", |p| p.as_str());
    let mut outgoing = http
        .request(parts.method, format!("{origin}{path}"))
        .body(body);
    for (name, value) in &parts.headers {
        if ![header::HOST, header::CONTENT_LENGTH, header::CONNECTION].contains(name) {
            outgoing = outgoing.header(name, value);
        }
    }
    outgoing
}

/// A proxy to `base_url` (`http://127.0.0.1:PORT/v1`) that passes each
/// request on at once, and the answer to a POST back only after `delay`:
/// a payout applied whose answer is still on the way when its dispatcher
/// dies.
/// The first `pending_reads` reads of a transaction that answer
/// `COMPLETED` answer `PROCESSING` instead: a payout that settles later.
/// Returns the proxy's base URL.
pub async fn late_proxy(base_url: &str, delay: Duration, pending_reads: usize) -> String {
    use axum::extract::{Request, State};
    use axum::http::{header, StatusCode};
    use axum::response::{IntoResponse, Response};
    use std::sync::atomic::Ordering::SeqCst;

    struct Proxy {
        origin: String,
        delay: Duration,
        http: reqwest::Client,
        pending_reads: std::sync::atomic::AtomicUsize,
    }
    async fn forward(State(proxy): State<Arc<Proxy>>, request: Request) -> Response {
        let (parts, body) = request.into_parts();
        let write = parts.method == axum::http::Method::POST;
        let answer = forwarded(&proxy.http, &proxy.origin, parts, body)
            .await
            .send()
            .await;
        if write {
            tokio::time::sleep(proxy.delay).await;
        }
        match answer {
            Ok(answer) => {
                let status = answer.status();
                let kind = answer.headers().get(header::CONTENT_TYPE).cloned();
                // The sandbox's clock: a quote's lifetime is measured on it.
                let date = answer.headers().get(header::DATE).cloned();
                let mut body = answer.bytes().await.unwrap_or_default();
                let completed = br#""status":"COMPLETED""#;
                if body.windows(completed.len()).any(|w| w == completed)
                    && proxy
                        .pending_reads
                        .fetch_update(SeqCst, SeqCst, |n| n.checked_sub(1))
                        .is_ok()
                {
                    let text = String::from_utf8_lossy(&body)
                        .replace(r#""status":"COMPLETED""#, r#""status":"PROCESSING""#);
                    body = text.into();
                }
                let mut response = (status, body).into_response();
                if let Some(kind) = kind {
                    response.headers_mut().insert(header::CONTENT_TYPE, kind);
                }
                if let Some(date) = date {
                    response.headers_mut().insert(header::DATE, date);
                }
                response
            }
            Err(error) => (StatusCode::BAD_GATEWAY, error.to_string()).into_response(),
        }
    }

    let origin = base_url.strip_suffix("/v1").unwrap_or(base_url).to_owned();
    let proxy = Arc::new(Proxy {
        origin,
        delay,
        http: reqwest::Client::new(),
        pending_reads: pending_reads.into(),
    });
    let app = axum::Router::new().fallback(forward).with_state(proxy);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    format!("http://{addr}/v1")
}

/// Runs one statement on the ledger's database behind the ledger's back:
/// what a crash, a newer version or a hand edit leaves.
pub async fn execute(url: &str, statement: &str) {
    if url.starts_with("postgres") {
        let pool = sqlx::PgPool::connect(url).await.unwrap();
        sqlx::query(statement).execute(&pool).await.unwrap();
        pool.close().await;
    } else {
        let pool = sqlx::SqlitePool::connect(url).await.unwrap();
        sqlx::query(statement).execute(&pool).await.unwrap();
        pool.close().await;
    }
}
