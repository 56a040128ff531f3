//! Locking that survives a panic elsewhere.

use std::sync::{Mutex, MutexGuard, PoisonError};

/// Locks a mutex, carrying on with the data if a panicking thread poisoned
/// it (every critical section leaves the state consistent before it can
/// panic, and a poisoned lock must not take the whole sandbox down).
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}
