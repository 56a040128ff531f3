//! Authentication by the `x-api-key` header, exactly as the API answers:
//! missing header 403 `API key header needed`, unknown key 401
//! `Invalid api key`, business without API access 401
//! `not allowed to access this resource; contact support`.

use std::sync::{Arc, Mutex, MutexGuard};

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::StatusCode;
use crossborder_api::API_KEY_HEADER;

use crate::clock::Clock;
use crate::config::Environment;
use crate::http::error::ApiError;
use crate::store::account::Account;
use crate::store::account::BusinessId;
use crate::store::state::AppState;
use crate::sync::lock;

/// The authenticated caller: the environment of its key and its account.
pub(crate) struct Caller {
    environment: Environment,
    business: BusinessId,
    account: Arc<Mutex<Account>>,
    clock: Clock,
}

impl Caller {
    /// The business behind the key.
    pub(crate) fn business(&self) -> BusinessId {
        self.business
    }

    /// The environment of the key (`test_` staging, `live_` production).
    pub(crate) fn environment(&self) -> Environment {
        self.environment
    }

    /// Locks the caller's account for one atomic operation, after settling
    /// the payouts whose settlement delay has passed, so every request sees
    /// them settled on time.
    pub(crate) fn account(&self) -> MutexGuard<'_, Account> {
        let mut account = lock(&self.account);
        account.settle_due(self.clock.now());
        account
    }

    /// The caller behind `key` (the header's value, trimmed): 403 `API key
    /// header needed` when it is empty, 401 `Invalid api key` when no
    /// business has it, 401 `not allowed to access this resource; contact
    /// support` when its business has no API access.
    pub(crate) fn for_key(state: &AppState, key: &str) -> Result<Caller, ApiError> {
        if key.is_empty() {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "API key header needed",
            ));
        }
        let Some(entry) = state.key(key) else {
            return Err(ApiError::new(StatusCode::UNAUTHORIZED, "Invalid api key"));
        };
        if !entry.api_access {
            return Err(ApiError::new(
                StatusCode::UNAUTHORIZED,
                "not allowed to access this resource; contact support",
            ));
        }
        Ok(Caller {
            environment: entry.environment,
            business: entry.business,
            account: Arc::clone(&entry.account),
            clock: state.config().clock.clone(),
        })
    }
}

impl FromRequestParts<AppState> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let Some(value) = parts.headers.get(API_KEY_HEADER) else {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "API key header needed",
            ));
        };
        // An empty header is as good as none; a value that is not visible
        // ASCII cannot be a key.
        let key = value.to_str().map(str::trim).unwrap_or("\u{0}");
        Caller::for_key(state, key)
    }
}
