//! Payouts through the durable ledger (`crossborder-ledger`):
//! `payout --body FILE --ledger ...` and `ledger list|show|resume`.
//!
//! The ledger does the work (records the batch before anything is sent,
//! sends each payout once, reads back what was left in flight); this module
//! opens it, shows its progress and its records, and says what to do next.

use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant, SystemTime};

use crossborder::json::check_payout_json_unquoted;
use crossborder::Client;
use crossborder_ledger::{
    DispatchOptions, DispatchReport, Ledger, LedgerError, PayoutEvent, PayoutRecord, PayoutState,
    RateGuard,
};
use serde_json::{json, Value};

use crate::batch;
use crate::failure::{self, Failure};
use crate::progress;
use crate::render::{self, Output};

/// Exit code of a run stopped by Ctrl-C (128 + SIGINT, as shells report it).
const INTERRUPTED: u8 = 130;

/// The ledger named by `--ledger` or `CROSSBORDER_LEDGER`, opened; a
/// SQLite file is created only by `payout --ledger` (`create`), so a
/// mistyped name in `ledger list` is an error, not a new empty ledger.
pub async fn open(ledger: Option<&str>, create: bool) -> Result<Ledger, Failure> {
    let url = ledger.ok_or_else(|| {
        Failure::usage(
            "no ledger: pass --ledger PATH_OR_URL (a SQLite file such as payouts.db, \
             or a postgres:// URL) or set CROSSBORDER_LEDGER",
        )
    })?;
    if let Some(path) = sqlite_file(url).filter(|path| !create && !path.exists()) {
        return Err(Failure::usage(format!(
            "no ledger at {}: `crossborder payout --body FILE --ledger {url}` creates it",
            path.display()
        )));
    }
    Ledger::open(url).await.map_err(|error| match error {
        // Its message names the URL already (without a password).
        LedgerError::Url { .. } => Failure::usage(error.to_string()),
        LedgerError::Open { .. } | LedgerError::NotALedger { .. } => {
            database_failure(error.to_string())
        }
        other => database_failure(format!("cannot open the ledger {}: {other}", shown(url))),
    })
}

/// A failure of the ledger's database: its own exit code.
fn database_failure(message: String) -> Failure {
    let mut failure = Failure::runtime(message);
    failure.code = failure::DATABASE;
    failure
}

/// The file of a SQLite ledger URL (a path, `sqlite://PATH`, `sqlite:PATH`).
fn sqlite_file(url: &str) -> Option<&Path> {
    if url.contains("://") && !url.starts_with("sqlite://") {
        return None;
    }
    let path = url
        .strip_prefix("sqlite://")
        .or_else(|| url.strip_prefix("sqlite:"))
        .unwrap_or(url);
    let path = path.split('?').next().unwrap_or(path);
    (!path.is_empty() && path != ":memory:").then(|| Path::new(path))
}

/// `url` as it may be printed: a PostgreSQL URL's password masked.
fn shown(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_owned();
    };
    let Some((user_info, host)) = rest.rsplit_once('@') else {
        return url.to_owned();
    };
    match user_info.split_once(':') {
        Some((user, _password)) => format!("{scheme}://{user}:***@{host}"),
        None => url.to_owned(),
    }
}

