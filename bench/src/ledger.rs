//! The `ledger` group: what the durable ledger (`crossborder-ledger`)
//! costs, each side measured against its anchor in the same run.
//!
//! - `ledger_submit_vs_sqlite`: `Ledger::submit` (validated, recorded with
//!   its first history event in one transaction, durable when it returns)
//!   per second, one at a time, over bare one-row `INSERT` commits per
//!   second into a SQLite file on the same disk with the ledger's settings
//!   (WAL, `synchronous=FULL`), in alternating rounds.
//! - `ledger_submit_64_vs_sqlite`: the same submits from 64 tasks at once
//!   (written together, one commit for those that queued meanwhile) over
//!   the same bare one-at-a-time commits, in the same rounds.
//! - `ledger_dispatch_vs_direct` (SQLite) and `ledger_dispatch_vs_direct_pg`
//!   (PostgreSQL, the test kit's throwaway server): payouts per
//!   second through the ledger (the batch recorded in one transaction, as
//!   `crossborder payout --ledger` does, then a dispatcher sending them
//!   until none is left) over the SDK's own `payouts().create` of as many
//!   payouts from as many tasks as the dispatcher's concurrency
//!   (`--ledger-concurrency`, 16 by default; the dispatcher claims up to
//!   1,000 ahead of its free slots), against
//!   the same release sandbox, in alternating rounds.
//! - `ledger_settle_vs_direct` (SQLite): the same, each payout followed
//!   until the service reports it settled (`run_until_idle`), over the SDK's
//!   `create` then `get` of each; `ledger_quoted_vs_direct` (SQLite):
//!   converting payouts (USD to NGN) recorded without `rateKey`, quoted by
//!   the dispatcher at send time, over the SDK's `quotes().get` then
//!   `create` of each; same tasks, rounds and sandbox.
//! - `ledger_record_scaling`: the time per item of recording a batch of
//!   16,000 items without `sessionId` (each given an id derived from the
//!   batch's content) over that of a batch of 1,000, in alternating
//!   rounds: 1 when recording is linear in a batch's size, 16 when
//!   quadratic.

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{anyhow, bail, Context, Result};
use crossborder::types::{PayoutRequest, QuoteRequest, TransactionStatus};
use crossborder::{Client, Currency, Decimal};
use crossborder_ledger::{DispatchOptions, Dispatcher, Ledger};
use crossborder_testkit::fixtures;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqliteSynchronous};
use sqlx::ConnectOptions;
use tokio::time::Instant;

use super::load::API_KEY;
use super::{Figure, Options};

/// Payouts the dispatcher claims ahead of its free sending slots (its
/// `window`): a whole round's batch in one or two claims.
const WINDOW: usize = 1_000;

/// Every figure of the group against the sandbox at `base_url`, with its
/// files under `dir`.
pub(super) async fn figures(base_url: &str, dir: &Path, options: &Options) -> Result<Vec<Figure>> {
    if dir.exists() {
        std::fs::remove_dir_all(dir).with_context(|| format!("emptying {}", dir.display()))?;
    }
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let client = Client::builder()
        .api_key(API_KEY)
        .base_url(base_url)
        .build()
        .map_err(|e| anyhow!("building the SDK client: {e}"))?;
    let mut figures = submit_vs_sqlite(dir, options).await?;
    figures.push(record_scaling(dir, options).await?);
    for (name, kind) in [
        ("ledger_dispatch_vs_direct", Kind::Send),
        ("ledger_settle_vs_direct", Kind::Settle),
        ("ledger_quoted_vs_direct", Kind::Quoted),
    ] {
        // A ledger each: one run follows every accepted payout in it.
        let sqlite = format!("sqlite://{}", dir.join(format!("{name}.db")).display());
        figures.push(dispatch_vs_direct(name, &sqlite, &client, options, kind).await?);
    }
    // The test kit's throwaway server (Debian's package): fsync off, as
    // for tests, so this figure is the ledger's own cost, not a disk's.
    let postgres = crossborder_testkit::postgres::Postgres::start()
        .map_err(|e| anyhow!("starting PostgreSQL (Debian's postgresql package): {e}"))?;
    let url = postgres
        .create_database("bench_dispatch")
        .map_err(|e| anyhow!("creating the database: {e}"))?;
    figures.push(
        dispatch_vs_direct(
            "ledger_dispatch_vs_direct_pg",
            &url,
            &client,
            options,
            Kind::Send,
        )
        .await?,
    );
    Ok(figures)
}

