//! What a send or a read came back with, as the payout's next state:
//! accepted, settled, refused, or tried again later; and which errors end
//! the run.

use crossborder::types::{Transaction, TransactionStatus};
use crossborder::{Error, Outcome};

use super::quoting::quote_refused;
use super::{Dispatcher, Step};
use crate::error::LedgerError;
use crate::lease::{Change, Claimed};
use crate::quote::PayoutReason;
use crate::state::PayoutState;
use crate::time::{duration_ms, now_ms};

impl Dispatcher {
    /// A change that ends the payout `refused` for the API's `message`
    /// (its history's detail begins with `what`).
    pub(super) fn refuse(&self, what: &str, message: String, reason: PayoutReason) -> Change {
        Change {
            reason: Some(reason),
            message: Some(message.clone()),
            ..self.stop(PayoutState::Refused, format!("{what}: {message}"))
        }
    }

    /// A send of a payout in state `sending` that failed: refused, its
    /// outcome unknown, or nothing said about the payout.
    pub(super) async fn not_sent(
        &self,
        mut claimed: Claimed,
        step: &mut Step,
        error: Error,
    ) -> Result<(), LedgerError> {
        if claimed.unquoted && quote_refused(&error) {
            // Refused for the ledger's own rate key alone: nothing was
            // applied, so the payout is read, then quoted again.
            if matches!(error, Error::QuoteExpiredUnpaid { .. }) {
                step.sent = false;
            }
            self.ledger
                .forget_quote(&self.options.dispatcher_id, &claimed, &error.to_string())
                .await?;
            tracing::info!(session_id = %claimed.record.session_id, %error, "quote refused; the payout is read, then quoted again");
            if claimed.errors + 1 >= i64::from(self.options.max_errors) {
                return Err(LedgerError::Api(error));
            }
            return Ok(());
        }
        if let Some((message, reason)) = refusal(&error) {
            // Recorded with the others that end meanwhile, as an acceptance
            // is: a whole batch refused (an empty wallet) is not a commit per
            // payout. Until then it is `sending`; a restart reads it, does
            // not find it, and sends it again under its session id.
            step.pending = Some((claimed, self.refuse("refused", message, reason)));
            return Ok(());
        }
        if stops_the_run(&error) || not_the_operation(&error) {
            return self.halt(&claimed, error).await;
        }
        if error.outcome() == Outcome::NotApplied {
            // A connect error: nothing reached the service. It stays
            // `sending`, and is read first next time all the same.
            step.sent = false;
            return self.transient(&claimed, error).await;
        }
        let text = error.to_string();
        let errors = claimed.errors + 1;
        let wait = self.options.retry.interval(clamp(claimed.errors));
        let change = Change {
            message: Some(text.clone()),
            next_at: Some(now_ms().saturating_add(duration_ms(wait))),
            errors,
            ..self.stop(PayoutState::Unknown, format!("outcome unknown: {text}"))
        };
        self.change(&mut claimed, step, change).await?;
        if errors >= i64::from(self.options.max_errors) {
            return Err(LedgerError::Api(error));
        }
        Ok(())
    }

    /// Records that the service holds the payout (as `transaction` shows
    /// it), then whether it has settled already.
    pub(super) async fn accepted(
        &self,
        mut claimed: Claimed,
        transaction: &Transaction,
        detail: String,
        step: &mut Step,
    ) -> Result<(), LedgerError> {
        let change = Change {
            transaction_id: Some(transaction.transaction_id.clone()),
            ..self.go_on(PayoutState::Accepted, detail)
        };
        if self.change(&mut claimed, step, change).await? {
            self.settled(claimed, transaction, step).await?;
        }
        Ok(())
    }

