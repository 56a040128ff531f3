//! [`LedgerDedupe`]: the webhook receiver's memory of confirmed changes, in
//! the ledger's database, shared by every receiver on it.

use crossborder::webhook::{DedupeError, DedupeStore};

use crate::ledger::Ledger;

/// A [`DedupeStore`] on the ledger's database: one row per confirmed
/// status change, under a unique key (`INSERT ... ON CONFLICT DO
/// NOTHING`), so of several receivers that confirm the same change at once
/// (behind a load balancer, or a delivery sent to each) exactly one hands
/// it to its handler. Made by [`Ledger::dedupe_store`].
#[derive(Debug, Clone)]
pub struct LedgerDedupe {
    ledger: Ledger,
}

impl Ledger {
    /// The webhook receivers' [`DedupeStore`] on this database.
    pub fn dedupe_store(&self) -> LedgerDedupe {
        LedgerDedupe { ledger: self.clone() }
    }
}

impl DedupeStore for LedgerDedupe {
    async fn first_delivery(&self, key: &str) -> Result<bool, DedupeError> {
        let _ = (&self.ledger, key);
        todo!()
    }

    async fn forget(&self, key: &str) {
        let _ = key;
        todo!()
    }
}
