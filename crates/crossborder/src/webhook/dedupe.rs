//! Recognising a repeated delivery, so the caller's handler sees each
//! confirmed status change once.
//!
//! The key is taken from the transaction the service confirmed, never from
//! the event: an event is unsigned and its fields are predictable, so a key
//! recorded before verification would let a forged event arriving first
//! turn the genuine one into a "duplicate" (ASSUMPTIONS.md B17).

use std::collections::{HashSet, VecDeque};
use std::future::Future;
use std::sync::{Mutex, PoisonError};

use crate::types::Transaction;

/// The error of a [`DedupeStore`] (a database that could not be reached).
pub type DedupeError = Box<dyn std::error::Error + Send + Sync>;

/// The key of one confirmed status change: the transaction's reference, its
/// status and its `paidAmount` (numerically, so `20000` and `20000.00` are
/// one amount), as the service returned them (ASSUMPTIONS.md B17). Two real
/// status changes of one collection always differ in one of them, since
/// `paidAmount` only grows and any other change is a change of status.
///
/// Take it from the transaction of a
/// [`Verdict::Confirmed`](super::Verdict::Confirmed), never from an event: a receiver of your own that remembers a key before the
/// service confirms the event lets a forged event suppress the genuine one.
///
/// ```
/// # fn check(mut confirmed: crossborder::types::Transaction) {
/// use crossborder::webhook::dedupe_key;
/// use crossborder::{Decimal, types::TransactionStatus};
///
/// confirmed.payment_reference = "order-1".into();
/// confirmed.status = TransactionStatus::PartiallyPaid;
/// confirmed.paid_amount = Some(Decimal::new(2_000_000, 2)); // 20000.00
/// assert_eq!(dedupe_key(&confirmed), "order-1\u{1f}PARTIALLY_PAID\u{1f}20000");
/// # }
/// ```
pub fn dedupe_key(confirmed: &Transaction) -> String {
    let paid = confirmed
        .paid_amount
        .map(|paid| paid.normalize().to_string())
        .unwrap_or_default();
    format!(
        "{}\u{1f}{}\u{1f}{paid}",
        confirmed.payment_reference,
        confirmed.status.as_str()
    )
}

/// Where a receiver remembers the status changes it handed to the handler,
/// by [`dedupe_key`] of the confirmed transaction. Only a change the
/// service confirmed is ever recorded, so a forged event can neither be
/// handed over as confirmed nor make the genuine one look repeated.
///
/// [`MemoryDedupe`] is the default and remembers per process. A caller who
/// runs several receivers behind a load balancer implements this trait on
/// their shared database, for example an `INSERT ... ON CONFLICT DO
/// NOTHING` into a table with a unique key column, returning whether a row
/// was inserted: when two receivers confirm the same change at once, the
/// one whose insert wins hands it over, the other drops it.
///
/// ```
/// use crossborder::webhook::{DedupeError, DedupeStore};
///
/// /// Remembers nothing: every confirmed delivery reaches the handler.
/// struct NoDedupe;
///
/// impl DedupeStore for NoDedupe {
///     async fn first_delivery(&self, _key: &str) -> Result<bool, DedupeError> {
///         Ok(true)
///     }
///     async fn forget(&self, _key: &str) {}
/// }
/// ```
pub trait DedupeStore: Send + Sync + 'static {
    /// Records `key` and returns `true` if it was not recorded before (the
    /// check and the record are one atomic step), `false` for a repeat,
    /// which is then not handed over. The receiver calls it only after the
    /// service confirmed the event. On an error the receiver logs it at
    /// `ERROR` and hands the confirmed event over anyway: the service never
    /// retries, so a possible repeat is better than a certain loss.
    fn first_delivery(&self, key: &str) -> impl Future<Output = Result<bool, DedupeError>> + Send;

    /// Forgets `key`: the handler panicked or failed on that change, so a later
    /// delivery of it must go through.
    fn forget(&self, key: &str) -> impl Future<Output = ()> + Send;
}

/// How many keys [`MemoryDedupe::default`] remembers.
pub const DEFAULT_DEDUPE_CAPACITY: usize = 10_000;