    /// An accepted payout as last read: settled, or parked until the next
    /// read.
    pub(super) async fn settled(
        &self,
        claimed: Claimed,
        read: &Transaction,
        step: &mut Step,
    ) -> Result<(), LedgerError> {
        let status = read.status.as_str();
        let change = match read.status {
            TransactionStatus::Completed => self.stop(
                PayoutState::Completed,
                "the service reports it COMPLETED".to_owned(),
            ),
            TransactionStatus::Failed => {
                let message = format!(
                    "the service reports payout {} FAILED (transaction {}); it is not sent again",
                    claimed.record.session_id, read.transaction_id
                );
                Change {
                    message: Some(message.clone()),
                    reason: Some(PayoutReason::ServiceFailed {
                        message: message.clone(),
                    }),
                    ..self.stop(PayoutState::Failed, message)
                }
            }
            _ => {
                let next = now_ms().saturating_add(duration_ms(
                    self.options.poll.interval(clamp(claimed.attempts)),
                ));
                let id = Some(read.transaction_id.as_str());
                self.ledger
                    .park(&self.options.dispatcher_id, &claimed, next, None, id)
                    .await?;
                tracing::debug!(session_id = %claimed.record.session_id, %status, "payout not settled yet");
                return Ok(());
            }
        };
        // A payout accepted without a read-back gets its transaction id here.
        let change = Change {
            transaction_id: Some(read.transaction_id.clone()),
            ..change
        };
        // Final, so nothing waits for it: recorded with the run's next group
        // commit. Until then the payout is `accepted`, and read again after
        // a crash.
        step.pending = Some((claimed, change));
        Ok(())
    }

    /// An error that says nothing about the payout: it stays as it is until
    /// the next try, and ends the run when it keeps coming or cannot pass.
    pub(super) async fn transient(
        &self,
        claimed: &Claimed,
        error: Error,
    ) -> Result<(), LedgerError> {
        if stops_the_run(&error) {
            return self.halt(claimed, error).await;
        }
        let text = error.to_string();
        let wait = self.options.retry.interval(clamp(claimed.errors));
        let next = now_ms().saturating_add(duration_ms(wait));
        self.ledger
            .park(
                &self.options.dispatcher_id,
                claimed,
                next,
                Some(&text),
                None,
            )
            .await?;
        tracing::warn!(session_id = %claimed.record.session_id, %error, "payout left as it is until the next try");
        if claimed.errors + 1 >= i64::from(self.options.max_errors) {
            return Err(LedgerError::Api(error));
        }
        Ok(())
    }

    /// An error that would come back for every payout (a refused key, a
    /// base URL that does not reach the API): the payout stays as it is,
    /// due again at once for the next run, and the run ends with the error.
    pub(super) async fn halt(&self, claimed: &Claimed, error: Error) -> Result<(), LedgerError> {
        let text = error.to_string();
        self.ledger
            .park(
                &self.options.dispatcher_id,
                claimed,
                now_ms(),
                Some(&text),
                None,
            )
            .await?;
        tracing::warn!(session_id = %claimed.record.session_id, %error, "the run stops; the payout is left as it is for the next run");
        Err(LedgerError::Api(error))
    }
}

pub(super) fn clamp(count: i64) -> u32 {
    u32::try_from(count.max(0)).unwrap_or(u32::MAX)
}

/// The API's refusal message, and its reason, when `error` is one: a 4xx
/// that says the payout itself is refused (not the key, not the rate), or
/// a request the SDK would not send (an expired quote, a broken rule).
/// Nothing was paid.
pub(super) fn refusal(error: &Error) -> Option<(String, PayoutReason)> {
    match error {
        Error::QuoteExpiredUnpaid {
            rate_key,
            expired_at,
            ..
        } => Some((
            error.to_string(),
            PayoutReason::QuoteExpired {
                rate_key: rate_key.clone(),
                expired_at: expired_at.clone(),
            },
        )),
        Error::Validation(_) => Some((
            error.to_string(),
            PayoutReason::Invalid {
                message: error.to_string(),
            },
        )),
        _ if error.outcome() == Outcome::NotApplied
            && matches!(error.status(), Some(400..=499))
            && !stops_the_run(error)
            && !not_the_operation(error)
            && !matches!(error.status(), Some(408 | 429)) =>
        {
            let message = match error {
                Error::Api { message, .. } => message.clone(),
                other => other.to_string(),
            };
            let reason = PayoutReason::ApiRefused {
                status: error.status(),
                message: message.clone(),
            };
            Some((message, reason))
        }
        _ => None,
    }
}

/// A refused API key says nothing about the payouts: the run stops rather
/// than mark each one refused.
pub(super) fn stops_the_run(error: &Error) -> bool {
    matches!(error.status(), Some(401 | 403))
}

/// A 404 or 405 to a quote or a payout's send, which the API documents
/// for neither: the request reached something other than the operation (a
/// base URL without `/v1`, a proxy's unknown route), which says nothing
/// about the payout. The run stops rather than mark each one refused.
pub(super) fn not_the_operation(error: &Error) -> bool {
    matches!(error.status(), Some(404 | 405))
}