/// `payout --body FILE --ledger URL`: the whole file recorded, then sent.
pub async fn pay(
    client: impl FnOnce() -> Result<Client, Failure>,
    file: &Path,
    body: &Value,
    url: &str,
    how: How,
    as_json: bool,
    guard: Option<RateGuard>,
) -> Result<(), Failure> {
    let wait = how.wait;
    if file == Path::new("-") {
        return Err(Failure::usage(
            "--ledger needs --body FILE: a run is recognised again by its file, and stdin has none",
        ));
    }
    let key = std::fs::canonicalize(file)
        .map_err(|e| Failure::usage(format!("cannot read {}: {e}", file.display())))?;
    let (is_batch, bodies) = batch::elements(body);
    check(is_batch, &bodies)?;
    // Before anything is recorded: a run that cannot send records nothing.
    let client = client()?;
    let ledger = open(Some(url), true).await?;
    let ran = async {
        let items: Vec<Value> = bodies.into_iter().cloned().collect();
        let records = ledger
            .record_batch_guarded(&key.to_string_lossy(), &items, guard)
            .await
            .map_err(|error| match error {
                LedgerError::BatchChanged { items, .. } => changed(file, &items),
                other => trouble(url, &other, wait),
            })?;
        let sessions: Vec<String> = records.iter().map(|r| r.session_id.clone()).collect();
        dispatch(&ledger, url, client, Some(&sessions), how).await?;
        let mut finished = Vec::with_capacity(sessions.len());
        for session in &sessions {
            let record = ledger.payout(session).await;
            finished.extend(record.map_err(|e| trouble(url, &e, wait))?);
        }
        print_batch(is_batch, &finished, as_json);
        outcome(&finished)
    }
    .await;
    // Closed: a SQLite ledger is then whole in its main file.
    ledger.close().await;
    ran
}

/// Every element valid before anything is recorded. An element without a
/// sessionId is given one when recorded, so it is checked with a
/// stand-in; a converting one without rateKey is quoted when sent, so it
/// is checked for everything but the quote.
fn check(is_batch: bool, bodies: &[&Value]) -> Result<(), Failure> {
    let verdicts: Vec<_> = bodies
        .iter()
        .map(|body| {
            let mut body = (*body).clone();
            if let Value::Object(fields) = &mut body {
                fields
                    .entry("sessionId")
                    .or_insert_with(|| json!("given-when-recorded"));
            }
            check_payout_json_unquoted(&body)
        })
        .collect();
    if verdicts.iter().all(|v| v.valid) {
        return Ok(());
    }
    let mut failure = Failure::usage("invalid payout; nothing was recorded or sent");
    failure
        .lines
        .extend(crate::payout_file::verdict_lines(is_batch, &verdicts));
    Err(failure)
}

/// The refusal of a file changed since its batch was recorded: which
/// elements differ (the ledger counts from 1, the command's `[index]` from
/// 0, as `--dry-run` prints them).
fn changed(file: &Path, positions: &[usize]) -> Failure {
    let elements: Vec<String> = positions
        .iter()
        .map(|p| format!("[{}]", p.saturating_sub(1)))
        .collect();
    let (noun, verb) = if elements.len() == 1 {
        ("element", "differs")
    } else {
        ("elements", "differ")
    };
    let mut failure = Failure::usage(format!(
        "{} has changed since it was recorded in the ledger: {noun} {} {verb}; nothing was sent",
        file.display(),
        elements.join(", ")
    ));
    failure.lines.push(
        "  put the file back as it was to finish that batch, or save new payouts as a new file"
            .to_owned(),
    );
    failure
}

/// A ledger error while running: the ledger keeps everything, so the
/// command says how to go on (`wait`: the run followed accepted payouts).
fn trouble(url: &str, error: &LedgerError, wait: bool) -> Failure {
    match error {
        LedgerError::Api(error) => {
            let mut failure = Failure::of(error);
            failure.lines.push(how_to_go_on(wait));
            failure
        }
        LedgerError::Database(_)
        | LedgerError::Migrate(_)
        | LedgerError::Io { .. }
        | LedgerError::Corrupt { .. }
        | LedgerError::Open { .. }
        | LedgerError::NotALedger { .. } => {
            let mut failure = database_failure(format!("on the ledger {}: {error}", shown(url)));
            failure.lines.push(how_to_go_on(wait));
            failure
        }
        LedgerError::Invalid(violations) => Failure::from(violations.clone()),
        LedgerError::InvalidItems(items) => {
            let mut failure = Failure::usage("invalid payout; nothing was recorded or sent");
            for (position, violations) in items {
                let prefix = batch::prefix(true, position.saturating_sub(1));
                failure.lines.extend(
                    violations
                        .iter()
                        .map(|v| format!("{prefix}  {}: {}", v.field, v.message)),
                );
            }
            failure
        }
        other => Failure::runtime(other.to_string()),
    }
}

