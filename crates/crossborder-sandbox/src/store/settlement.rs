//! Settling a pending payout: `COMPLETED`, or `FAILED` and refunded in
//! full (fee included). The payout handler settles at once under the
//! default setting; under `manual` the control API settles; under a delay
//! [`Account::settle_due`] does, on the first request, read or sweep that
//! finds the delay passed (see [`crate::settlement::PayoutSettlement`]).

use std::time::SystemTime;

use crate::http::error::ApiError;
use crate::store::account::Account;
use crate::store::records::Settle;
use crate::store::transaction::TransactionStatus;

impl Account {
    /// Settles the pending payout `session_id` as `settle` says: 404 when
    /// the business has no such payout, 409 when it is not `PENDING`. A
    /// failure refunds `totalAmount` to the `fromCurrency` wallet.
    pub(crate) fn settle_payout(
        &mut self,
        session_id: &str,
        settle: Settle,
    ) -> Result<(), ApiError> {
        let Some(payout) = self.payouts.get(session_id) else {
            return Err(ApiError::not_found(format!(
                "Payout not found: {session_id}"
            )));
        };
        let transaction = &payout.transaction;
        if transaction.status != TransactionStatus::Pending {
            let action = match settle {
                Settle::Complete => "completed",
                Settle::Fail(_) => "failed",
            };
            return Err(ApiError::conflict(format!(
                "Payout {session_id} is {}; only a PENDING payout can be {action}",
                transaction.status.as_str()
            )));
        }
        let (currency, total) = (transaction.from, transaction.total_amount);
        // The refund first: it is the one step that can refuse, and then
        // nothing has changed.
        if let Settle::Fail(_) = settle {
            self.credit(currency, total)?;
        }
        self.due.retain(|(_, due)| due != session_id);
        if let Some(payout) = self.payouts.get_mut(session_id) {
            match settle {
                Settle::Complete => payout.transaction.status = TransactionStatus::Completed,
                Settle::Fail(reason) => {
                    payout.transaction.status = TransactionStatus::Failed;
                    payout.reason = Some(reason);
                }
            }
        }
        Ok(())
    }

    /// Settles every payout whose delay has passed at `now`, each as it
    /// would have settled at once.
    pub(crate) fn settle_due(&mut self, now: SystemTime) {
        while let Some((when, session_id)) = self.due.first().cloned() {
            if when > now {
                return;
            }
            self.due.remove(&(when, session_id.clone()));
            let outcome = self
                .payouts
                .get(&session_id)
                .map(|payout| payout.outcome.clone());
            if let Some(outcome) = outcome {
                // A payout already settled by hand is refused (409) and
                // stays as it is.
                let _ = self.settle_payout(&session_id, outcome);
            }
        }
    }
}
