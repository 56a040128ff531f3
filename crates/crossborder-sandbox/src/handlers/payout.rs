//! Payouts: `POST /api/payout`.
//!
//! The request is read into the generated `PayoutFields` and checked with
//! `crossborder_core::payout::validate_payout` (every violation at once,
//! fields of the wrong type included: 400, message joined with `; `,
//! `errors` filled). Then, under the account's lock:
//!
//! 1. `sessionId` is the idempotency key: an identical request (same
//!    payout fields, the amount compared by value so that `100` and
//!    `100.00` are the same; unknown fields are ignored) returns the first
//!    response again without paying twice; a different request with a used
//!    sessionId is 409 `sessionId already used for a different payout: <id>`.
//! 2. A transaction id is unique per business across collections and
//!    payouts (`GET /api/transaction/{id}` reads either): a sessionId that
//!    is a collection's paymentReference is 409
//!    `sessionId already used by a collection: <id>`.
//! 3. When the currencies differ, `rateKey` must be a known, unexpired
//!    quote of the same pair (400 `rateKey is unknown or expired`, or
//!    `rateKey was issued for USD/NGN, not EUR/NGN`); its rate gives
//!    `toAmount`, and the quote's fee rule gives the fee: 0.5 % of `amount`
//!    in `fromCurrency`, rounded to its minor unit
//!    ([`crate::rates::convert_at`], as the quote computes it).
//!    Same-currency payouts carry no fee.
//! 4. The `fromCurrency` wallet is debited by `totalAmount` = `amount` +
//!    fee, or 400
//!    `Insufficient balance: available 100.00 USD, required 150.50 USD`.
//! 5. The payout is settled at once by default: `COMPLETED`, except to the
//!    account number `0000000000` (see [`UNRESOLVABLE_ACCOUNT`]), which is
//!    `FAILED` and refunded (amount and fee). Under the `manual` setting it
//!    stays `PENDING` until the control API completes or fails it; under a
//!    delay it settles so after the delay (see [`PayoutSettlement`]).
//!    Either way the response is 200 and the outcome is read with
//!    `GET /api/transaction/{sessionId}`.
//!
//! Every check happens under the account's lock, before any effect.
//! Refused requests (validation, rate key, balance) do not use up their
//! sessionId. A `bankCode` to NGN, KES or UGX, the destinations the spec
//! requires one for (`crossborder_core::payout::bank_code_required`), must
//! be in the bank list of `toCurrency` (400 `Unknown bank code <code> for
//! <CUR>`); to any other destination it is not looked up (ASSUMPTIONS C35).

use axum::extract::State;
use axum::Json;
use crossborder_api::types::PayoutResponse;
use crossborder_core::payout::{bank_code_required, validate_payout, PayoutFields};
use rust_decimal::Decimal;

use crate::amount::amount_key;
use crate::faults::{FaultKind, PAYOUT_LATE};
use crate::http::auth::Caller;
use crate::http::body::{wire_fields, Body};
use crate::http::error::ApiError;
use crate::rates::convert_at;
use crate::settlement::PayoutSettlement;
use crate::store::banks::{bank_name, UNRESOLVABLE_ACCOUNT};
use crate::store::idempotency::IdempotentRequest;
use crate::store::records::{PayoutRecord, Settle};
use crate::store::state::AppState;
use crate::store::transaction::{TransactionKind, TransactionRecord, TransactionStatus};