const HOW_TO_GO_ON: &str =
    "  nothing is lost: run the same command again (or `crossborder ledger resume`) to finish";

/// What to run next after a stop: `ledger resume --wait` after a run that
/// followed accepted payouts, which a plain resume would not follow.
fn how_to_go_on(wait: bool) -> String {
    if wait {
        "  nothing is lost: run the same command again (or `crossborder ledger resume --wait`) \
         to finish"
            .to_owned()
    } else {
        HOW_TO_GO_ON.to_owned()
    }
}

/// How a run goes: whether it follows accepted payouts until they settle,
/// and how long it waits without any payout moving on before it gives up.
#[derive(Debug, Clone, Copy)]
pub struct How {
    pub wait: bool,
    pub give_up: Duration,
}

/// How long a run waits without any payout moving on before it says on
/// stderr what it waits for (at most half the give-up bound), and how
/// often it says so again.
const NOTICE_AFTER: Duration = Duration::from_secs(3);
const NOTICE_EVERY: Duration = Duration::from_secs(10);

/// Runs the dispatcher with a bar over `batch` (every unfinished payout
/// when `None`), stopping cleanly on Ctrl-C, and saying on stderr what it
/// waits for when no payout moves on for a while: after `how.give_up`
/// without any, it stops. A stopped run lets go of its payouts at once.
async fn dispatch(
    ledger: &Ledger,
    url: &str,
    client: Client,
    batch: Option<&[String]>,
    how: How,
) -> Result<DispatchReport, Failure> {
    let wait = how.wait;
    let api = client.base_url().to_owned();
    let dispatcher = ledger
        .dispatcher(client, DispatchOptions::default())
        .map_err(|e| trouble(url, &e, wait))?;
    let watched: Vec<PayoutRecord> = match batch {
        Some(sessions) => {
            let mut records = Vec::new();
            for session in sessions {
                let record = ledger.payout(session).await;
                records.extend(record.map_err(|e| trouble(url, &e, wait))?);
            }
            records
        }
        None => ledger.payouts().await.map_err(|e| trouble(url, &e, wait))?,
    };
    let done = |state: PayoutState| finished(state, wait);
    let mut open: std::collections::BTreeSet<String> = watched
        .iter()
        .filter(|r| batch.is_some() || !done(r.state))
        .map(|r| r.session_id.clone())
        .collect();
    let total = open.len() as u64;
    let bar = progress::bar(total, if wait { "paying" } else { "sending" }.to_owned());
    open.retain(|session| {
        watched
            .iter()
            .any(|r| &r.session_id == session && !done(r.state))
    });
    bar.set_position(total - open.len() as u64);
    let followed: Vec<String> = open.iter().cloned().collect();
    let started = Instant::now();
    // When a payout last moved on, in ms since `started`.
    let moved = AtomicU64::new(0);
    let since_start = || u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
    let progress = |record: &PayoutRecord| {
        moved.store(since_start(), Ordering::Relaxed);
        if done(record.state) && open.remove(&record.session_id) {
            bar.inc(1);
        }
    };
    let run = async {
        if wait {
            dispatcher.run_until_idle(progress).await
        } else {
            dispatcher.send_pending(progress).await
        }
    };
    let notice_after = NOTICE_AFTER.min(how.give_up / 2);
    let watch = async {
        let mut last_notice: Option<Duration> = None;
        // The states last read: a change made by another process (a
        // fleet on PostgreSQL) is progress too.
        let mut seen: Option<Vec<PayoutState>> = None;
        loop {
            tokio::time::sleep(Duration::from_millis(200)).await;
            let quiet =
                Duration::from_millis(since_start().saturating_sub(moved.load(Ordering::Relaxed)));
            let due = last_notice.is_none_or(|at| quiet >= at + NOTICE_EVERY || quiet < at);
            if quiet < how.give_up && !(quiet >= notice_after && due) {
                continue;
            }
            let waiting = waiting(ledger, &followed, wait).await;
            if seen
                .as_ref()
                .is_some_and(|states| states != &waiting.states)
            {
                moved.store(since_start(), Ordering::Relaxed);
                seen = Some(waiting.states);
                last_notice = None;
                continue;
            }
            if quiet >= how.give_up {
                return waiting;
            }
            last_notice = Some(quiet);
            let line = waiting.notice(&api, quiet, how.give_up);
            seen = Some(waiting.states);
            bar.suspend(|| eprintln!("{line}"));
        }
    };
    let stopped = tokio::select! {
        result = run => {
            bar.finish_and_clear();
            return result.map_err(|e| trouble(url, &e, wait));
        }
        _ = tokio::signal::ctrl_c() => {
            let mut failure = Failure::runtime("interrupted");
            failure.lines.push(how_to_go_on(wait));
            failure.code = INTERRUPTED;
            failure
        }
        waiting = watch => {
            let mut failure = Failure::runtime(waiting.gave_up(&api, how.give_up));
            failure.lines.push(how_to_go_on(wait));
            failure
        }
    };
    bar.abandon();
    // The run is dropped: its payouts are let go of, so the next run
    // starts at once (each `sending` one is read first).
    let _ = tokio::time::timeout(Duration::from_secs(5), dispatcher.release()).await;
    Err(stopped)
}

