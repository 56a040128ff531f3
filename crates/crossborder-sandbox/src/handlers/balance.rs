//! Wallet balances: `GET /api/balance/{currency}`.

use axum::Json;
use crossborder_api::types::{Balance, BalanceResponse};

use crate::http::auth::Caller;
use crate::http::error::ApiError;
use crate::http::params::{currency_param, PathParams};
use crate::wire;

/// `GET /api/balance/{currency}`: the caller's wallet in one currency
/// (400 `Invalid currency: <code>` for an unsupported code).
pub(crate) async fn get_balance(
    caller: Caller,
    PathParams(currency): PathParams<String>,
) -> Result<Json<BalanceResponse>, ApiError> {
    let currency = currency_param(&currency)?;
    let balance = caller.account().balance(currency);
    Ok(Json(BalanceResponse {
        message: "Balance retrieved successfully".to_owned(),
        data: Balance {
            balance: wire::amount(balance),
        },
        error: Some(false),
    }))
}
