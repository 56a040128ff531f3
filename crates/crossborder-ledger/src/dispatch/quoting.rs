//! Quoting at send time: a converting payout recorded without a `rateKey`
//! is quoted just before it is sent, under its rate guard if it has one.

use crossborder::types::QuoteRequest;
use crossborder::{Decimal, Error, Outcome};

use super::outcome::{clamp, not_the_operation, refusal};
use super::{request_of, Dispatcher, Step};
use crate::error::LedgerError;
use crate::lease::{Change, Claimed};
use crate::quote::{PayoutQuote, PayoutReason, RateGuard};
use crate::state::PayoutState;
use crate::time::{duration_ms, from_ms, now_ms, rfc3339_text};

/// A recorded quote is sent with again (after a read found the payout
/// missing) only while this much of its life is left; otherwise the
/// payout is quoted again.
const QUOTE_MARGIN_MS: i64 = 1_000;

impl Dispatcher {
    /// Quotes a payout the ledger quotes, provably unsent (claimed
    /// `recorded`, or read by its session id and not found); when the rate
    /// guard takes the quote, moves the payout to `sending` with it (the
    /// quote in the event of that one transaction) and sends it with its
    /// key. `why` begins the event's detail.
    pub(super) async fn quote_and_send(
        &self,
        mut claimed: Claimed,
        step: &mut Step,
        why: String,
    ) -> Result<(), LedgerError> {
        let request = request_of(&claimed)?;
        let asked = QuoteRequest::new(request.from_currency, request.to_currency, request.amount);
        let quote = match self.client.quotes().get(asked).await {
            Ok(quote) => quote,
            Err(error) => {
                if let Some((message, reason)) = refusal(&error) {
                    let change = self.refuse("quote refused", message, reason);
                    self.change(&mut claimed, step, change).await?;
                    return Ok(());
                }
                if not_the_operation(&error) {
                    return self.halt(&claimed, error).await;
                }
                return self.transient(&claimed, error).await;
            }
        };
        if let Some(guard) = guard_of(&claimed)? {
            if !guard.accepts(quote.rate) {
                let quote = PayoutQuote::of(&quote, false);
                return self.turned_down(claimed, step, quote, guard).await;
            }
        }
        let quote = PayoutQuote::of(&quote, true);
        let detail = format!(
            "{why}quoted at rate {} (rateKey {}, fee {}, toAmount {}, totalAmount {}, valid until {})",
            quote.rate,
            quote.rate_key,
            shown(quote.fee, request.from_currency),
            shown(quote.to_amount, request.to_currency),
            shown(quote.total_amount, request.from_currency),
            rfc3339_text(quote.valid_until)
        );
        let (rate_key, valid_until) = (quote.rate_key.clone(), quote.valid_until_ms);
        let was = claimed.record.state;
        // Errors in a row carry over, so a payout whose quotes keep being
        // refused ends the run after `max_errors`, never loops.
        let change = Change {
            errors: claimed.errors,
            quote: Some((quote, true)),
            ..self.go_on(PayoutState::Sending, detail)
        };
        if !self.change(&mut claimed, step, change).await? {
            return Ok(());
        }
        claimed.rate_key = Some(rate_key);
        claimed.quote_valid_until = Some(valid_until);
        if was == PayoutState::Recorded {
            // Never sent: no read first.
            self.send_new(claimed, step).await
        } else {
            self.send(claimed, step).await
        }
    }

    /// A quote worse than the payout's rate guard: the payout waits (the
    /// quote and why in its history) and is quoted again with back-off,
    /// or ends `refused` once the guard's deadline has passed.
    async fn turned_down(
        &self,
        mut claimed: Claimed,
        step: &mut Step,
        quote: PayoutQuote,
        guard: RateGuard,
    ) -> Result<(), LedgerError> {
        let now = now_ms();
        let deadline = crate::time::to_ms(guard.deadline);
        let deadline_text = rfc3339_text(guard.deadline);
        let rate = quote.rate;
        let change = if now >= deadline {
            let message = format!(
                "rate guard: no quote at {} or better by {deadline_text} (the last was {rate})",
                guard.worst_rate
            );
            Change {
                message: Some(message.clone()),
                reason: Some(PayoutReason::RateGuard {
                    worst_rate: guard.worst_rate,
                    last_rate: rate,
                    deadline: deadline_text,
                }),
                quote: Some((quote, false)),
                ..self.stop(PayoutState::Refused, message)
            }
        } else {
            let wait = duration_ms(self.options.poll.interval(clamp(claimed.attempts)));
            let message = format!(
                "waiting for a rate of {} or better until {deadline_text}: quoted {rate}",
                guard.worst_rate
            );
            Change {
                message: Some(message.clone()),
                next_at: Some(now.saturating_add(wait).min(deadline)),
                attempts: claimed.attempts + 1,
                quote: Some((quote, false)),
                ..self.stop(claimed.record.state, message)
            }
        };
        self.change(&mut claimed, step, change).await?;
        Ok(())
    }
}

/// Whether the quote recorded for a payout the ledger quotes may still be
/// sent with.
pub(super) fn quote_usable(claimed: &Claimed) -> bool {
    claimed.rate_key.is_some()
        && claimed
            .quote_valid_until
            .is_some_and(|until| until > now_ms().saturating_add(QUOTE_MARGIN_MS))
}

/// The payout's rate guard, if it has one.
fn guard_of(claimed: &Claimed) -> Result<Option<RateGuard>, LedgerError> {
    let (Some(rate), Some(until)) = (&claimed.min_rate, claimed.guard_until) else {
        return Ok(None);
    };
    let worst_rate: Decimal = rate.parse().map_err(|e| {
        crate::ledger::corrupt(
            &claimed.record.session_id,
            format!("min_rate {rate:?}: {e}"),
        )
    })?;
    Ok(Some(RateGuard::new(worst_rate, from_ms(until))))
}

/// An amount of the quote for people: with its currency's minor-unit
/// digits at least (`0.50 USD`), never rounded.
fn shown(amount: Option<Decimal>, currency: crossborder::Currency) -> String {
    let Some(mut amount) = amount else {
        return "not given".to_owned();
    };
    let places = currency.minor_unit_exponent();
    if amount.scale() < places {
        amount.rescale(places);
    }
    format!("{amount} {currency}")
}

/// Whether the API or the SDK refused a send for its rate key alone (an
/// expired or unknown key): nothing was applied, and a payout the ledger
/// quotes is quoted again.
pub(super) fn quote_refused(error: &Error) -> bool {
    match error {
        Error::QuoteExpiredUnpaid { .. } | Error::QuoteExpired { .. } => true,
        Error::Api { message, .. } => {
            error.status() == Some(400)
                && error.outcome() == Outcome::NotApplied
                && message.contains("rateKey")
        }
        _ => false,
    }
}
