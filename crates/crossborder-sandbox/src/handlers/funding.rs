//! The staging-only funding simulation: `POST /api/simulate-funding`.
//!
//! It behaves as if a payer had paid a collection:
//!
//! * a `live_` key gets 400 `Funding simulation is only available in staging`;
//! * the request is checked with
//!   `crossborder_core::funding::validate_simulate_funding`: `currency`,
//!   `amount` (a JSON number, above zero, within the currency's minor unit),
//!   `narration` and `sessionId` (1 to 100 characters) are required;
//! * the narration (trimmed) must equal the `payRefrence` of one of the
//!   caller's collections (404 `No collection matches narration: <narration>`),
//!   and an `EXPIRED` collection cannot be paid (400);
//! * `currency` is "the currency of the wallet to credit" (the spec's
//!   words): the collection's `toCurrency`, the one wallet a collection
//!   credits (ASSUMPTIONS.md A14). Any other currency, a converting
//!   collection's `fromCurrency` included, is 400 `currency: must be
//!   <toCurrency>, the wallet collection <ref> credits ...`;
//! * `sessionId` is unique per account: the same sessionId with the same
//!   currency, amount and narration replays the 200 without crediting again;
//!   with anything different it is 409
//!   `sessionId already used for a different funding: <id>`;
//! * the `toCurrency` wallet grows by `amount`. `paidAmount`, in
//!   `fromCurrency`, grows by `amount` (same-currency collection) or by
//!   `amount` divided by the collection's rate (the rate its rateKey fixed
//!   when it was created), rounded half away from zero to `fromCurrency`'s
//!   minor unit. An amount so small that this rounds to zero is refused
//!   (400 `amount: must be at least <least> <toCurrency>, the least that
//!   pays <minor unit> <fromCurrency> of collection <ref> at its rate of
//!   <rate> <toCurrency> per <fromCurrency>`): nothing would be paid, yet
//!   the wallet credited. An over-payment credits the whole amount and is
//!   kept in `paidAmount`;
//! * the status becomes `PARTIALLY_PAID`, or `COMPLETED` once `paidAmount`
//!   reaches `amount`;
//! * when a webhook URL is set, one event is POSTed for each status change
//!   and no other (ASSUMPTIONS.md B9): a second partial payment or a
//!   payment of a completed collection posts nothing, and neither does a
//!   replay. It is sent in the background
//!   (`TransactionRecord::status_event`) and describes the payer's side:
//!   `amount`, `paidAmount`, `remainingAmount` (`amount - paidAmount`,
//!   negative on an over-payment) and `currency` are in `fromCurrency`. A
//!   funding that finds the collection lapsed announces its expiry before
//!   refusing.

use axum::extract::State;
use axum::Json;
use crossborder_api::types::MessageResponse;
use crossborder_core::funding::{validate_simulate_funding, SimulateFundingFields};
use crossborder_core::{Rule, Violation};
use rust_decimal::{Decimal, RoundingStrategy};

use crate::config::Environment;
use crate::http::auth::Caller;
use crate::http::body::{wire_fields, Body};
use crate::http::error::ApiError;
use crate::store::idempotency::IdempotentRequest;
use crate::store::state::AppState;
use crate::store::transaction::{TransactionRecord, TransactionStatus};

/// `POST /api/simulate-funding`.
pub(crate) async fn simulate_funding(
    State(state): State<AppState>,
    caller: Caller,
    body: Body,
) -> Result<Json<MessageResponse>, ApiError> {
    if caller.environment() == Environment::Production {
        return Err(ApiError::bad_request(
            "Funding simulation is only available in staging",
        ));
    }
    let (view, read) = body.read(SimulateFundingFields::read);
    // The narration is matched trimmed, so a repeat is judged on it trimmed.
    let narration = view.narration.map(str::trim);
    let view = SimulateFundingFields { narration, ..view };
    let fields = wire_fields(&SimulateFundingFields::WIRE_NAMES, |name| view.get(name));
    let funding = ApiError::checked(read, validate_simulate_funding(&view))?;
    let (currency, amount) = (funding.currency, funding.amount);
    let narration = view.narration.unwrap_or_default().to_owned();
    let session_id = view.session_id.unwrap_or_default().to_owned();
    let replied = MessageResponse {
        message: "Funding simulated successfully".to_owned(),
    };

    let now = state.now();
    let mut account = caller.account();
    if let Some(existing) = account.fundings.get(&session_id) {
        return existing
            .replay(&fields, || {
                format!("sessionId already used for a different funding: {session_id}")
            })
            .map(Json);
    }
    let Some(reference) = account.memos.get(&narration).cloned() else {
        return Err(ApiError::not_found(format!(
            "No collection matches narration: {narration}"
        )));
    };
    let webhook_url = account.webhook_url.clone();
    let Some(collection) = account
        .collections
        .get_mut(&reference)
        .map(|collection| &mut collection.transaction)
    else {
        return Err(ApiError::not_found(format!(
            "No collection matches narration: {narration}"
        )));
    };
    if collection.refresh(now) {
        // This funding found the collection lapsed before the sweep did:
        // it announces the expiry (once; see `expiry`).
        if let (Some(event), Some(url)) = (collection.status_event(), webhook_url.clone()) {
            state.webhooks().send(url, &event, now);
        }
    }
    // A lapsed collection takes nothing, whatever the transfer's currency
    // or amount: that it lapsed is what the payer needs to hear.
    if collection.status == TransactionStatus::Expired {
        return Err(ApiError::bad_request(format!(
            "Collection {reference} has expired"
        )));
    }
    // `currency` names the wallet credited, as the spec says: the
    // collection's toCurrency (ASSUMPTIONS.md A14). A converting
    // collection's fromCurrency is refused rather than converted, so an
    // integration that sends the payer's currency learns it here, not
    // against the service.
    if currency != collection.to {
        return Err(ApiError::violation(wrong_wallet(&reference, collection)));
    }
    // What the transfer adds to `paidAmount`, in fromCurrency: the amount
    // itself, or for a converting collection the amount divided by its rate.
    let paid_now = if collection.from == collection.to {
        amount
    } else {
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
            return Err(ApiError::violation(pays_nothing(&reference, collection)));
        }
        paid
    };
    let paid = collection
        .paid_amount
        .unwrap_or_default()
        .checked_add(paid_now)
        .ok_or_else(|| ApiError::bad_request("amount: would overflow the paid amount"))?;
    let credited_currency = collection.to;
    let previous_status = collection.status.clone();
    let updated_status = if paid >= collection.amount {
        TransactionStatus::Completed
    } else {
        TransactionStatus::PartiallyPaid
    };

    // The wallet `currency` names grows by the amount itself.
    account.credit(credited_currency, amount)?;
    let mut event = None;
    if let Some(collection) = account.collections.get_mut(&reference) {
        collection.transaction.paid_amount = Some(paid);
        // One event per status change and no other (ASSUMPTIONS.md B9): a
        // second partial payment, or a payment of a completed collection,
        // changes the paid amount but not the status.
        let changed = updated_status != previous_status;
        collection.transaction.status = updated_status;
        if changed {
            event = collection.transaction.status_event();
        }
    }
    account
        .fundings
        .insert(session_id, IdempotentRequest::new(fields, replied.clone()));
    drop(account);

    if let (Some(url), Some(event)) = (webhook_url, event) {
        state.webhooks().send(url, &event, now);
    }
    Ok(Json(replied))
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
