//! [`Dispatcher`]: sends what is recorded, resolves what was left in
//! flight by reading first, follows accepted payouts until they settle.

use std::fs::File;

use crossborder::Client;

use crate::error::LedgerError;
use crate::ledger::Ledger;
use crate::options::DispatchOptions;
use crate::record::{DispatchReport, PayoutRecord};

/// Sends a ledger's payouts. Made by [`Ledger::dispatcher`].
#[derive(Debug)]
pub struct Dispatcher {
    ledger: Ledger,
    client: Client,
    options: DispatchOptions,
    /// SQLite: the database's dispatcher lock, held while this lives.
    _lock: Option<File>,
}

impl Dispatcher {
    pub(crate) fn new(ledger: Ledger, client: Client, options: DispatchOptions) -> Result<Dispatcher, LedgerError> {
        let _ = (&ledger, &client, &options);
        todo!()
    }

    /// Resolves what was left in flight (reading each payout by its session
    /// id first), sends what is recorded, and follows accepted payouts until
    /// the service reports them `COMPLETED` or `FAILED`; returns when no
    /// payout is left to do. `progress` is called after each state change.
    pub async fn run_until_idle(
        &self,
        progress: impl FnMut(&PayoutRecord),
    ) -> Result<DispatchReport, LedgerError> {
        self.run(true, progress).await
    }

    /// As [`run_until_idle`](Dispatcher::run_until_idle), but returns once
    /// every payout is accepted, refused or settled: it does not wait for
    /// accepted payouts to settle.
    pub async fn send_pending(
        &self,
        progress: impl FnMut(&PayoutRecord),
    ) -> Result<DispatchReport, LedgerError> {
        self.run(false, progress).await
    }

    async fn run(&self, follow: bool, progress: impl FnMut(&PayoutRecord)) -> Result<DispatchReport, LedgerError> {
        let _ = (follow, progress, &self.ledger, &self.client, &self.options);
        todo!()
    }
}
