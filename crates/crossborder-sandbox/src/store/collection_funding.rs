//! Paying a collection: the one code path of `POST /api/simulate-funding`
//! and of the control API's `fund`, so both credit the wallet, move the
//! status and announce the change by webhook the same way (see
//! [`crate::handlers::funding`] for the rules).

use crossborder_core::{Currency, Rule, Violation};
use rust_decimal::{Decimal, RoundingStrategy};

use crate::http::error::ApiError;
use crate::rates::converted_amount;
use crate::store::account::{Account, BusinessId};
use crate::store::records::FundingEntry;
use crate::store::state::AppState;
use crate::store::transaction::{TransactionRecord, TransactionStatus};

/// What a payment into a collection says it is.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Payment {
    /// A simulated funding: `amount` credited to the wallet `currency`,
    /// which must be the collection's `toCurrency`.
    Credited(Currency, Decimal),
    /// The payer paid `amount` of the collection's `fromCurrency` (the
    /// control API's `fund`): the wallet is credited with it converted at
    /// the collection's rate.
    Owed(Decimal),
}

/// The business, its account and who hears of a change: what paying or
/// expiring a collection works on.
pub(crate) struct Tenant<'a> {
    pub(crate) state: &'a AppState,
    pub(crate) owner: BusinessId,
    pub(crate) account: &'a mut Account,
}

impl Tenant<'_> {
    /// Announces `event` of collection `reference` when it has one to
    /// announce and a webhook URL is set.
    fn announce(&self, reference: &str) {
        let event = self
            .account
            .collections
            .get(reference)
            .and_then(|collection| collection.transaction.status_event());
        if let (Some(event), Some(url)) = (event, self.account.webhook_url.clone()) {
            self.state
                .webhooks()
                .send(self.owner, url, &event, self.state.now());
        }
    }

    /// The status of collection `reference` after marking it `EXPIRED` if
    /// it lapsed (announced, once); 404 `Collection not found: <ref>` for
    /// one the business does not have.
    pub(crate) fn refresh(&mut self, reference: &str) -> Result<TransactionStatus, ApiError> {
        let now = self.state.now();
        let Some(collection) = self.account.collections.get_mut(reference) else {
            return Err(ApiError::not_found(format!(
                "Collection not found: {reference}"
            )));
        };
        let lapsed = collection.transaction.refresh(now);
        let status = collection.transaction.status.clone();
        if lapsed {
            self.announce(reference);
        }
        Ok(status)
    }

    /// Marks the open collection `reference` `EXPIRED` now and announces
    /// it; 409 when it is `COMPLETED` or already `EXPIRED`.
    pub(crate) fn expire(&mut self, reference: &str) -> Result<(), ApiError> {
        require_open(reference, &self.refresh(reference)?, "expired")?;
        if let Some(collection) = self.account.collections.get_mut(reference) {
            collection.transaction.status = TransactionStatus::Expired;
        }
        self.announce(reference);
        Ok(())
    }

    /// Pays `payment` into collection `reference`: the wallet grows, the
    /// paid amount and the status follow, and a status change is announced
    /// by webhook. A lapsed collection is marked `EXPIRED` (announced) and
    /// refused with 400 `Collection <ref> has expired`. Every check
    /// happens before any change.
    pub(crate) fn fund(&mut self, reference: &str, payment: Payment) -> Result<(), ApiError> {
        if self.refresh(reference)? == TransactionStatus::Expired {
            // A lapsed collection takes nothing, whatever the transfer's
            // currency or amount: that it lapsed is what the payer needs to
            // hear.
            return Err(ApiError::bad_request(format!(
                "Collection {reference} has expired"
            )));
        }
        let Some(collection) = self.account.collections.get(reference) else {
            return Err(ApiError::not_found(format!(
                "Collection not found: {reference}"
            )));
        };
        let transaction = &collection.transaction;
        let (paid_now, credited) = match payment {
            Payment::Credited(currency, amount) => (
                paid_by_credit(reference, transaction, currency, amount)?,
                amount,
            ),
            Payment::Owed(amount) => {
                let credited = converted_amount(amount, transaction.to, transaction.rate)
                    .ok_or_else(|| ApiError::bad_request("amount: is too large to convert"))?;
                (amount, credited)
            }
        };
        let paid = transaction
            .paid_amount
            .unwrap_or_default()
            .checked_add(paid_now)
            .ok_or_else(|| ApiError::bad_request("amount: would overflow the paid amount"))?;
        let credited_currency = transaction.to;
        let previous_status = transaction.status.clone();
        let updated_status = if paid >= transaction.amount {
            TransactionStatus::Completed
        } else {
            TransactionStatus::PartiallyPaid
        };

        // The wallet the collection credits grows; it is the one step that
        // can refuse, and then nothing has changed.
        self.account.credit(credited_currency, credited)?;
        let now = self.state.now();
        if let Some(collection) = self.account.collections.get_mut(reference) {
            collection.transaction.paid_amount = Some(paid);
            collection.transaction.status = updated_status.clone();
            collection.fundings.push(FundingEntry {
                paid: paid_now,
                credited,
                at: now,
            });
        }
        // One event per status change and no other (ASSUMPTIONS.md B9): a
        // second partial payment, or a payment of a completed collection,
        // changes the paid amount but not the status.
        if updated_status != previous_status {
            self.announce(reference);
        }
        Ok(())
    }
}

