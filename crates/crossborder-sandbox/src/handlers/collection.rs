//! Collections: `POST /api/initiate-payment` creates one, and
//! `GET /api/transaction/{paymentReference}` reads a collection (by the
//! caller's paymentReference) or a payout (by its sessionId).
//!
//! A collection asks a payer for `amount` of `fromCurrency`. It gets a
//! unique memo `payRefrence` (`PAY-` + 8 characters `0-9A-Z`) that the payer
//! must use as the transfer narration, and one payment instruction valid for
//! [`SandboxConfig::instruction_ttl`](crate::SandboxConfig::instruction_ttl)
//! (24 h). It starts `PENDING` with `paidAmount` 0; simulated fundings move
//! it to `PARTIALLY_PAID` and `COMPLETED`; it becomes `EXPIRED` when the
//! instruction lapses before it is fully paid (ASSUMPTIONS.md A2), keeping
//! what was paid. The `paymentReference` is an idempotency key (see
//! [`initiate_payment`]). Collections carry no fee
//! (`fee` 0, `totalAmount` = `amount`); when the currencies differ, the
//! rateKey's rate gives `toAmount`, and that rate, kept on the collection,
//! converts each simulated funding into the `toCurrency` wallet it credits
//! (see [`crate::handlers::funding`]).

use axum::extract::State;
use axum::Json;
use crossborder_api::types::TransactionResponse;
use crossborder_core::collection::{validate_collection, CollectionFields};
use rust_decimal::Decimal;

use crate::http::auth::Caller;
use crate::http::body::{wire_fields, Body};
use crate::http::error::ApiError;
use crate::http::params::PathParams;
use crate::rates::converted_amount;
use crate::store::records::CollectionRecord;
use crate::store::state::AppState;
use crate::store::transaction::{TransactionKind, TransactionRecord, TransactionStatus};

/// The network of a crypto collection when the request names none.
pub const DEFAULT_NETWORK: &str = "ethereum";

/// `POST /api/initiate-payment`.
///
/// Checked with `crossborder_core::collection::validate_collection`. The
/// `paymentReference` is the idempotency key: an identical repeat gets the
/// first response again and creates nothing; a different request with a
/// used reference is 409 `paymentReference already used: <ref>`. A
/// transaction id is unique per business across collections and payouts:
/// a reference that is a payout's sessionId is 409
/// `paymentReference already used by a payout: <ref>`.
pub(crate) async fn initiate_payment(
    State(state): State<AppState>,
    caller: Caller,
    body: Body,
) -> Result<Json<TransactionResponse>, ApiError> {
    let (view, read) = body.read(CollectionFields::read);
    let fields = wire_fields(&CollectionFields::WIRE_NAMES, |name| view.get(name));
    let collection = ApiError::checked(read, validate_collection(&view))?;
    let (amount, from, to) = (collection.amount, collection.from, collection.to);
    let reference = view.payment_reference.unwrap_or_default().to_owned();
    let network = view.network.map(str::to_owned);

    let now = state.now();
    let mut account = caller.account();
    if let Some(existing) = account.collections.get(&reference) {
        return existing
            .replay(&fields, || {
                format!("paymentReference already used: {reference}")
            })
            .map(|data| Json(created(data)));
    }
    if account.payouts.contains_key(&reference) {
        return Err(ApiError::conflict(format!(
            "paymentReference already used by a payout: {reference}"
        )));
    }
    let (rate, rate_key) = if from == to {
        (Decimal::ONE, None)
    } else {
        let key = view.rate_key.unwrap_or_default();
        let quote = account.usable_quote(key, from, to, now)?;
        (quote.conversion.rate, Some(key.to_owned()))
    };
    let to_amount = converted_amount(amount, to, rate)
        .ok_or_else(|| ApiError::bad_request("amount: is too large to convert"))?;

    let memo = loop {
        let candidate = format!("PAY-{}", state.ids().upper_alphanumeric(8));
        if !account.memos.contains_key(&candidate) {
            break candidate;
        }
    };
    let (address, network) = if from.is_crypto() {
        let network = network
            .filter(|network| !network.trim().is_empty())
            .unwrap_or_else(|| DEFAULT_NETWORK.to_owned());
        (Some(format!("0x{}", state.ids().hex(40))), Some(network))
    } else {
        (None, None)
    };

    let record = TransactionRecord {
        transaction_id: format!("txn_{}", state.ids().upper_alphanumeric(10)),
        kind: TransactionKind::Collection,
        pay_refrence: Some(memo.clone()),
        payment_reference: reference.clone(),
        amount,
        to_amount,
        total_amount: amount,
        paid_amount: Some(Decimal::ZERO),
        rate,
        fee: Decimal::ZERO,
        status: TransactionStatus::Pending,
        rate_key,
        from,
        to,
        address,
        network,
        instruction_valid_until: Some(now + state.config().instruction_ttl),
    };
    let response = created(record.to_wire());
    account.memos.insert(memo, reference.clone());
    let sequence = account.next_sequence();
    account.collections.insert(
        reference,
        CollectionRecord {
            request: fields,
            transaction: record,
            created_at: now,
            sequence,
            fundings: Vec::new(),
        },
    );
    Ok(Json(response))
}

/// The answer to creating a collection.
fn created(data: crossborder_api::types::Transaction) -> TransactionResponse {
    TransactionResponse {
        message: "Payment initiated successfully".to_owned(),
        data,
        error: Some(false),
    }
}

/// `GET /api/transaction/{paymentReference}`: a collection by its
/// paymentReference, else a payout by its sessionId (creation keeps the two
/// apart, so at most one matches); 404 `Transaction not found: <ref>`.
pub(crate) async fn get_transaction(
    State(state): State<AppState>,
    caller: Caller,
    PathParams(reference): PathParams<String>,
) -> Result<Json<TransactionResponse>, ApiError> {
    let now = state.now();
    let mut account = caller.account();
    let mut expired = None;
    let data = if let Some(collection) = account.collections.get_mut(&reference) {
        if collection.transaction.refresh(now) {
            expired = collection.transaction.status_event();
        }
        collection.transaction.to_wire()
    } else if let Some(payout) = account.payouts.get(&reference) {
        payout.transaction.to_wire()
    } else {
        return Err(ApiError::not_found(format!(
            "Transaction not found: {reference}"
        )));
    };
    // This read found the collection lapsed before the sweep did: it
    // announces the expiry (once; see `expiry`).
    if let (Some(event), Some(url)) = (expired, account.webhook_url.clone()) {
        drop(account);
        state.webhooks().send(caller.business(), url, &event, now);
    }
    Ok(Json(TransactionResponse {
        message: "Transaction retrieved successfully".to_owned(),
        data,
        error: Some(false),
    }))
}