/// What a run waits for: its payouts not sent or not answered yet, or,
/// following, those accepted and not settled; with the last error met.
struct Waiting {
    unanswered: Vec<String>,
    accepted: Vec<String>,
    last_error: Option<String>,
    /// The state of each payout followed, as read.
    states: Vec<PayoutState>,
}

/// The payouts of `followed` a run still waits for, each named by its
/// position in its file (`[index]`) and its session id.
async fn waiting(ledger: &Ledger, followed: &[String], wait: bool) -> Waiting {
    let mut found = Waiting {
        unanswered: Vec::new(),
        accepted: Vec::new(),
        last_error: None,
        states: Vec::new(),
    };
    for session in followed {
        let Ok(Some(record)) = ledger.payout(session).await else {
            continue;
        };
        found.states.push(record.state);
        match record.state {
            PayoutState::Recorded | PayoutState::Sending | PayoutState::Unknown => {
                found.unanswered.push(named(&record));
                if found.last_error.is_none() {
                    found.last_error = record.message.clone();
                }
            }
            PayoutState::Accepted if wait => found.accepted.push(named(&record)),
            _ => {}
        }
    }
    found
}

impl Waiting {
    /// `waiting for the API at URL to answer for 2 payouts ([0] a, [1] b):
    /// 3 s so far, giving up after 60 s; last error: ...`.
    fn notice(&self, api: &str, quiet: Duration, give_up: Duration) -> String {
        let mut line = if self.unanswered.is_empty() && !self.accepted.is_empty() {
            format!(
                "following {} until settled, at the API at {api}",
                listed(&self.accepted, "accepted payout")
            )
        } else {
            format!(
                "waiting for the API at {api} to answer for {}",
                listed(&self.unanswered, "payout")
            )
        };
        line.push_str(&format!(
            ": {} s so far, giving up after {} s",
            quiet.as_secs(),
            give_up.as_secs()
        ));
        if let Some(error) = &self.last_error {
            line.push_str(&format!("; last error: {error}"));
        }
        line
    }

