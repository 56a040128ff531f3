//! The bank list (`GET /api/bank-list/{from}/{to}`) and account resolution
//! (`POST /api/resolve-bank`), answered from the bank fixtures
//! ([`crate::store::banks`], public as `crossborder_sandbox::banks`), which
//! live below the handlers so that payouts check bank codes without
//! importing a handler.

use axum::Json;
use crossborder_api::types::{Bank, BankListResponse, ResolveBankResponse, ResolvedAccount};
use crossborder_core::resolve::{validate_resolve_bank, ResolveBankFields};

use crate::http::auth::Caller;
use crate::http::body::Body;
use crate::http::error::ApiError;
use crate::http::params::{currency_param, PathParams};
use crate::store::banks::{account_name, bank_name, banks};

/// `GET /api/bank-list/{fromCurrency}/{toCurrency}`: the banks of
/// `toCurrency` (the source currency does not change the list).
pub(crate) async fn bank_list(
    _caller: Caller,
    PathParams((from, to)): PathParams<(String, String)>,
) -> Result<Json<BankListResponse>, ApiError> {
    currency_param(&from)?;
    let to = currency_param(&to)?;
    Ok(Json(BankListResponse {
        message: "Banks retrieved successfully".to_owned(),
        data: banks(to)
            .iter()
            .map(|(code, name)| Bank {
                code: (*code).to_owned(),
                name: (*name).to_owned(),
            })
            .collect(),
    }))
}

/// `POST /api/resolve-bank`.
pub(crate) async fn resolve_bank(
    _caller: Caller,
    body: Body,
) -> Result<Json<ResolveBankResponse>, ApiError> {
    let (view, read) = body.read(ResolveBankFields::read);
    let to = ApiError::checked(read, validate_resolve_bank(&view))?.to;
    let account_number = view.account_number.unwrap_or_default().trim().to_owned();
    let bank_code = view.bank_code.unwrap_or_default().trim().to_owned();

    if bank_name(to, &bank_code).is_none() {
        return Err(ApiError::bad_request(format!(
            "Unknown bank code {bank_code} for {to}"
        )));
    }
    let account_name = account_name(&bank_code, &account_number).ok_or_else(|| {
        ApiError::not_found(format!(
            "Could not resolve account {account_number} at bank {bank_code}"
        ))
    })?;
    Ok(Json(ResolveBankResponse {
        message: "Account resolved successfully".to_owned(),
        data: ResolvedAccount {
            bank_code,
            account_name,
            account_number,
        },
        error: Some(false),
    }))
}