/// `ledger_record_scaling`: batches of both sizes recorded in a SQLite
/// ledger, each round's with content of its own.
async fn record_scaling(dir: &Path, options: &Options) -> Result<Figure> {
    let ledger = Ledger::open(&format!("sqlite://{}", dir.join("record.db").display()))
        .await
        .map_err(|e| anyhow!("opening the ledger: {e}"))?;
    // Sixteen times as many items in the large batch; a tenth of each in
    // a quick run.
    let (small_batch, large_batch) = if options.quick {
        (100, 1_600)
    } else {
        (1_000, 16_000)
    };
    let record = |tag: String, count: usize| {
        let ledger = &ledger;
        async move {
            let items: Vec<_> = (0..count)
                .map(|i| {
                    let mut item = fixtures::ngn_payout_json("", "1.00");
                    if let Some(fields) = item.as_object_mut() {
                        fields.remove("sessionId");
                    }
                    item["narration"] = format!("{tag} salary {i}").into();
                    item
                })
                .collect();
            let started = Instant::now();
            ledger
                .record_batch(&tag, &items)
                .await
                .map_err(|e| anyhow!("recording {count} items: {e}"))?;
            anyhow::Ok(started.elapsed())
        }
    };
    let (mut small, mut large) = (Duration::ZERO, Duration::ZERO);
    for round in 0..options.rounds() {
        let (s, l) = (format!("small-{round}"), format!("large-{round}"));
        let (small_time, large_time) = if round % 2 == 0 {
            let small_time = record(s, small_batch).await?;
            (small_time, record(l, large_batch).await?)
        } else {
            let large_time = record(l, large_batch).await?;
            (record(s, small_batch).await?, large_time)
        };
        println!(
            "    round {}/{}: {small_batch} items without sessionId recorded in {} ms, {large_batch} in {} ms",
            round + 1,
            options.rounds(),
            small_time.as_millis(),
            large_time.as_millis()
        );
        small += small_time;
        large += large_time;
    }
    let per_item = |total: Duration, count: usize| {
        total.as_secs_f64() * 1e6 / (count * options.rounds()) as f64
    };
    let (small_us, large_us) = (per_item(small, small_batch), per_item(large, large_batch));
    Ok(Figure {
        name: "ledger_record_scaling",
        value: large_us / small_us,
        goal: 1.5,
        below: true,
        unit: "ratio",
        detail: format!(
            "{large_us:.1} / {small_us:.1} µs per item, batches of {large_batch} / {small_batch} items without sessionId, SQLite, {} alternating rounds",
            options.rounds()
        ),
    })
}

/// Tasks submitting at once for `ledger_submit_64_vs_sqlite`.
const SUBMITTING_TASKS: usize = 64;

