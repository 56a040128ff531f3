//! Reconciliation: events can be lost (one attempt, no retry), so the
//! references a caller waits on are polled when no final state arrived
//! in time, and each final state is yielded once.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio::sync::Notify;
use tokio::task::JoinSet;
use tokio::time::Instant;

use crate::error::Error;
use crate::resources::get_transaction;
use crate::types::Transaction;
use crate::wait::poll;
use crate::{Client, WaitOptions};

use super::event::WebhookEvent;
#[cfg(feature = "axum")]
use super::receiver::Delivery;
#[cfg(feature = "axum")]
use super::verdict::{Unconfirmed, Verdict};
use super::verify::is_final;
use super::words::StatusWords;

/// How long [`Reconciler`] waits for an event before polling, by default.
pub const DEFAULT_GRACE: Duration = Duration::from_secs(60);

/// How a final state was learnt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// An event arrived and the read it triggered found a final state.
    Event,
    /// No event brought a final state before the grace period ended;
    /// polling did.
    Polling,
}

/// The verdict of one watched reference, yielded once by
/// [`Reconciler::next`].
#[derive(Debug)]
pub struct Reconciled {
    /// The watched reference.
    pub reference: String,
    /// How the final state was learnt.
    pub source: Source,
    /// The transaction in a terminal status (`COMPLETED`, `EXPIRED`,
    /// `FAILED`, a word the [`StatusWords`] of
    /// [`Reconciler::status_words`] map to completed or failed, or a word
    /// nobody knows with the amount paid in full: ASSUMPTIONS.md B70), read
    /// from the source of truth; or the error polling ended
    /// with ([`Error::WaitTimeout`] with the last state after the polling
    /// deadline, or one it cannot get past, such as an unknown reference).
    pub result: Result<Transaction, Error>,
}

type Watched = Arc<Mutex<HashMap<String, Arc<Signal>>>>;

/// How an event reaches a watched reference's task: a wake-up, with the
/// transaction when the caller already read it.
#[derive(Debug, Default)]
struct Signal {
    woken: Notify,
    read: Mutex<Option<Transaction>>,
}

impl Signal {
    fn wake(&self, read: Option<Transaction>) {
        *self.read.lock().unwrap_or_else(PoisonError::into_inner) = read;
        self.woken.notify_one();
    }

    fn take(&self) -> Option<Transaction> {
        self.read
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
    }
}

/// Waits for the final state of the collections a caller cares about,
/// whether an event announces it or not.
///
/// Each [`watch`](Reconciler::watch)ed reference waits for events passed to
/// its [`EventNotifier`]. A transaction the caller already read for an
/// event (the one a webhook `Delivery` carries, passed with
/// `EventNotifier::notify_delivery`, or any with
/// [`EventNotifier::notify_transaction`]) is used as it is, so a receiver
/// and a reconciler read a transaction once per event; an event passed
/// alone ([`EventNotifier::notify`]) triggers one read of
/// `GET /api/transaction/{reference}` (so a forged event costs a read and
/// changes nothing). When no read has found a terminal status by the end
/// of its [`grace`](Reconciler::grace) period, counted from its `watch`,
/// the reference is polled like
/// [`Collections::wait_until_settled`](crate::Collections::wait_until_settled)
/// with the [`polling`](Reconciler::polling) options.
/// [`next`](Reconciler::next) yields each reference once.
///
/// ```no_run
/// # #[cfg(feature = "axum")]
/// # async fn run(client: crossborder::Client) -> Result<(), Box<dyn std::error::Error>> {
/// use std::time::Duration;
/// use crossborder::webhook::{Delivery, Receiver, Reconciler};
///
/// let mut reconciler = Reconciler::new(client.clone()).grace(Duration::from_secs(120));
/// // The webhook receiver (feature `axum`) passes every delivery on, with
/// // the transaction it read for it: the reconciler reads nothing more.
/// let notifier = reconciler.notifier();
/// let route = Receiver::new(client).route(move |delivery: Delivery| {
///     notifier.notify_delivery(&delivery);
///     async {}
/// });
/// let listener = tokio::net::TcpListener::bind("127.0.0.1:8443").await?;
/// let app = axum::Router::new().route("/hooks/crossborder", route);
/// tokio::spawn(async move { axum::serve(listener, app).await });
///
/// reconciler.watch("order-10045");
/// reconciler.watch("order-10046");
/// while let Some(done) = reconciler.next().await {
///     match done.result {
///         Ok(transaction) => println!("{}: {} ({:?})", done.reference, transaction.status, done.source),
///         Err(error) => eprintln!("{}: {error}", done.reference),
///     }
/// }
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct Reconciler {
    client: Client,
    grace: Duration,
    polling: WaitOptions,
    words: Arc<StatusWords>,
    watched: Watched,
    /// Watched references whose task starts at the next `next`, with the
    /// end of their grace period.
    starting: Vec<(String, Arc<Signal>, Instant)>,
    running: JoinSet<Reconciled>,
}

/// Passes events to a [`Reconciler`]; cheap to clone into a webhook
/// handler.
#[derive(Debug, Clone)]
pub struct EventNotifier {
    watched: Watched,
}

impl EventNotifier {
    /// Tells the reconciler an event arrived for `event.reference`; it reads
    /// the transaction. Returns `false` when that reference is not watched
    /// (or already yielded), in which case nothing happens.
    pub fn notify(&self, event: &WebhookEvent) -> bool {
        self.wake(&event.reference, None)
    }

    /// Hands the reconciler `transaction`, just read from the source of
    /// truth for an event: it settles the reference by it (when terminal)
    /// without reading it again. Returns `false` when its reference is not
    /// watched (or already yielded).
    pub fn notify_transaction(&self, transaction: &Transaction) -> bool {
        self.wake(&transaction.payment_reference, Some(transaction.clone()))
    }

