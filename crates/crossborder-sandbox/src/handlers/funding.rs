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
//!
//! The payment itself is [`Tenant::fund`], which the control API's `fund`
//! goes through too.

use axum::extract::State;
use axum::Json;
use crossborder_api::types::MessageResponse;
use crossborder_core::funding::{validate_simulate_funding, SimulateFundingFields};

use crate::config::Environment;
use crate::http::auth::Caller;
use crate::http::body::{wire_fields, Body};
use crate::http::error::ApiError;
use crate::store::collection_funding::{Payment, Tenant};
use crate::store::idempotency::IdempotentRequest;
use crate::store::state::AppState;

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
    Tenant {
        state: &state,
        owner: caller.business(),
        account: &mut account,
    }
    .fund(&reference, Payment::Credited(currency, amount))?;
    account
        .fundings
        .insert(session_id, IdempotentRequest::new(fields, replied.clone()));
    Ok(Json(replied))
}
