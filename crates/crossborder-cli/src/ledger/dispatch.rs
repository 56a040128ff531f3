//! The dispatcher at work under a progress bar: stopped cleanly by Ctrl-C,
//! saying on stderr what it waits for when no payout moves on, and giving
//! up after a bound.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crossborder::Client;
use crossborder_ledger::{DispatchOptions, DispatchReport, Ledger, PayoutRecord, PayoutState};

use super::records::named;
use super::{how_to_go_on, trouble};
use crate::failure::Failure;
use crate::progress;

/// Exit code of a run stopped by Ctrl-C (128 + SIGINT, as shells report it).
const INTERRUPTED: u8 = 130;

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
pub(super) async fn dispatch(
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
        .await
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

/// Whether a payout in `state` needs nothing more from this run.
fn finished(state: PayoutState, wait: bool) -> bool {
    match state {
        PayoutState::Accepted => !wait,
        PayoutState::Completed | PayoutState::Failed | PayoutState::Refused => true,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