    /// The error of a run that gave up.
    fn gave_up(&self, api: &str, give_up: Duration) -> String {
        let secs = give_up.as_secs();
        if self.unanswered.is_empty() && !self.accepted.is_empty() {
            return format!(
                "stopped following after {secs} s without a change: {} still not settled",
                listed(&self.accepted, "accepted payout")
            );
        }
        let mut text = format!(
            "gave up after {secs} s without an answer from the API at {api} for {}",
            listed(&self.unanswered, "payout")
        );
        if let Some(error) = &self.last_error {
            text.push_str(&format!(" (last error: {error})"));
        }
        text
    }
}

/// `2 payouts ([0] a, [1] b)`, at most five named.
fn listed(names: &[String], noun: &str) -> String {
    let plural = if names.len() == 1 { "" } else { "s" };
    let mut shown: Vec<&str> = names.iter().take(5).map(String::as_str).collect();
    let more = names.len().saturating_sub(5);
    let more = format!("and {more} more");
    if names.len() > 5 {
        shown.push(&more);
    }
    format!("{} {noun}{plural} ({})", names.len(), shown.join(", "))
}

/// A payout as a person finds it: `[index] sessionId` (its position in
/// its file, from 0, as the command's other lines count), or the session
/// id alone when it came in no batch.
fn named(record: &PayoutRecord) -> String {
    match &record.batch {
        Some((_, position)) => format!("[{}] {}", position.saturating_sub(1), record.session_id),
        None => record.session_id.clone(),
    }
}

/// Whether a payout in `state` needs nothing more from this run.
fn finished(state: PayoutState, wait: bool) -> bool {
    match state {
        PayoutState::Accepted => !wait,
        PayoutState::Completed | PayoutState::Failed | PayoutState::Refused => true,
        _ => false,
    }
}

/// Exit 0 when every payout went through; 1 naming each refused or
/// failed one.
fn outcome(records: &[PayoutRecord]) -> Result<(), Failure> {
    // Records of one file are named by position alone; from several (a
    // resume), each position follows its file.
    let first = records
        .first()
        .and_then(|r| r.batch.as_ref())
        .map(|(k, _)| k);
    let single_file = records
        .iter()
        .all(|r| r.batch.as_ref().map(|(k, _)| k) == first);
    let bad: Vec<String> = records
        .iter()
        .filter(|r| matches!(r.state, PayoutState::Refused | PayoutState::Failed))
        .map(|r| {
            let file = match &r.batch {
                Some((key, _)) if !single_file => key.clone(),
                _ => String::new(),
            };
            format!(
                "  {file}{} {}: {}",
                named(r),
                r.state,
                r.message.as_deref().unwrap_or("no message")
            )
        })
        .collect();
    if bad.is_empty() {
        return Ok(());
    }
    let mut failure = Failure::runtime(format!(
        "{} of {} payouts did not go through",
        bad.len(),
        records.len()
    ));
    failure.lines.extend(bad);
    Err(failure)
}

/// One payout as `ledger list --json` prints it: every amount an exact
/// decimal string.
fn record_json(record: &PayoutRecord) -> Value {
    json!({
        "sessionId": record.session_id,
        "state": record.state.to_string(),
        "amount": record.amount.to_string(),
        "fromCurrency": record.from_currency.as_str(),
        "toCurrency": record.to_currency.as_str(),
        "transactionId": record.transaction_id,
        "message": record.message,
        "reason": record.reason,
        "updatedAt": instant(record.updated_at),
    })
}

/// One payout as a table row: `sessionId  state  amount FROM -> TO`.
fn record_line(record: &PayoutRecord, width: usize) -> String {
    let mut line = format!(
        "{:<width$}  {:<9}  {} {} -> {}",
        record.session_id, record.state, record.amount, record.from_currency, record.to_currency
    );
    if let Some(message) = &record.message {
        line.push_str(&format!("  ({message})"));
    }
    line
}

