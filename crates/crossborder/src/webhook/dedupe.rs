//! Recognising a repeated delivery, so the caller's handler sees each event
//! once.

use std::collections::{HashSet, VecDeque};
use std::future::Future;
use std::sync::{Mutex, PoisonError};

/// The error of a [`DedupeStore`] (a database that could not be reached).
pub type DedupeError = Box<dyn std::error::Error + Send + Sync>;

/// Where a receiver remembers the events it accepted, by
/// [`WebhookEvent::dedupe_key`](super::WebhookEvent::dedupe_key).
///
/// [`MemoryDedupe`] is the default and remembers per process. A caller who
/// runs several receivers behind a load balancer implements this trait on
/// their shared database, for example an `INSERT ... ON CONFLICT DO
/// NOTHING` into a table with a unique key column, returning whether a row
/// was inserted.
///
/// ```
/// use crossborder::webhook::{DedupeError, DedupeStore};
///
/// /// Remembers nothing: every delivery reaches the handler.
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
    /// check and the record are one atomic step), `false` for a repeat. An
    /// error makes the receiver answer 503 without handling the event.
    fn first_delivery(&self, key: &str) -> impl Future<Output = Result<bool, DedupeError>> + Send;

    /// Forgets `key`: the event was recorded but could not be queued, so a
    /// later delivery of it must go through.
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
