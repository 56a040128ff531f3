//! [`Dispatcher`]: sends what is recorded, resolves what was left in
//! flight by reading first, follows accepted payouts until they settle.

use std::collections::VecDeque;
use std::time::Duration;

use crossborder::__private::{create_new, Created};
use crossborder::types::PayoutRequest;
use crossborder::Client;
use futures_util::stream::{FuturesUnordered, StreamExt};

mod commits;
#[cfg(feature = "sqlite")]
mod lock;
mod outcome;
mod quoting;

use commits::Commits;
use quoting::quote_usable;

use crate::error::LedgerError;
use crate::lease::{Change, Claimed};
use crate::ledger::Ledger;
use crate::options::DispatchOptions;
use crate::record::{DispatchReport, PayoutRecord};
use crate::request;
use crate::state::PayoutState;
use crate::time::{duration_ms, from_ms, now_ms};

/// The most payouts one claim takes (its statements' parameters stay
/// within both databases' limits); a larger window fills over several.
const CLAIMS_PER_TRANSACTION: usize = 1_000;

/// The longest a run sleeps before looking again for work that became due
/// (another dispatcher's lease running out, a payout to read again).
const IDLE_WAIT: Duration = Duration::from_millis(200);

/// Sends a ledger's payouts. Made by [`Ledger::dispatcher`].
///
/// Each payout goes `recorded` → `sending` → `accepted` (→ `completed` or
/// `failed`), or `refused` when the API refuses it. When a send's outcome
/// is unknown (a timeout, a 5xx, a crash between sending and recording),
/// the payout is read by its session id before anything else: found, it is
/// `accepted`; not found, it is sent again with the same session id. A
/// failed payout is never sent again by the dispatcher.
///
/// A converting payout recorded without a `rateKey` is quoted just before
/// it is sent: the dispatcher gets a quote for its pair and amount (the
/// amount in `fromCurrency`, as the payout's), and moves it to `sending`
/// with the quote (rate, rate key, fee, `toAmount`, `totalAmount`, valid
/// until) in the event of that one transaction, then sends it with that
/// key. It is quoted again, under the same session id, only while it is
/// provably unsent: claimed and never sent, or read by its session id and
/// not found (with less than a second of its quote left), or refused for
/// its rate key alone (the SDK's local expiry check, or the API's 400
/// naming `rateKey`). Every quote used stays in its history. With a
/// [`RateGuard`](crate::RateGuard), a worse quote is not used: see
/// [`RateGuard`](crate::RateGuard).
#[derive(Debug)]
pub struct Dispatcher {
    ledger: Ledger,
    client: Client,
    options: DispatchOptions,
    /// SQLite: the database's dispatcher lock, held while this lives.
    #[cfg(feature = "sqlite")]
    _lock: Option<lock::Lock>,
    /// Its payouts' changes, written together when they end at once.
    commits: Commits,
}

impl Ledger {
    /// A dispatcher that sends this ledger's payouts through `client`.
    ///
    /// On SQLite it takes the database's dispatcher lock first: while one
    /// dispatcher lives, another (in any process) is refused with
    /// [`LedgerError::DispatcherBusy`], after waiting a second for it. On
    /// PostgreSQL any number run at once, each payout claimed by one of
    /// them under a lease.
    pub async fn dispatcher(
        &self,
        client: Client,
        options: DispatchOptions,
    ) -> Result<Dispatcher, LedgerError> {
        Dispatcher::new(self.clone(), client, options).await
    }
}

/// What one step on one payout did.
#[derive(Debug, Default)]
struct Step {
    changes: Vec<PayoutRecord>,
    /// A change to apply with the others that ended at about the same
    /// time, in one transaction (a fresh payout's acceptance, any send's
    /// refusal, a settlement).
    pending: Option<(Claimed, Change)>,
    sent: bool,
    resolved_by_reading: bool,
}

impl Dispatcher {
    pub(crate) async fn new(
        ledger: Ledger,
        client: Client,
        options: DispatchOptions,
    ) -> Result<Dispatcher, LedgerError> {
        #[cfg(feature = "sqlite")]
        let lock = match &ledger.path {
            Some(database) => Some(lock::take_lock(&lock::lock_path(database)).await?),
            None => None,
        };
        Ok(Dispatcher {
            ledger,
            client,
            options,
            #[cfg(feature = "sqlite")]
            _lock: lock,
            commits: Commits::default(),
        })
    }