/// `ledger_submit_vs_sqlite` and `ledger_submit_64_vs_sqlite`.
async fn submit_vs_sqlite(dir: &Path, options: &Options) -> Result<Vec<Figure>> {
    let ledger = Ledger::open(&format!("sqlite://{}", dir.join("submit.db").display()))
        .await
        .map_err(|e| anyhow!("opening the ledger: {e}"))?;
    let mut bare = SqliteConnectOptions::new()
        .filename(dir.join("bare.db"))
        .create_if_missing(true)
        .journal_mode(SqliteJournalMode::Wal)
        .synchronous(SqliteSynchronous::Full)
        .connect()
        .await
        .context("opening the bare SQLite file")?;
    sqlx::query(
        "CREATE TABLE rows (id INTEGER PRIMARY KEY, session_id TEXT NOT NULL UNIQUE, body TEXT NOT NULL)",
    )
    .execute(&mut bare)
    .await
    .context("creating the bare table")?;
    let mut sides = Submits {
        ledger,
        bare,
        body: fixtures::ngn_payout_json("bench", "1.00").to_string(),
        next: 0,
    };
    let window = options.duration;
    sides.count(Side::Bare, options.warmup()).await?;
    sides.count(Side::Ledger, options.warmup()).await?;
    sides.count(Side::Tasks, options.warmup()).await?;
    let (mut submits, mut inserts, mut grouped) = (0, 0, 0);
    for round in 0..options.rounds() {
        // The side that goes first alternates: the file each side grows
        // and the disk's cache meet the sides alike.
        let order = if round % 2 == 0 {
            [Side::Bare, Side::Ledger, Side::Tasks]
        } else {
            [Side::Tasks, Side::Ledger, Side::Bare]
        };
        for side in order {
            let n = sides.count(side, window).await?;
            match side {
                Side::Bare => inserts += n,
                Side::Ledger => submits += n,
                Side::Tasks => grouped += n,
            }
        }
        println!(
            "    round {}/{}: {submits} submits, {grouped} from {SUBMITTING_TASKS} tasks, {inserts} bare inserts so far",
            round + 1,
            options.rounds()
        );
    }
    let per_sec = |n: usize| n as f64 / (window.as_secs_f64() * options.rounds() as f64);
    Ok(vec![
        Figure::ratio(
            "ledger_submit_vs_sqlite",
            per_sec(submits),
            per_sec(inserts),
            0.5,
            format!(
                "{:.0} / {:.0} durable commits/s, one at a time, SQLite WAL synchronous=FULL on the same disk, {} alternating rounds of {} ms",
                per_sec(submits),
                per_sec(inserts),
                options.rounds(),
                window.as_millis()
            ),
        ),
        Figure::ratio(
            "ledger_submit_64_vs_sqlite",
            per_sec(grouped),
            per_sec(inserts),
            1.0,
            format!(
                "{:.0} durable submits/s from {SUBMITTING_TASKS} tasks at once / {:.0} bare commits/s one at a time, same rounds",
                per_sec(grouped),
                per_sec(inserts),
            ),
        ),
    ])
}

#[derive(Clone, Copy)]
enum Side {
    Bare,
    Ledger,
    /// `Ledger::submit` from [`SUBMITTING_TASKS`] tasks at once.
    Tasks,
}

/// Both sides of `ledger_submit_vs_sqlite`.
struct Submits {
    ledger: Ledger,
    bare: sqlx::SqliteConnection,
    /// The bare row's text: a payout's JSON, as the ledger stores one.
    body: String,
    /// The next session id's number (unique across both sides).
    next: usize,
}

impl Submits {
    /// How many commits `side` makes in `window`, one at a time, as an
    /// application records each payout before it answers its caller.
    async fn count(&mut self, side: Side, window: Duration) -> Result<usize> {
        if let Side::Tasks = side {
            return self.count_from_tasks(window).await;
        }
        let end = Instant::now() + window;
        let mut count = 0;
        while Instant::now() < end {
            let session = format!("bench-{}", self.next);
            self.next += 1;
            match side {
                Side::Bare => {
                    sqlx::query("INSERT INTO rows (session_id, body) VALUES (?, ?)")
                        .bind(session)
                        .bind(&self.body)
                        .execute(&mut self.bare)
                        .await
                        .context("a bare insert")?;
                }
                Side::Ledger | Side::Tasks => {
                    self.ledger
                        .submit(&fixtures::ngn_bank_payout(Decimal::ONE, &session))
                        .await
                        .map_err(|e| anyhow!("a ledger submit: {e}"))?;
                }
            }
            count += 1;
        }
        Ok(count)
    }

