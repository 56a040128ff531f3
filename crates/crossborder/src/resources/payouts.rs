//! `client.payouts()`.

use crate::error::Error;
use crate::execute::Operation;
use crate::resources::collections::get_transaction;
use crate::{Client, PayoutReceipt, PayoutRequest, Result, Transaction, TransactionType};

/// Payouts. Obtained with [`Client::payouts`].
#[derive(Debug, Clone, Copy)]
pub struct Payouts<'a> {
    pub(crate) client: &'a Client,
}

impl Payouts<'_> {
    /// Sends a payout (`POST /api/payout`).
    ///
    /// The request is validated first with the API's payout rules; when any
    /// rule fails, [`Error::Validation`] lists every violation and nothing is
    /// sent. The payout is retried only when it provably never reached the
    /// server (a connect error), and always with the same body and
    /// `sessionId`; any other failure is returned, and repeating the call
    /// with the same `sessionId` is safe.
    pub async fn create(&self, request: &PayoutRequest) -> Result<PayoutReceipt> {
        request.validate().map_err(Error::Validation)?;
        let body = request.to_wire()?;
        let api = self.client.api();
        let response = self
            .client
            .send(Operation::write("createPayout", "POST"), || {
                api.create_payout().body(body.clone()).send()
            })
            .await?;
        Ok(response.into_inner().into())
    }

    /// The state of a payout, by its session id
    /// (`GET /api/transaction/{sessionId}`). Payout completion is not pushed
    /// by webhook: poll this.
    ///
    /// Collections and payouts share that endpoint. When the transaction
    /// found is a collection (its `type` is `COLLECTION`), there is no payout
    /// with this session id, so this answers as a lookup of a missing payout
    /// does: [`Error::Api`] with status 404, the message
    /// `Payout not found: <sessionId> (this reference is a collection)` and
    /// an empty `body` (the server answered 200 with the collection; read it
    /// with [`Collections::get`](crate::Collections::get)). A transaction
    /// without `type`, or with a type this SDK does not know, is returned.
    pub async fn get(&self, session_id: &str) -> Result<Transaction> {
        let transaction = get_transaction(self.client, session_id).await?;
        if transaction.kind == Some(TransactionType::Collection) {
            return Err(Error::Api {
                status: 404,
                message: format!(
                    "Payout not found: {} (this reference is a collection)",
                    self.client.inner.key.redact(session_id)
                ),
                path: None,
                timestamp: None,
                body: String::new(),
            });
        }
        Ok(transaction)
    }
}