    /// Resolves what was left in flight (reading each payout by its session
    /// id first), sends what is recorded, and follows accepted payouts until
    /// the service reports them `COMPLETED` or `FAILED`; returns when no
    /// payout is left to do. `progress` is called after each state change.
    ///
    /// On PostgreSQL, payouts another dispatcher holds are left to it; when
    /// its lease runs out (it died), this one takes them over, reading
    /// each first. An error that says nothing about a payout (the service
    /// unreachable) is retried with [`DispatchOptions::retry`]; after
    /// [`DispatchOptions::max_errors`] in a row on one payout, on a refused
    /// API key (401, 403), or on a 404 or 405 to a send or a quote (a base
    /// URL that does not reach the API), the run ends with
    /// [`LedgerError::Api`] and the payout stays as it is for the next run.
    pub async fn run_until_idle(
        &self,
        progress: impl FnMut(&PayoutRecord),
    ) -> Result<DispatchReport, LedgerError> {
        self.run(true, progress).await
    }

    /// As [`run_until_idle`](Dispatcher::run_until_idle), but returns once
    /// no payout is `recorded`, `sending` or `unknown`: accepted payouts are
    /// not followed until they settle.
    pub async fn send_pending(
        &self,
        progress: impl FnMut(&PayoutRecord),
    ) -> Result<DispatchReport, LedgerError> {
        self.run(false, progress).await
    }

    /// A run, then: on an error, every payout this dispatcher still holds
    /// let go of (the next run, here or elsewhere, starts at once); and a
    /// SQLite ledger checkpointed, whole in its main file.
    async fn run(
        &self,
        follow: bool,
        progress: impl FnMut(&PayoutRecord),
    ) -> Result<DispatchReport, LedgerError> {
        let result = self.run_inner(follow, progress).await;
        if result.is_err() {
            if let Err(error) = self.release().await {
                tracing::warn!(%error, "the dispatcher's leases could not be released; they run out by themselves");
            }
        }
        self.ledger.checkpoint_or_warn().await;
        result
    }

    /// Lets go of every payout this dispatcher holds, as they are (a
    /// `sending` one stays `sending`, and is read first by whichever run
    /// takes it next): for a caller that stops a run (Ctrl-C), so the next
    /// run does not wait for the leases to run out. A run that ends with an
    /// error does it by itself. Returns how many were let go.
    pub async fn release(&self) -> Result<u64, LedgerError> {
        self.ledger
            .release_leases(&self.options.dispatcher_id)
            .await
    }

    async fn run_inner(
        &self,
        follow: bool,
        mut progress: impl FnMut(&PayoutRecord),
    ) -> Result<DispatchReport, LedgerError> {
        if self.ledger.pool.is_sqlite() {
            self.ledger.release_dead_leases().await?;
        }
        let mut report = DispatchReport::default();
        let mut running = FuturesUnordered::new();
        // Claimed ahead (durably `sending` when fresh), waiting for a slot.
        let mut queue: VecDeque<Claimed> = VecDeque::new();
        // Changes waiting for their group's commit: the sends that ended
        // while the previous commit ran.
        let mut pending: Vec<(Claimed, Change)> = Vec::new();
        let concurrency = self.options.concurrency.max(1);
        let window = self.options.window.max(concurrency);
        let lease = duration_ms(self.options.lease);
        // A window is filled by claims of a few times the concurrency: the
        // first sends start after a small claim, and the next claims run
        // while they are in flight.
        let claim_size = concurrency
            .max(16)
            .saturating_mul(8)
            .min(CLAIMS_PER_TRANSACTION);
        // Starts payouts from the queue while slots are free: one that has
        // waited for a tenth of its lease is not sent (a slow server, a long
        // queue), so every send starts with nearly a whole lease; it stays
        // as it is, and the claim that takes it next reads it first.
        macro_rules! fill {
            () => {
                while running.len() < concurrency {
                    let Some(claimed) = queue.pop_front() else { break };
                    if claimed.lease_until.saturating_sub(now_ms()) < lease - lease / 10 {
                        tracing::debug!(session_id = %claimed.record.session_id, "claimed ahead too long ago; left for the next claim");
                        continue;
                    }
                    running.push(self.step(claimed));
                }
            };
        }
        // The payouts in flight are driven while a statement runs: one of
        // them may hold the connection the statement waits for; a slot that
        // frees is refilled from the queue at once.
        macro_rules! driving {
            ($statement:expr) => {{
                let statement = $statement;
                tokio::pin!(statement);
                loop {
                    tokio::select! {
                        biased;
                        done = &mut statement => break done?,
                        Some(step) = running.next() => {
                            tally(&mut report, &mut pending, step?, &mut progress);
                            fill!();
                        }
                    }
                }
            }};
        }
        loop {
            fill!();
            let room = window.saturating_sub(running.len() + queue.len());
            if room > 0 || !pending.is_empty() {
                // One transaction records the sends that ended (a group
                // commit) and claims as many payouts as the window has room
                // for.
                let group = std::mem::take(&mut pending);
                let done: Vec<(&Claimed, Change)> = group
                    .iter()
                    .map(|(c, change)| (c, change.clone()))
                    .collect();
                let detail = format!("claimed by {}", self.options.dispatcher_id);
                let claim = driving!(self.ledger.claim(
                    &self.options.dispatcher_id,
                    lease,
                    room.min(claim_size),
                    follow,
                    &detail,
                    &done,
                ));
                for (record, (claimed, _)) in claim.done.into_iter().zip(&group) {
                    let step = Step {
                        changes: record.into_iter().collect(),
                        ..Step::default()
                    };
                    if step.changes.is_empty() {
                        lease_lost(claimed);
                    }
                    tally(&mut report, &mut pending, step, &mut progress);
                }
                for claimed in claim.claimed.iter().filter(|c| c.fresh) {
                    progress(&claimed.record);
                }
                queue.extend(claim.claimed);
                fill!();
                if running.is_empty() && queue.is_empty() {
                    if !pending.is_empty() {
                        continue;
                    }
                    match self.ledger.next_due(follow).await? {
                        None => return Ok(report),
                        Some(due) => {
                            let wait = u64::try_from(due.saturating_sub(now_ms())).unwrap_or(0);
                            let wait = Duration::from_millis(wait)
                                .clamp(Duration::from_millis(5), IDLE_WAIT);
                            tokio::time::sleep(wait).await;
                            continue;
                        }
                    }
                }
            }
            // Sends that ended during the claim are recorded at once;
            // otherwise the next to end is waited for.
            if pending.is_empty() {
                if let Some(step) = running.next().await {
                    tally(&mut report, &mut pending, step?, &mut progress);
                }
            }
        }
    }