fn print_batch(is_batch: bool, records: &[PayoutRecord], as_json: bool) {
    if as_json {
        let items: Vec<Value> = records
            .iter()
            .enumerate()
            .map(|(index, record)| {
                let mut item = record_json(record);
                if is_batch {
                    item["index"] = json!(index);
                }
                item
            })
            .collect();
        say!("{}", render::pretty(&Value::Array(items)));
        return;
    }
    let width = records
        .iter()
        .map(|r| r.session_id.len())
        .max()
        .unwrap_or(0);
    for (index, record) in records.iter().enumerate() {
        say!(
            "{}{}",
            batch::prefix(is_batch, index),
            record_line(record, width)
        );
    }
}

/// `ledger list`.
pub async fn list(url: Option<&str>, as_json: bool) -> Result<(), Failure> {
    let ledger = open(url, false).await?;
    let records = ledger.payouts().await;
    // Closed: a SQLite ledger is then whole in its main file.
    ledger.close().await;
    let records = records.map_err(|e| trouble(url.unwrap_or_default(), &e, false))?;
    if as_json {
        let items: Vec<Value> = records.iter().map(record_json).collect();
        say!("{}", render::pretty(&Value::Array(items)));
        return Ok(());
    }
    let width = records
        .iter()
        .map(|r| r.session_id.len())
        .max()
        .unwrap_or(0);
    for record in &records {
        say!("{}", record_line(record, width));
    }
    Ok(())
}

/// `ledger show SESSION_ID`: the payout, then each change of its state.
pub async fn show(url: Option<&str>, session_id: &str, as_json: bool) -> Result<(), Failure> {
    let ledger = open(url, false).await?;
    let trouble = |e: LedgerError| trouble(url.unwrap_or_default(), &e, false);
    let record = ledger
        .payout(session_id)
        .await
        .map_err(trouble)?
        .ok_or_else(|| Failure::runtime(format!("the ledger has no payout {session_id}")))?;
    let history = ledger.history(session_id).await.map_err(trouble)?;
    let mut rows = vec![
        ("sessionId".to_owned(), record.session_id.clone()),
        ("state".to_owned(), record.state.to_string()),
        (
            "amount".to_owned(),
            format!(
                "{} {} -> {}",
                record.amount, record.from_currency, record.to_currency
            ),
        ),
    ];
    if let Some(id) = &record.transaction_id {
        rows.push(("transaction".to_owned(), id.clone()));
    }
    if let Some(message) = &record.message {
        rows.push(("message".to_owned(), message.clone()));
    }
    if let Some(reason) = &record.reason {
        rows.push(("reason".to_owned(), reason.code().to_owned()));
    }
    // Each quote the ledger sent it with, oldest first.
    for event in &history {
        if let Some(quote) = event.quote.as_ref().filter(|q| q.used) {
            rows.push((
                "quote".to_owned(),
                format!(
                    "rate {} (rateKey {}, totalAmount {} {}, valid until {})",
                    quote.rate,
                    quote.rate_key,
                    quote
                        .total_amount
                        .map_or_else(|| "not given".to_owned(), |a| a.to_string()),
                    record.from_currency,
                    instant(quote.valid_until).unwrap_or_default()
                ),
            ));
        }
    }
    let events: Vec<Value> = history.iter().map(event_json).collect();
    let output = Output {
        rows,
        json: json!({"payout": record_json(&record), "history": events}),
    };
    output.print(as_json);
    if !as_json {
        // The history below the table: a time is wider than any label.
        say!("history");
        for event in &history {
            say!("  {}", event_line(event));
        }
    }
    Ok(())
}

/// `<time>  <from> -> <to>  (<detail>)`.
fn event_line(event: &PayoutEvent) -> String {
    let change = match event.from {
        Some(from) => format!("{from} -> {}", event.to),
        None => event.to.to_string(),
    };
    let detail = event
        .detail
        .as_deref()
        .map_or(String::new(), |d| format!("  ({d})"));
    format!(
        "{}  {change}{detail}",
        instant(event.at).unwrap_or_default()
    )
}