    /// Passes a receiver's delivery on: the transaction it read for the
    /// event, whatever the verdict (it is the service's state either way),
    /// so nothing is read twice; when that read failed, the reconciler
    /// reads again. An unknown reference wakes nothing. Returns `false`
    /// when nothing was passed on.
    #[cfg(feature = "axum")]
    #[cfg_attr(docsrs, doc(cfg(feature = "axum")))]
    pub fn notify_delivery(&self, delivery: &Delivery) -> bool {
        match &delivery.verdict {
            Verdict::Unconfirmed(Unconfirmed::Request(_)) => self.notify(&delivery.event),
            verdict => verdict
                .transaction()
                .is_some_and(|transaction| self.notify_transaction(transaction)),
        }
    }

    fn wake(&self, reference: &str, read: Option<Transaction>) -> bool {
        let watched = self.watched.lock().unwrap_or_else(PoisonError::into_inner);
        match watched.get(reference) {
            Some(signal) => {
                signal.wake(read);
                true
            }
            None => false,
        }
    }
}

impl Reconciler {
    /// A reconciler reading through `client`, with a grace period of
    /// [`DEFAULT_GRACE`] and the default [`WaitOptions`] for polling.
    pub fn new(client: Client) -> Reconciler {
        Reconciler {
            client,
            grace: DEFAULT_GRACE,
            polling: WaitOptions::default(),
            words: Arc::default(),
            watched: Watched::default(),
            starting: Vec::new(),
            running: JoinSet::new(),
        }
    }

    /// How long to wait for an event bringing a final state before polling,
    /// counted from each [`watch`](Reconciler::watch) (for references
    /// watched from now on).
    pub fn grace(mut self, grace: Duration) -> Reconciler {
        self.grace = grace;
        self
    }

    /// How to poll once the grace period is over: intervals and the polling
    /// deadline.
    pub fn polling(mut self, options: WaitOptions) -> Reconciler {
        self.polling = options;
        self
    }

    /// The service's status words, for telling a final state (as
    /// `Receiver::status_words` does for events).
    pub fn status_words(mut self, words: StatusWords) -> Reconciler {
        self.words = Arc::new(words);
        self
    }

    /// The handle that passes events in.
    pub fn notifier(&self) -> EventNotifier {
        EventNotifier {
            watched: Arc::clone(&self.watched),
        }
    }

    /// Starts waiting for `reference`, now: its grace period ends
    /// [`grace`](Reconciler::grace) after this call, however late
    /// [`next`](Reconciler::next) is first called, and an event notified in
    /// between is not missed. A reference already watched is not watched
    /// twice; one already yielded is watched again.
    pub fn watch(&mut self, reference: impl Into<String>) {
        let reference = reference.into();
        let grace_ends = after(Instant::now(), self.grace);
        let mut watched = self.watched.lock().unwrap_or_else(PoisonError::into_inner);
        if watched.contains_key(&reference) {
            return;
        }
        let signal = Arc::new(Signal::default());
        watched.insert(reference.clone(), Arc::clone(&signal));
        self.starting.push((reference, signal, grace_ends));
    }

    /// The next reference whose final state is known, or `None` once every
    /// watched reference has been yielded.
    pub async fn next(&mut self) -> Option<Reconciled> {
        for (reference, signal, grace_ends) in self.starting.drain(..) {
            let client = self.client.clone();
            let (polling, words) = (self.polling, Arc::clone(&self.words));
            self.running.spawn(settle(
                client, reference, signal, grace_ends, polling, words,
            ));
        }
        loop {
            match self.running.join_next().await? {
                Ok(done) => {
                    self.watched
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .remove(&done.reference);
                    return Some(done);
                }
                // A reference's task cannot panic or be cancelled in normal
                // operation; if it does, it is logged, not yielded.
                Err(error) => tracing::error!(%error, "a reconciliation task ended abnormally"),
            }
        }
    }
}

/// `start + grace`, as every wait of the SDK computes its end
/// ([`crate::wait::after`]).
fn after(start: Instant, grace: Duration) -> Instant {
    Instant::from_std(crate::wait::after(start.into_std(), grace))
}

/// Waits for events on one reference until its grace period ends, then
/// polls it.
async fn settle(
    client: Client,
    reference: String,
    signal: Arc<Signal>,
    grace_ends: Instant,
    polling: WaitOptions,
    words: Arc<StatusWords>,
) -> Reconciled {
    let sleep = tokio::time::sleep_until(grace_ends);
    tokio::pin!(sleep);
    loop {
        tokio::select! {
            () = signal.woken.notified() => {
                let read = match signal.take() {
                    Some(transaction) => Ok(transaction),
                    None => get_transaction(&client, &reference).await,
                };
                match read {
                    Ok(transaction) if is_final(&transaction, &words) => {
                        return Reconciled { reference, source: Source::Event, result: Ok(transaction) };
                    }
                    Ok(_) => {}
                    // Polling after the grace period settles it.
                    Err(error) => tracing::debug!(%reference, %error, "read after an event failed"),
                }
            }
            () = &mut sleep => break,
        }
    }
    let read = || get_transaction(&client, &reference);
    let result = poll(polling, &reference, read, |read| is_final(read, &words))
        .await
        .map_err(|end| end.into_error(|last| Error::WaitTimeout { last }));
    Reconciled {
        reference,
        source: Source::Polling,
        result,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_grace_period_too_long_to_add_does_not_panic() {
        let now = Instant::now();
        assert_eq!(
            after(now, Duration::from_secs(2)),
            now + Duration::from_secs(2)
        );
        assert!(after(now, Duration::MAX) >= now + Duration::from_secs(365 * 86_400));
    }
}