    /// Takes one claimed payout as far as it goes now.
    async fn step(&self, claimed: Claimed) -> Result<Step, LedgerError> {
        let mut step = Step::default();
        match claimed.record.state {
            // Claimed `recorded`, never sent, to be quoted first.
            PayoutState::Recorded if claimed.unquoted => {
                self.quote_and_send(claimed, &mut step, String::new())
                    .await?
            }
            // Claimed `recorded` but not made `sending` by the claim (its
            // stored request unreadable there): made `sending` here and sent
            // through a read, which reports an unreadable request.
            PayoutState::Recorded => {
                let detail = format!("claimed by {}", self.options.dispatcher_id);
                self.send_as(claimed, &mut step, detail).await?
            }
            // Claimed `recorded` and made `sending` by the claim: never sent.
            PayoutState::Sending if claimed.fresh => self.send_new(claimed, &mut step).await?,
            PayoutState::Sending | PayoutState::Unknown => {
                // Left in flight: the service may hold it. Read before anything is sent.
                match self.client.payouts().get(&claimed.record.session_id).await {
                    Ok(found) => {
                        step.resolved_by_reading = true;
                        let detail = "found by reading its session id".to_owned();
                        self.accepted(claimed, &found, detail, &mut step).await?;
                    }
                    Err(error) if error.is_not_found() => {
                        if claimed.unquoted && !quote_usable(&claimed) {
                            // Provably unsent: a new quote, same session id.
                            let why = "not found by reading its session id; ".to_owned();
                            self.quote_and_send(claimed, &mut step, why).await?;
                        } else if claimed.record.state == PayoutState::Unknown {
                            let detail = "not found by reading its session id; sending again with the same session id".to_owned();
                            self.send_as(claimed, &mut step, detail).await?;
                        } else {
                            self.send(claimed, &mut step).await?;
                        }
                    }
                    Err(error) => self.transient(&claimed, error).await?,
                }
            }
            PayoutState::Accepted => {
                match self.client.payouts().get(&claimed.record.session_id).await {
                    Ok(read) => self.settled(claimed, &read, &mut step).await?,
                    Err(error) => self.transient(&claimed, error).await?,
                }
            }
            // Final states are never claimed.
            _ => {}
        }
        Ok(step)
    }

    /// Moves the payout to `sending`, noting why, and sends it (unless
    /// another dispatcher took it over meanwhile).
    async fn send_as(
        &self,
        mut claimed: Claimed,
        step: &mut Step,
        detail: String,
    ) -> Result<(), LedgerError> {
        // Errors in a row carry over a resend, so a payout whose sends keep
        // failing ends the run after `max_errors`, never loops.
        let change = Change {
            errors: claimed.errors,
            ..self.go_on(PayoutState::Sending, detail)
        };
        if self.change(&mut claimed, step, change).await? {
            self.send(claimed, step).await?;
        }
        Ok(())
    }