fn event_json(event: &PayoutEvent) -> Value {
    json!({
        "at": instant(event.at),
        "from": event.from.map(|s| s.to_string()),
        "to": event.to.to_string(),
        "detail": event.detail,
        "quote": event.quote,
    })
}

/// `ledger resume`: what an interrupted run left, finished; with `--wait`,
/// accepted payouts followed until they settle.
pub async fn resume(
    client: impl FnOnce() -> Result<Client, Failure>,
    url: Option<&str>,
    how: How,
    as_json: bool,
) -> Result<(), Failure> {
    let ledger = open(url, false).await?;
    let url = url.unwrap_or_default();
    let ran = async {
        let client = client()?;
        let trouble = |e: LedgerError| trouble(url, &e, how.wait);
        let before = ledger.payouts().await.map_err(trouble)?;
        dispatch(&ledger, url, client, None, how).await?;
        let after = ledger.payouts().await.map_err(trouble)?;
        // What this run moved on: every payout whose state changed.
        let moved: Vec<PayoutRecord> = after
            .into_iter()
            .filter(|record| {
                !before
                    .iter()
                    .any(|b| b.session_id == record.session_id && b.state == record.state)
            })
            .collect();
        if moved.is_empty() && !as_json {
            say!("nothing left to do");
        } else {
            print_batch(false, &moved, as_json);
        }
        outcome(&moved)
    }
    .await;
    // Closed: a SQLite ledger is then whole in its main file.
    ledger.close().await;
    ran
}

/// `ledger backup DESTINATION`: a consistent copy of a SQLite ledger in a
/// new file, safe while a run goes on.
pub async fn backup(url: Option<&str>, destination: &Path) -> Result<(), Failure> {
    let ledger = open(url, false).await?;
    let saved = ledger.backup(destination).await;
    // Closed: a SQLite ledger is then whole in its main file.
    ledger.close().await;
    match saved {
        Ok(()) => {
            say!("{}", destination.display());
            Ok(())
        }
        Err(LedgerError::Unsupported(message)) => Err(Failure::usage(message)),
        Err(error @ LedgerError::Io { .. }) => Err(Failure::usage(error.to_string())),
        Err(error) => Err(trouble(url.unwrap_or_default(), &error, false)),
    }
}

/// An instant of this machine's clock, RFC 3339 in UTC.
fn instant(at: SystemTime) -> Option<String> {
    time::OffsetDateTime::from(at)
        .format(&time::format_description::well_known::Rfc3339)
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_postgres_password_is_never_printed() {
        assert_eq!(
            shown("postgres://app:s3cret@db.internal:5432/payouts"),
            "postgres://app:***@db.internal:5432/payouts"
        );
        assert_eq!(
            shown("postgres://app@db/payouts"),
            "postgres://app@db/payouts"
        );
        assert_eq!(shown("payouts.db"), "payouts.db");
    }

    #[test]
    fn a_list_of_payouts_names_five_and_counts_the_rest() {
        let names: Vec<String> = (0..7).map(|i| format!("[{i}] p-{i}")).collect();
        assert_eq!(
            listed(&names, "payout"),
            "7 payouts ([0] p-0, [1] p-1, [2] p-2, [3] p-3, [4] p-4, and 2 more)"
        );
        assert_eq!(
            listed(&names[..1], "accepted payout"),
            "1 accepted payout ([0] p-0)"
        );
    }

    #[test]
    fn a_changed_file_names_each_element_from_zero() {
        let one = changed(Path::new("batch.json"), &[2]);
        assert_eq!(
            one.lines[0],
            "error: batch.json has changed since it was recorded in the ledger: \
             element [1] differs; nothing was sent"
        );
        let two = changed(Path::new("batch.json"), &[1, 4]);
        assert!(two.lines[0].contains("elements [0], [3] differ"));
    }
}