/// 409 `Collection <ref> is COMPLETED; only a PENDING or PARTIALLY_PAID
/// collection can be <done>` unless the collection is open.
pub(crate) fn require_open(
    reference: &str,
    status: &TransactionStatus,
    done: &str,
) -> Result<(), ApiError> {
    if matches!(
        status,
        TransactionStatus::Pending | TransactionStatus::PartiallyPaid
    ) {
        return Ok(());
    }
    Err(ApiError::conflict(format!(
        "Collection {reference} is {}; only a PENDING or PARTIALLY_PAID collection can be {done}",
        status.as_str()
    )))
}

/// What a simulated funding of `amount` into the wallet `currency` adds to
/// `paidAmount`, in `fromCurrency`: the amount itself, or for a converting
/// collection the amount divided by its rate, rounded to `fromCurrency`'s
/// minor unit. `currency` must be the collection's `toCurrency`
/// (ASSUMPTIONS.md A14): a converting collection's fromCurrency is refused
/// rather than converted, so an integration that sends the payer's currency
/// learns it here, not against the service.
fn paid_by_credit(
    reference: &str,
    collection: &TransactionRecord,
    currency: Currency,
    amount: Decimal,
) -> Result<Decimal, ApiError> {
    if currency != collection.to {
        return Err(ApiError::violation(wrong_wallet(reference, collection)));
    }
    if collection.from == collection.to {
        return Ok(amount);
    }
    let paid = amount
        .checked_div(collection.rate)
        .map(|paid| {
            paid.round_dp_with_strategy(
                collection.from.minor_unit_exponent(),
                RoundingStrategy::MidpointAwayFromZero,
            )
        })
        .ok_or_else(|| ApiError::bad_request("amount: is too large to convert"))?;
    if paid.is_zero() {
        // Crediting the wallet while nothing is paid would make a
        // PARTIALLY_PAID collection with paidAmount 0 and an event that
        // reads as a failure (ASSUMPTIONS.md A14).
        return Err(ApiError::violation(pays_nothing(reference, collection)));
    }
    Ok(paid)
}

/// The refusal of a funding whose `currency` is not the wallet the
/// collection credits: it names that wallet, and for a converting
/// collection says that its fromCurrency is the payer's, not a wallet.
fn wrong_wallet(reference: &str, collection: &TransactionRecord) -> Violation {
    let (from, to) = (collection.from, collection.to);
    let message = if from == to {
        format!("must be {to}, the wallet collection {reference} credits")
    } else {
        format!(
            "must be {to}, the wallet collection {reference} credits (its fromCurrency {from} \
             is what the payer sends, not a wallet to credit)"
        )
    };
    Violation::new("currency", Rule::NotOneOf, message)
}

/// The refusal of a funding in a converting collection's `toCurrency` so
/// small that, divided by the rate and rounded to `fromCurrency`'s minor
/// unit, it pays nothing. It names the least amount that pays one minor
/// unit: half of it (rounded half away from zero) times the rate, rounded
/// up to `toCurrency`'s minor unit.
fn pays_nothing(reference: &str, collection: &TransactionRecord) -> Violation {
    let (from, to, rate) = (collection.from, collection.to, collection.rate);
    let smallest = Decimal::new(1, from.minor_unit_exponent());
    let least = (smallest / Decimal::TWO).checked_mul(rate).map(|least| {
        least
            .round_dp_with_strategy(to.minor_unit_exponent(), RoundingStrategy::AwayFromZero)
            .normalize()
    });
    let message = match least {
        Some(least) => format!(
            "must be at least {least} {to}, the least that pays {smallest} {from} of collection \
             {reference} at its rate of {rate} {to} per {from}"
        ),
        None => format!(
            "must pay at least {smallest} {from} of collection {reference} at its rate of \
             {rate} {to} per {from}"
        ),
    };
    Violation::new("amount", Rule::OutOfRange, message)
}
