//! Collections the ledger waits for: recorded before they are created,
//! every confirmed status change kept, the open ones reconciled on start.

use std::time::Duration;

use crossborder::types::{CollectionRequest, Transaction};
use crossborder::Client;

use crate::error::LedgerError;
use crate::ledger::Ledger;
use crate::record::CollectionRecord;

impl Ledger {
    /// Records the collection (status `EXPECTED`), then creates it with
    /// `client`; returns it as the service created it. Calling it again
    /// with the same payment reference creates nothing more.
    pub async fn expect_collection(
        &self,
        client: &Client,
        request: &CollectionRequest,
    ) -> Result<CollectionRecord, LedgerError> {
        let _ = (client, request);
        todo!()
    }

    /// Records a status change the service confirmed (a webhook receiver's
    /// `Verdict::Confirmed`, or a read); returns the collection as it now
    /// stands, or `None` for a reference the ledger does not expect.
    pub async fn record_collection(
        &self,
        confirmed: &Transaction,
    ) -> Result<Option<CollectionRecord>, LedgerError> {
        let _ = confirmed;
        todo!()
    }

    /// Every collection, oldest first.
    pub async fn collections(&self) -> Result<Vec<CollectionRecord>, LedgerError> {
        todo!()
    }

    /// Reconciles every open collection with the SDK's
    /// [`Reconciler`](crossborder::webhook::Reconciler): an event lost
    /// while no receiver ran is recovered by reading. Returns the
    /// collections that reached a final status.
    pub async fn reconcile_collections(
        &self,
        client: &Client,
        grace: Duration,
    ) -> Result<Vec<CollectionRecord>, LedgerError> {
        let _ = (client, grace);
        todo!()
    }
}