/// `POST /api/payout`.
pub(crate) async fn create_payout(
    State(state): State<AppState>,
    caller: Caller,
    body: Body,
) -> Result<Json<PayoutResponse>, ApiError> {
    let (view, read) = body.read(PayoutFields::read);
    let payout = ApiError::checked(read, validate_payout(&view))?;
    let session_id = view.session_id.unwrap_or_default().to_owned();
    // Looked up only where the spec requires a bank code (ASSUMPTIONS C35):
    // elsewhere it has no meaning the sandbox could check.
    if let Some(code) = view.bank_code.filter(|_| bank_code_required(payout.to)) {
        if bank_name(payout.to, code).is_none() {
            return Err(ApiError::bad_request(format!(
                "Unknown bank code {code} for {}",
                payout.to
            )));
        }
    }

    // A repeat is judged on the amount's value, not its spelling: `100`
    // and `100.00` are the same payout.
    let mut compared = wire_fields(&PayoutFields::WIRE_NAMES, |name| view.get(name));
    compared.insert(PayoutFields::AMOUNT, amount_key(payout.amount));

    let now = state.now();
    let mut account = caller.account();
    if let Some(existing) = account.payouts.get(session_id.as_str()) {
        return existing
            .request
            .replay(&compared, || {
                format!("sessionId already used for a different payout: {session_id}")
            })
            .map(Json);
    }
    if account.collections.contains_key(session_id.as_str()) {
        return Err(ApiError::conflict(format!(
            "sessionId already used by a collection: {session_id}"
        )));
    }

    let (rate, rate_key) = if payout.from == payout.to {
        (Decimal::ONE, None)
    } else {
        let key = view.rate_key.unwrap_or_default();
        let rate = account
            .usable_quote(key, payout.from, payout.to, now)?
            .conversion
            .rate;
        if state.faults().draw_quote(caller.business()) {
            // The quote lapses now, before its validUntil (ASSUMPTIONS F11).
            account.lapse_quote(key);
            state.faults().record(
                caller.business(),
                now,
                FaultKind::QuoteLapsedEarly,
                key,
                "the quote lapsed early; the payout was refused, nothing applied",
            );
            return Err(ApiError::bad_request("rateKey is unknown or expired"));
        }
        (rate, Some(key.to_owned()))
    };
    // The quote's arithmetic at the rateKey's rate: the fee (0 for the same
    // currency) is charged in fromCurrency on top of the amount.
    let conversion = convert_at(payout.amount, payout.from, payout.to, rate)
        .ok_or_else(|| ApiError::bad_request("amount: is too large to convert"))?;

    account.debit(payout.from, conversion.total_amount)?;
    let outcome = if view.account_number.map(str::trim) == Some(UNRESOLVABLE_ACCOUNT) {
        Settle::Fail(FAILING_ACCOUNT_REASON.to_owned())
    } else {
        Settle::Complete
    };
    // A payout fault, for a payout that would complete (ASSUMPTIONS F5).
    let mut late = false;
    let fault = match outcome {
        Settle::Complete => payout_fault(&state, &caller, account.settlement),
        Settle::Fail(_) => None,
    };
    let outcome = match fault {
        Some(FaultKind::PayoutFailed) => {
            state.faults().record(
                caller.business(),
                now,
                FaultKind::PayoutFailed,
                session_id.clone(),
                format!("accepted, then failed and refunded: {PAYOUT_FAULT_REASON}"),
            );
            Settle::Fail(PAYOUT_FAULT_REASON.to_owned())
        }
        Some(FaultKind::PayoutSettledLate) => {
            late = true;
            state.faults().record(
                caller.business(),
                now,
                FaultKind::PayoutSettledLate,
                session_id.clone(),
                format!(
                    "accepted, left PENDING, settles {} s later on the sandbox's clock",
                    PAYOUT_LATE.as_secs()
                ),
            );
            outcome
        }
        _ => outcome,
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
        to_amount: conversion.to_amount,
        total_amount: conversion.total_amount,
        paid_amount: None,
        rate,
        fee: conversion.fee,
        status: TransactionStatus::Pending,
        rate_key,
        from: payout.from,
        to: payout.to,
        address: view.address.map(str::to_owned),
        network: view.network.or(view.to_network).map(str::to_owned),
        instruction_valid_until: None,
    };
    let sequence = account.next_sequence();
    account.payouts.insert(
        session_id.clone(),
        PayoutRecord {
            request: IdempotentRequest::new(compared, response.clone()),
            transaction,
            created_at: now,
            sequence,
            destination: destination(&view),
            outcome: outcome.clone(),
            reason: None,
        },
    );
    // Settled at once, by hand, or after the delay (PayoutSettlement).
    match account.settlement {
        PayoutSettlement::Instant if late => {
            let when = now.checked_add(PAYOUT_LATE).unwrap_or(now);
            account.due.insert((when, session_id));
        }
        PayoutSettlement::Instant => account.settle_payout(&session_id, outcome)?,
        PayoutSettlement::Manual => {}
        PayoutSettlement::After(delay) => {
            // A clock moved to the end of time settles it on the next look.
            let when = now.checked_add(delay).unwrap_or(now);
            account.due.insert((when, session_id));
        }
    }
    Ok(Json(response))
}

/// The payout fault of an accepted payout, drawn only for one that would
/// complete; `payout_settled_late` only under `instant` settlement (under
/// `manual` or a delay a payout is late already).
fn payout_fault(
    state: &AppState,
    caller: &Caller,
    settlement: PayoutSettlement,
) -> Option<FaultKind> {
    match state.faults().draw_payout(caller.business())? {
        FaultKind::PayoutSettledLate if settlement != PayoutSettlement::Instant => None,
        kind => Some(kind),
    }
}

/// Why a payout failed by the fault `payout_failed` fails.
pub(crate) const PAYOUT_FAULT_REASON: &str =
    "Failed after acceptance (sandbox fault payout_failed)";

/// Why a payout to the failing account `0000000000` fails.
const FAILING_ACCOUNT_REASON: &str = "Account 0000000000 cannot receive payouts";

/// Where a payout goes, in one line: the bank and account, or the wallet
/// address and network.
fn destination(view: &PayoutFields<'_>) -> String {
    let parts = [
        view.bank_name,
        view.bank_code,
        view.account_number,
        view.address,
        view.network.or(view.to_network),
    ];
    parts
        .into_iter()
        .flatten()
        .map(str::trim)
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}