    /// Sends a payout in state `sending` through `create_or_get`, which
    /// reads before it sends.
    async fn send(&self, claimed: Claimed, step: &mut Step) -> Result<(), LedgerError> {
        let request = request_of(&claimed)?;
        step.sent = true;
        match self.client.payouts().create_or_get(&request).await {
            Ok(transaction) => {
                let detail = format!("accepted as transaction {}", transaction.transaction_id);
                self.accepted(claimed, &transaction, detail, step).await
            }
            Err(error) => self.not_sent(claimed, step, error).await,
        }
    }

    /// Sends a payout the claim moved from `recorded` to `sending`, which
    /// no one has sent before, through `create_new`: no read before the
    /// send (a 409 or an unknown outcome is read). Its acceptance or its
    /// refusal is left in `step.pending`, to be recorded with others in one
    /// transaction; until then it is `sending`, which a restart resolves by
    /// reading.
    async fn send_new(&self, claimed: Claimed, step: &mut Step) -> Result<(), LedgerError> {
        let request = request_of(&claimed)?;
        step.sent = true;
        match create_new(&self.client, &request).await {
            Ok(Created::Sent(receipt)) => {
                // No read-back: the transaction id and the status come with
                // the first follow-up read, due at once.
                let detail = format!("accepted: {}", receipt.message);
                let change = self.stop(PayoutState::Accepted, detail);
                step.pending = Some((claimed, change));
                Ok(())
            }
            Ok(Created::Found(transaction)) => {
                step.resolved_by_reading = true;
                let change = Change {
                    transaction_id: Some(transaction.transaction_id),
                    ..self.stop(
                        PayoutState::Accepted,
                        "found by reading its session id".to_owned(),
                    )
                };
                step.pending = Some((claimed, change));
                Ok(())
            }
            Err(error) => self.not_sent(claimed, step, error).await,
        }
    }

    /// Applies `change` (with the changes other payouts make meanwhile, in
    /// one transaction), keeping what it returns for `progress`; false when
    /// the payout is no longer this dispatcher's.
    async fn change(
        &self,
        claimed: &mut Claimed,
        step: &mut Step,
        change: Change,
    ) -> Result<bool, LedgerError> {
        match self
            .commits
            .apply(&self.ledger, &self.options.dispatcher_id, claimed, change)
            .await?
        {
            Some(record) => {
                claimed.record = record.clone();
                step.changes.push(record);
                Ok(true)
            }
            None => {
                lease_lost(claimed);
                Ok(false)
            }
        }
    }

    /// A change after which this dispatcher goes on with the payout at once.
    fn go_on(&self, to: PayoutState, detail: String) -> Change {
        Change {
            renew_lease: Some(duration_ms(self.options.lease)),
            ..self.stop(to, detail)
        }
    }

    /// A change after which the dispatcher lets go of the payout.
    fn stop(&self, to: PayoutState, detail: String) -> Change {
        Change::to(to, detail)
    }
}

/// The request to send: as recorded, with the quote the ledger took for
/// it, if any.
fn request_of(claimed: &Claimed) -> Result<PayoutRequest, LedgerError> {
    // Read by the claim, or (unreadable) read again for the error.
    let mut request = match &claimed.parsed {
        Some(request) => request.clone(),
        None => request::from_text(&claimed.request)
            .map_err(|detail| crate::ledger::corrupt(&claimed.record.session_id, detail))?,
    };
    if claimed.unquoted {
        request.rate_key = claimed.rate_key.clone();
        request.rate_key_valid_until = claimed.quote_valid_until.map(from_ms);
    }
    Ok(request)
}

/// A change not made: the payout's lease ran out and another dispatcher
/// took it over.
fn lease_lost(claimed: &Claimed) {
    tracing::warn!(session_id = %claimed.record.session_id, "lease lost; the dispatcher that took the payout over reads it first");
}

/// Counts what a step did, passes each change to `progress`, and keeps
/// its pending change for the next group commit.
fn tally(
    report: &mut DispatchReport,
    pending: &mut Vec<(Claimed, Change)>,
    step: Step,
    progress: &mut impl FnMut(&PayoutRecord),
) {
    pending.extend(step.pending);
    report.sent += usize::from(step.sent);
    report.resolved_by_reading += usize::from(step.resolved_by_reading);
    for record in &step.changes {
        match record.state {
            PayoutState::Accepted => report.accepted += 1,
            PayoutState::Refused => report.refused += 1,
            PayoutState::Completed => report.completed += 1,
            PayoutState::Failed => report.failed += 1,
            _ => {}
        }
        progress(record);
    }
}
