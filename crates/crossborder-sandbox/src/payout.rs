//! Payouts: `POST /api/payout`.
//!
//! The request is checked with `crossborder_core::payout::validate_payout`
//! (every violation at once: 400, message joined with `; `, `errors`
//! filled). Then, under the account's lock:
//!
//! 1. `sessionId` is the idempotency key: an identical request (same
//!    payout fields; unknown fields are ignored) returns the first response
//!    again without paying twice; a different request with a used
//!    sessionId is 409 `sessionId already used for a different payout: <id>`.
//! 2. When the currencies differ, `rateKey` must be a known, unexpired
//!    quote of the same pair (400 `rateKey is unknown or expired`, or
//!    `rateKey was issued for USD/NGN, not EUR/NGN`); its rate gives
//!    `toAmount`.
//! 3. The `fromCurrency` wallet is debited by `amount` (payouts carry no
//!    fee in the sandbox), or 400
//!    `Insufficient balance: available 100.00 USD, required 150.00 USD`.
//! 4. The payout is settled at once: `COMPLETED`, except to the account
//!    number `0000000000` (see [`UNRESOLVABLE_ACCOUNT`]), which is `FAILED`
//!    and refunded. Either way the response is 200 and the outcome is read
//!    with `GET /api/transaction/{sessionId}`.
//!
//! Refused requests (validation, rate key, balance) do not use up their
//! sessionId. A `bankCode` must be one of the bank list of `toCurrency`
//! when that list is not empty (400 `Unknown bank code <code> for <CUR>`).

use axum::extract::State;
use axum::Json;
use crossborder_api::types::PayoutResponse;
use crossborder_core::payout::{validate_payout, PayoutFields};
use rust_decimal::Decimal;

use crate::auth::Caller;
use crate::banks::{bank_name, banks, UNRESOLVABLE_ACCOUNT};
use crate::error::ApiError;
use crate::idempotency::IdempotentRequest;
use crate::json::{JsonObject, Reader};
use crate::state::AppState;
use crate::transaction::{TransactionKind, TransactionRecord, TransactionStatus};
use crate::wire::round;

/// A payout as remembered for idempotency and tracking.
#[derive(Debug, Clone)]
pub(crate) struct PayoutRecord {
    /// The payout fields as sent and the first response, replayed for an
    /// identical retry.
    request: IdempotentRequest<PayoutResponse>,
    /// The transaction read by `GET /api/transaction/{sessionId}`.
    pub(crate) transaction: TransactionRecord,
}

/// `POST /api/payout`.
pub(crate) async fn create_payout(
    State(state): State<AppState>,
    caller: Caller,
    JsonObject(body): JsonObject,
) -> Result<Json<PayoutResponse>, ApiError> {
    let reader = Reader::new(&body);
    let mut violations = Vec::new();
    let fields = reader.strings(&PayoutFields::WIRE_NAMES, &mut violations);
    if !violations.is_empty() {
        return Err(ApiError::invalid(&violations));
    }
    let view = PayoutFields::from_fn(|name| fields.get(name).map(String::as_str));
    let payout = validate_payout(&view).map_err(|violations| ApiError::validation(&violations))?;
    let session_id = view.session_id.unwrap_or_default().to_owned();
    if let Some(code) = view.bank_code {
        if !banks(payout.to).is_empty() && bank_name(payout.to, code).is_none() {
            return Err(ApiError::bad_request(format!(
                "Unknown bank code {code} for {}",
                payout.to
            )));
        }
    }

    let now = state.now();
    let mut account = caller.account();
    if let Some(existing) = account.payouts.get(session_id.as_str()) {
        return existing
            .request
            .replay(&fields, || {
                format!("sessionId already used for a different payout: {session_id}")
            })
            .map(Json);
    }

    let (rate, rate_key) = if payout.from == payout.to {
        (Decimal::ONE, None)
    } else {
        let key = view.rate_key.unwrap_or_default();
        let quote = account.usable_quote(key, payout.from, payout.to, now)?;
        (quote.conversion.rate, Some(key.to_owned()))
    };
    let to_amount = payout
        .amount
        .checked_mul(rate)
        .map(|product| round(product, payout.to))
        .ok_or_else(|| ApiError::bad_request("amount: is too large to convert"))?;

    account.debit(payout.from, payout.amount)?;
    let fails = view.account_number.map(str::trim) == Some(UNRESOLVABLE_ACCOUNT);
    let status = if fails {
        account.credit(payout.from, payout.amount)?;
        TransactionStatus::Failed
    } else {
        TransactionStatus::Completed
    };

    let response = PayoutResponse {
        message: "Payout initiated successfully".to_owned(),
        session_id: session_id.clone(),
    };
    let transaction = TransactionRecord {
        transaction_id: format!("txn_{}", state.ids().upper_alphanumeric(10)),
        kind: TransactionKind::Payout,
        pay_refrence: None,
        payment_reference: session_id.clone(),
        amount: payout.amount,
        to_amount,
        total_amount: payout.amount,
        paid_amount: None,
        rate,
        fee: Decimal::ZERO,
        status,
        rate_key,
        from: payout.from,
        to: payout.to,
        address: view.address.map(str::to_owned),
        network: view.network.or(view.to_network).map(str::to_owned),
        instructions: Vec::new(),
    };
    account.payouts.insert(
        session_id,
        PayoutRecord {
            request: IdempotentRequest::new(fields, response.clone()),
            transaction,
        },
    );
    Ok(Json(response))
}