    /// How many submits [`SUBMITTING_TASKS`] tasks make in `window`, each
    /// one at a time, as a service recording its callers' payouts does.
    async fn count_from_tasks(&mut self, window: Duration) -> Result<usize> {
        let end = Instant::now() + window;
        let first = self.next;
        let mut tasks = tokio::task::JoinSet::new();
        for task in 0..SUBMITTING_TASKS {
            let ledger = self.ledger.clone();
            tasks.spawn(async move {
                let mut count = 0;
                while Instant::now() < end {
                    let session = format!("bench-{first}-task-{task}-{count}");
                    ledger
                        .submit(&fixtures::ngn_bank_payout(Decimal::ONE, &session))
                        .await
                        .map_err(|e| anyhow!("a ledger submit: {e}"))?;
                    count += 1;
                }
                anyhow::Ok(count)
            });
        }
        let mut count = 0;
        while let Some(done) = tasks.join_next().await {
            count += done.context("a submitting task panicked")??;
        }
        // Later session ids stay unique.
        self.next += 1;
        Ok(count)
    }
}

/// What a dispatch figure sends, and how far.
#[derive(Debug, Clone, Copy)]
enum Kind {
    /// NGN payouts until accepted (`send_pending`); directly, `create`.
    Send,
    /// NGN payouts until settled (`run_until_idle`); directly, `create`
    /// then `get`.
    Settle,
    /// USD to NGN payouts recorded without `rateKey`, until accepted;
    /// directly, `quotes().get` then `create` with its rate key.
    Quoted,
}

impl Kind {
    /// How far each side takes its payouts, for the figure's detail.
    fn what(self) -> &'static str {
        match self {
            Kind::Send => "until accepted",
            Kind::Settle => "until settled; directly create then get",
            Kind::Quoted => "USD to NGN quoted at send time; directly quote then create",
        }
    }

    /// The batch item `i` of round `tag`, as the API's JSON.
    fn item(self, tag: &str, i: usize) -> serde_json::Value {
        let session_id = format!("{tag}-ledger-{i}");
        match self {
            Kind::Send | Kind::Settle => fixtures::ngn_payout_json(&session_id, "1.00"),
            Kind::Quoted => {
                let mut item = fixtures::converting_payout_json("NGN", "0.01");
                item["sessionId"] = session_id.into();
                item
            }
        }
    }

    /// One payout the SDK's own way, as the ledger's side makes it.
    async fn direct(self, client: &Client, session_id: &str) -> Result<()> {
        let payout = match self {
            Kind::Send | Kind::Settle => fixtures::ngn_bank_payout(Decimal::ONE, session_id),
            Kind::Quoted => {
                let asked = QuoteRequest::new(Currency::Usd, Currency::Ngn, Decimal::new(1, 2));
                let quote = client
                    .quotes()
                    .get(asked)
                    .await
                    .map_err(|e| anyhow!("a direct quote: {e}"))?;
                PayoutRequest::from_quote_with_session_id(&quote, session_id, fixtures::ngn_bank())
                    .map_err(|e| anyhow!("a direct payout from its quote: {e}"))?
            }
        };
        client
            .payouts()
            .create(&payout)
            .await
            .map_err(|e| anyhow!("a direct payout: {e}"))?;
        if let Kind::Settle = self {
            let read = client
                .payouts()
                .get(session_id)
                .await
                .map_err(|e| anyhow!("reading a direct payout: {e}"))?;
            if read.status != TransactionStatus::Completed {
                bail!("a direct payout is {:?}, not settled", read.status);
            }
        }
        Ok(())
    }
}

