//! The staging-only funding simulation: `POST /api/simulate-funding`.
//!
//! It behaves as if a payer had paid a collection:
//!
//! * a `live_` key gets 400 `Funding simulation is only available in staging`;
//! * `currency`, `amount` (a JSON number, above zero, within the currency's
//!   minor unit), `narration` and `sessionId` (1 to 100 characters) are
//!   required;
//! * the narration (trimmed) must equal the `payRefrence` of one of the
//!   caller's collections (404 `No collection matches narration: <narration>`),
//!   `currency` must be that collection's `fromCurrency` (400), and an
//!   `EXPIRED` collection cannot be paid (400);
//! * `sessionId` is unique per account: the same sessionId with the same
//!   currency, amount and narration replays the 200 without crediting again;
//!   with anything different it is 409
//!   `sessionId already used for a different funding: <id>`;
//! * the wallet in `currency` is credited by `amount`, the collection's
//!   `paidAmount` grows by it (over-payment is kept), and its status becomes
//!   `PARTIALLY_PAID`, or `COMPLETED` once `paidAmount` reaches `amount`;
//! * when a webhook URL is set, one event is POSTed for each applied funding
//!   (not for a replay), in the background.

use axum::extract::State;
use axum::Json;
use crossborder_api::types::{MessageResponse, WebhookEvent, WebhookStatus};
use crossborder_core::{Currency, Rule, Violation};
use rust_decimal::Decimal;

use crate::amount::check_amount;
use crate::auth::Caller;
use crate::config::Environment;
use crate::error::ApiError;
use crate::json::{JsonObject, Reader};
use crate::params::{currency_field, required};
use crate::state::AppState;
use crate::transaction::TransactionStatus;
use crate::wire;

/// The longest simulation sessionId accepted, in characters.
pub const MAX_SESSION_ID_CHARS: usize = 100;

/// A simulated funding, remembered for idempotency.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FundingRecord {
    currency: Currency,
    amount: Decimal,
    narration: String,
}

/// `POST /api/simulate-funding`.
pub(crate) async fn simulate_funding(
    State(state): State<AppState>,
    caller: Caller,
    JsonObject(body): JsonObject,
) -> Result<Json<MessageResponse>, ApiError> {
    if caller.environment() == Environment::Production {
        return Err(ApiError::bad_request(
            "Funding simulation is only available in staging",
        ));
    }
    let reader = Reader::new(&body);
    let mut violations = Vec::new();
    let currency = reader.string("currency", &mut violations);
    let amount = reader.number("amount", &mut violations);
    let narration = reader.string("narration", &mut violations);
    let session_id = reader.string("sessionId", &mut violations);

    let currency = currency_field(&mut violations, "currency", currency);
    let amount = match amount {
        Some(amount) => check_amount("amount", amount, currency)
            .map_err(|violation| violations.push(violation))
            .ok(),
        None => {
            if !violations
                .iter()
                .any(|violation| violation.field == "amount")
            {
                violations.push(Violation::new("amount", Rule::Required, "is required"));
            }
            None
        }
    };
    let narration = required(&mut violations, "narration", narration);
    let session_id = required(&mut violations, "sessionId", session_id);
    if let Some(session_id) = &session_id {
        if session_id.chars().count() > MAX_SESSION_ID_CHARS {
            violations.push(Violation::new(
                "sessionId",
                Rule::TooLong,
                format!("must be at most {MAX_SESSION_ID_CHARS} characters"),
            ));
        }
    }
    if !violations.is_empty() {
        return Err(ApiError::invalid(&violations));
    }
    let (Some(currency), Some(amount), Some(narration), Some(session_id)) =
        (currency, amount, narration, session_id)
    else {
        return Err(ApiError::bad_request("Invalid funding request"));
    };
    let narration = narration.trim().to_owned();
    let funding = FundingRecord {
        currency,
        amount,
        narration: narration.clone(),
    };
    let replied = Json(MessageResponse {
        message: "Funding simulated successfully".to_owned(),
    });

    let now = state.now();
    let mut account = caller.account();
    if let Some(existing) = account.fundings.get(&session_id) {
        if *existing == funding {
            return Ok(replied);
        }
        return Err(ApiError::conflict(format!(
            "sessionId already used for a different funding: {session_id}"
        )));
    }
    let Some(reference) = account.memos.get(&narration).cloned() else {
        return Err(ApiError::not_found(format!(
            "No collection matches narration: {narration}"
        )));
    };
    let Some(collection) = account.collections.get_mut(&reference) else {
        return Err(ApiError::not_found(format!(
            "No collection matches narration: {narration}"
        )));
    };
    collection.refresh(now);
    if collection.from != currency {
        return Err(ApiError::violation(Violation::new(
            "currency",
            Rule::NotOneOf,
            format!(
                "must be {}, the currency collection {reference} is paid in",
                collection.from
            ),
        )));
    }
    if collection.status == TransactionStatus::Expired {
        return Err(ApiError::bad_request(format!(
            "Collection {reference} has expired"
        )));
    }
    let paid = collection
        .paid_amount
        .unwrap_or_default()
        .checked_add(amount)
        .ok_or_else(|| ApiError::bad_request("amount: would overflow the paid amount"))?;
    let completed = paid >= collection.amount;
    let event = WebhookEvent {
        reference: reference.clone(),
        memo: collection.pay_refrence.clone(),
        amount: Some(wire::amount(collection.amount)),
        paid_amount: Some(wire::amount(paid)),
        remaining_amount: Some(wire::amount((collection.amount - paid).max(Decimal::ZERO))),
        currency: Some(wire::currency(collection.from)),
        status: WebhookStatus::Boolean(completed),
        message: Some(if completed {
            "Payment completed".to_owned()
        } else {
            "Partial payment received".to_owned()
        }),
    };
    let updated_status = if completed {
        TransactionStatus::Completed
    } else {
        TransactionStatus::PartiallyPaid
    };

    account.credit(currency, amount)?;
    if let Some(collection) = account.collections.get_mut(&reference) {
        collection.paid_amount = Some(paid);
        collection.status = updated_status;
    }
    account.fundings.insert(session_id, funding);
    let webhook_url = account.webhook_url.clone();
    drop(account);

    if let Some(url) = webhook_url {
        state.webhooks().send(url, &event, now);
    }
    Ok(replied)
}
