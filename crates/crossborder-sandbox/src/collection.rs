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
//! instruction lapses with nothing paid. Collections carry no fee
//! (`fee` 0, `totalAmount` = `amount`); when the currencies differ, the
//! rateKey's rate gives `toAmount`.

use axum::extract::State;
use axum::Json;
use crossborder_api::types::TransactionResponse;
use crossborder_core::{Rule, Violation};
use rust_decimal::Decimal;

use crate::amount::check_amount;
use crate::auth::Caller;
use crate::error::ApiError;
use crate::json::{JsonObject, Reader};
use crate::params::{currency_field, required, PathParams};
use crate::state::AppState;
use crate::transaction::{Instruction, TransactionKind, TransactionRecord, TransactionStatus};
use crate::wire::round;

/// The longest paymentReference accepted, in characters.
pub const MAX_PAYMENT_REFERENCE_CHARS: usize = 100;

/// The account payers of fiat collections pay into.
pub const COLLECTION_ACCOUNT_NUMBER: &str = "9930001234";
/// The name of that account.
pub const COLLECTION_ACCOUNT_NAME: &str = "Crossborder Collections";
/// The bank of that account.
pub const COLLECTION_BANK_NAME: &str = "Sandbox Bank";
/// The network of a crypto collection when the request names none.
pub const DEFAULT_NETWORK: &str = "ethereum";

/// `POST /api/initiate-payment`.
pub(crate) async fn initiate_payment(
    State(state): State<AppState>,
    caller: Caller,
    JsonObject(body): JsonObject,
) -> Result<Json<TransactionResponse>, ApiError> {
    let reader = Reader::new(&body);
    let mut violations = Vec::new();
    let amount = reader.number("amount", &mut violations);
    let from = reader.string("fromCurrency", &mut violations);
    let to = reader.string("toCurrency", &mut violations);
    let reference = reader.string("paymentReference", &mut violations);
    let rate_key = reader.string("rateKey", &mut violations);
    let network = reader.string("network", &mut violations);

    let from = currency_field(&mut violations, "fromCurrency", from);
    let to = currency_field(&mut violations, "toCurrency", to);
    let amount = match amount {
        Some(amount) => check_amount("amount", amount, from)
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
    let reference = required(&mut violations, "paymentReference", reference);
    if let Some(reference) = &reference {
        if reference.chars().count() > MAX_PAYMENT_REFERENCE_CHARS {
            violations.push(Violation::new(
                "paymentReference",
                Rule::TooLong,
                format!("must be at most {MAX_PAYMENT_REFERENCE_CHARS} characters"),
            ));
        }
    }
    if let (Some(from), Some(to)) = (from, to) {
        if from != to && rate_key.as_deref().is_none_or(|key| key.trim().is_empty()) {
            violations.push(Violation::new(
                "rateKey",
                Rule::Required,
                format!("is required when fromCurrency ({from}) differs from toCurrency ({to})"),
            ));
        }
    }
    violations.sort_by_key(|violation| field_order(&violation.field));
    if !violations.is_empty() {
        return Err(ApiError::invalid(&violations));
    }
    let (Some(amount), Some(from), Some(to), Some(reference)) = (amount, from, to, reference)
    else {
        return Err(ApiError::bad_request("Invalid collection request"));
    };

    let now = state.now();
    let mut account = caller.account();
    if account.collections.contains_key(&reference) {
        return Err(ApiError::conflict(format!(
            "paymentReference already used: {reference}"
        )));
    }
    let (rate, rate_key) = if from == to {
        (Decimal::ONE, None)
    } else {
        let key = rate_key.unwrap_or_default();
        let quote = account.usable_quote(&key, from, to, now)?;
        (quote.conversion.rate, Some(key))
    };
    let to_amount = amount
        .checked_mul(rate)
        .map(|product| round(product, to))
        .ok_or_else(|| ApiError::bad_request("amount: is too large to convert"))?;

    let memo = loop {
        let candidate = format!("PAY-{}", state.ids().upper_alphanumeric(8));
        if !account.memos.contains_key(&candidate) {
            break candidate;
        }
    };
    let valid_until = now + state.config().instruction_ttl;
    let (address, network, instruction) = if from.is_crypto() {
        let network = network
            .filter(|network| !network.trim().is_empty())
            .unwrap_or_else(|| DEFAULT_NETWORK.to_owned());
        let address = format!("0x{}", state.ids().hex(40));
        let instruction = Instruction {
            narration: format!("Send {amount} {from} on {network} to {address} with memo {memo}"),
            account_number: address.clone(),
            account_name: COLLECTION_ACCOUNT_NAME.to_owned(),
            bank_name: network.clone(),
            amount_to_transfer: amount,
            valid_until,
        };
        (Some(address), Some(network), instruction)
    } else {
        let instruction = Instruction {
            narration: format!("Use {memo} as the transfer narration"),
            account_number: COLLECTION_ACCOUNT_NUMBER.to_owned(),
            account_name: COLLECTION_ACCOUNT_NAME.to_owned(),
            bank_name: COLLECTION_BANK_NAME.to_owned(),
            amount_to_transfer: amount,
            valid_until,
        };
        (None, None, instruction)
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
        instructions: vec![instruction],
    };
    let data = record.to_wire();
    account.memos.insert(memo, reference.clone());
    account.collections.insert(reference, record);
    drop(account);

    Ok(Json(TransactionResponse {
        message: "Payment initiated successfully".to_owned(),
        data,
        error: Some(false),
    }))
}

/// Violations in the order of the request's fields.
fn field_order(field: &str) -> usize {
    [
        "amount",
        "fromCurrency",
        "toCurrency",
        "paymentReference",
        "rateKey",
        "network",
    ]
    .iter()
    .position(|known| *known == field)
    .unwrap_or(usize::MAX)
}

/// `GET /api/transaction/{paymentReference}`: a collection by its
/// paymentReference, else a payout by its sessionId; 404
/// `Transaction not found: <ref>`.
pub(crate) async fn get_transaction(
    State(state): State<AppState>,
    caller: Caller,
    PathParams(reference): PathParams<String>,
) -> Result<Json<TransactionResponse>, ApiError> {
    let now = state.now();
    let mut account = caller.account();
    let data = if let Some(collection) = account.collections.get_mut(&reference) {
        collection.refresh(now);
        collection.to_wire()
    } else if let Some(payout) = account.payouts.get(&reference) {
        payout.transaction.to_wire()
    } else {
        return Err(ApiError::not_found(format!(
            "Transaction not found: {reference}"
        )));
    };
    Ok(Json(TransactionResponse {
        message: "Transaction retrieved successfully".to_owned(),
        data,
        error: Some(false),
    }))
}