/// `ledger_dispatch_vs_direct_*` and the other dispatch figures (`kind`)
/// on the ledger at `url`.
async fn dispatch_vs_direct(
    name: &'static str,
    url: &str,
    client: &Client,
    options: &Options,
    kind: Kind,
) -> Result<Figure> {
    let ledger = Ledger::open(url)
        .await
        .map_err(|e| anyhow!("opening the ledger: {e}"))?;
    let dispatcher = ledger
        .dispatcher(
            client.clone(),
            DispatchOptions::new("bench")
                .concurrency(options.ledger_concurrency)
                .window(WINDOW.max(options.ledger_concurrency)),
        )
        .await
        .map_err(|e| anyhow!("starting the dispatcher: {e}"))?;
    let count = if options.quick { 100 } else { 1_000 };
    let (mut through, mut direct) = (Duration::ZERO, Duration::ZERO);
    for round in 0..options.rounds() {
        let tag = format!("{name}-{round}");
        // The side that goes first alternates, as in every ratio here.
        let (ledger_time, direct_time) = if round % 2 == 0 {
            let ledger_time = through_ledger(&ledger, &dispatcher, &tag, count, kind).await?;
            let concurrency = options.ledger_concurrency;
            (
                ledger_time,
                send_direct(client, &tag, count, concurrency, kind).await?,
            )
        } else {
            let concurrency = options.ledger_concurrency;
            let direct_time = send_direct(client, &tag, count, concurrency, kind).await?;
            (
                through_ledger(&ledger, &dispatcher, &tag, count, kind).await?,
                direct_time,
            )
        };
        println!(
            "    round {}/{}: {count} payouts through the ledger in {} ms, directly in {} ms",
            round + 1,
            options.rounds(),
            ledger_time.as_millis(),
            direct_time.as_millis()
        );
        through += ledger_time;
        direct += direct_time;
    }
    let total = (count * options.rounds()) as f64;
    let (through, direct) = (total / through.as_secs_f64(), total / direct.as_secs_f64());
    Ok(Figure::ratio(
        name,
        through,
        direct,
        0.5,
        format!(
            "{through:.0} / {direct:.0} payouts/s, {count} per round recorded as one batch then dispatched ({}), {} in flight (window {}), {} alternating rounds",
            kind.what(),
            options.ledger_concurrency,
            WINDOW.max(options.ledger_concurrency),
            options.rounds()
        ),
    ))
}

/// How long `count` payouts take through the ledger: recorded as one
/// batch (as `crossborder payout --ledger` records a file), then taken by
/// `dispatcher` as far as `kind` says.
async fn through_ledger(
    ledger: &Ledger,
    dispatcher: &Dispatcher,
    tag: &str,
    count: usize,
    kind: Kind,
) -> Result<Duration> {
    let started = Instant::now();
    let items: Vec<_> = (0..count).map(|i| kind.item(tag, i)).collect();
    ledger
        .record_batch(tag, &items)
        .await
        .map_err(|e| anyhow!("recording the batch: {e}"))?;
    let recorded = started.elapsed();
    let report = match kind {
        Kind::Send | Kind::Quoted => dispatcher.send_pending(|_| {}).await,
        Kind::Settle => dispatcher.run_until_idle(|_| {}).await,
    }
    .map_err(|e| anyhow!("dispatching: {e}"))?;
    let done = match kind {
        Kind::Send | Kind::Quoted => report.accepted,
        Kind::Settle => report.completed,
    };
    if (report.sent, done) != (count, count) {
        bail!(
            "the dispatcher sent {} and finished {done} of {count} payouts ({report:?})",
            report.sent
        );
    }
    let total = started.elapsed();
    println!(
        "      through the ledger: recorded in {} ms, sent in {} ms",
        recorded.as_millis(),
        (total - recorded).as_millis()
    );
    Ok(total)
}

/// `count` payouts the SDK's own way (`kind`) from `concurrency` tasks.
async fn send_direct(
    client: &Client,
    tag: &str,
    count: usize,
    concurrency: usize,
    kind: Kind,
) -> Result<Duration> {
    let next = Arc::new(AtomicUsize::new(0));
    let started = Instant::now();
    let mut tasks = tokio::task::JoinSet::new();
    for _ in 0..concurrency {
        let (client, next, tag) = (client.clone(), next.clone(), tag.to_owned());
        tasks.spawn(async move {
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= count {
                    return anyhow::Ok(());
                }
                kind.direct(&client, &format!("{tag}-direct-{i}")).await?;
            }
        });
    }
    while let Some(done) = tasks.join_next().await {
        done.context("a payout task panicked")??;
    }
    Ok(started.elapsed())
}