/// A [`DedupeStore`] in memory: the last `capacity` keys of this process,
/// the oldest forgotten first, so memory stays bounded.
#[derive(Debug)]
pub struct MemoryDedupe {
    capacity: usize,
    keys: Mutex<Keys>,
}

#[derive(Debug, Default)]
struct Keys {
    set: HashSet<String>,
    order: VecDeque<String>,
}

impl MemoryDedupe {
    /// Remembers the last `capacity` keys (at least one).
    pub fn with_capacity(capacity: usize) -> MemoryDedupe {
        MemoryDedupe {
            capacity: capacity.max(1),
            keys: Mutex::default(),
        }
    }

    fn claim(&self, key: &str) -> bool {
        let mut keys = self.keys.lock().unwrap_or_else(PoisonError::into_inner);
        if keys.set.contains(key) {
            return false;
        }
        while keys.order.len() >= self.capacity {
            if let Some(oldest) = keys.order.pop_front() {
                keys.set.remove(&oldest);
            }
        }
        keys.set.insert(key.to_owned());
        keys.order.push_back(key.to_owned());
        true
    }

    fn release(&self, key: &str) {
        let mut keys = self.keys.lock().unwrap_or_else(PoisonError::into_inner);
        if keys.set.remove(key) {
            keys.order.retain(|kept| kept != key);
        }
    }
}

impl Default for MemoryDedupe {
    fn default() -> Self {
        MemoryDedupe::with_capacity(DEFAULT_DEDUPE_CAPACITY)
    }
}

impl DedupeStore for MemoryDedupe {
    async fn first_delivery(&self, key: &str) -> Result<bool, DedupeError> {
        Ok(self.claim(key))
    }

    async fn forget(&self, key: &str) {
        self.release(key);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::TransactionStatus;

    use crate::webhook::test_collection as transaction;

    #[test]
    fn the_key_is_the_confirmed_reference_status_and_paid_amount() {
        let partial = transaction("o-1", TransactionStatus::PartiallyPaid, Some("20000.00"));
        assert_eq!(dedupe_key(&partial), "o-1\u{1f}PARTIALLY_PAID\u{1f}20000");
        // The amount is compared as a number, whatever else differs.
        let mut same = transaction("o-1", TransactionStatus::PartiallyPaid, Some("20000"));
        same.transaction_id = "tx-other".into();
        same.payment_instructions.clear();
        assert_eq!(dedupe_key(&partial), dedupe_key(&same));
        // Each real change differs: another collection, more paid, another
        // status, or no paid amount at all.
        for other in [
            transaction("o-2", TransactionStatus::PartiallyPaid, Some("20000")),
            transaction("o-1", TransactionStatus::PartiallyPaid, Some("20000.01")),
            transaction("o-1", TransactionStatus::Expired, Some("20000")),
            transaction("o-1", TransactionStatus::PartiallyPaid, None),
        ] {
            assert_ne!(dedupe_key(&partial), dedupe_key(&other), "{other:?}");
        }
        let unknown = transaction("o-1", TransactionStatus::Unknown("ON_HOLD".into()), None);
        assert_eq!(dedupe_key(&unknown), "o-1\u{1f}ON_HOLD\u{1f}");
    }

    #[test]
    fn keys_are_claimed_once_forgotten_on_request_and_bounded() {
        let store = MemoryDedupe::with_capacity(2);
        assert!(store.claim("a"));
        assert!(!store.claim("a"));
        store.release("a");
        assert!(store.claim("a"));
        assert!(store.claim("b"));
        // A third key pushes out the oldest.
        assert!(store.claim("c"));
        assert!(store.claim("a"));
        assert!(!store.claim("c"));
        let keys = store.keys.lock().unwrap();
        assert_eq!(keys.set.len(), 2);
        assert_eq!(keys.order, ["c", "a"]);
        drop(keys);
        assert_eq!(MemoryDedupe::with_capacity(0).capacity, 1);
        assert_eq!(MemoryDedupe::default().capacity, DEFAULT_DEDUPE_CAPACITY);
    }
}
