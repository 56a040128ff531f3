//! The control API's routes under `/_sandbox`, each a thin reading of the
//! request (the key's business, the path, the body) around one of
//! [`Control`]'s actions. `openapi/sandbox-control.yaml` describes exactly
//! these routes; [`ROUTES`] lists them for the test that holds the two
//! together.

use std::collections::HashMap;

use axum::extract::State;
use axum::response::{IntoResponse, Response};
use axum::routing::{on, MethodFilter};
use axum::{Json, Router};
use crossborder_core::{parse_amount, Rule, Violation};
use rust_decimal::Decimal;
use serde::Serialize;

use crate::control::actions::Control;
use crate::control::body::ControlBody;
use crate::faults::{parse_rate, FaultConfig, FaultConfigError, FaultKind, FaultProfile};
use crate::http::auth::Caller;
use crate::http::error::ApiError;
use crate::http::params::{currency_param, PathParams};
use crate::settlement::PayoutSettlement;
use crate::store::state::AppState;

/// Every route of the control API, as `(method, path)`, in the order of
/// `ACTIONS`.
pub const ROUTES: [(&str, &str); 12] = [
    ("GET", "/_sandbox/state"),
    ("POST", "/_sandbox/collections/{paymentReference}/fund"),
    ("POST", "/_sandbox/collections/{paymentReference}/expire"),
    ("POST", "/_sandbox/businesses/{businessId}/approve"),
    ("POST", "/_sandbox/businesses/{businessId}/reject"),
    ("POST", "/_sandbox/payouts/{sessionId}/complete"),
    ("POST", "/_sandbox/payouts/{sessionId}/fail"),
    ("POST", "/_sandbox/webhooks/{deliveryId}/redeliver"),
    ("PUT", "/_sandbox/balances/{currency}"),
    ("POST", "/_sandbox/reset"),
    ("PUT", "/_sandbox/settings"),
    ("PUT", "/_sandbox/faults"),
];

/// What each of [`ROUTES`] does.
#[derive(Debug, Clone, Copy)]
enum Action {
    State,
    Fund,
    Expire,
    Approve,
    Reject,
    Complete,
    Fail,
    Redeliver,
    SetBalance,
    Reset,
    Settings,
    Faults,
}

/// The action of each route, in the order of [`ROUTES`].
const ACTIONS: [Action; 12] = [
    Action::State,
    Action::Fund,
    Action::Expire,
    Action::Approve,
    Action::Reject,
    Action::Complete,
    Action::Fail,
    Action::Redeliver,
    Action::SetBalance,
    Action::Reset,
    Action::Settings,
    Action::Faults,
];

/// The routes, to merge beside `/v1`.
pub(crate) fn routes() -> Router<AppState> {
    ROUTES
        .iter()
        .zip(ACTIONS)
        .fold(Router::new(), |router, (&(method, path), action)| {
            let filter = match method {
                "GET" => MethodFilter::GET,
                "PUT" => MethodFilter::PUT,
                _ => MethodFilter::POST,
            };
            let handler = move |State(state): State<AppState>,
                                caller: Caller,
                                params: Result<PathParams<HashMap<String, String>>, ApiError>,
                                body: ControlBody| async move {
                // A route's one path parameter (none for the others).
                let id = match params {
                    Ok(PathParams(params)) => params.into_values().next().unwrap_or_default(),
                    Err(error) if path.contains('{') => return Err(error),
                    Err(_) => String::new(),
                };
                act(
                    action,
                    &Control {
                        state: &state,
                        caller: &caller,
                    },
                    &id,
                    &body,
                )
            };
            router.route(path, on(filter, handler))
        })
}

/// Reads what `action` needs from the path's `id` and the body, and runs
/// it.
fn act(
    action: Action,
    control: &Control<'_>,
    id: &str,
    body: &ControlBody,
) -> Result<Response, ApiError> {
    Ok(match action {
        Action::State => answer(control.state()),
        Action::Fund => answer(control.fund(id, decimal(body, "amount")?)?),
        Action::Expire => answer(control.expire(id)?),
        Action::Approve => answer(control.approve(id)?),
        Action::Reject => answer(control.reject(id, &body.required_text("reason")?)?),
        Action::Complete => answer(control.complete(id)?),
        Action::Fail => answer(control.fail(id, body.text("reason")?.as_deref())?),
        Action::Redeliver => answer(control.redeliver(id)?),
        Action::SetBalance => answer(control.set_balance(currency_param(id)?, balance(body)?)?),
        Action::Reset => answer(control.reset()),
        Action::Settings => answer(control.settings(settlement(body)?)),
        Action::Faults => answer(control.set_faults(faults(body, control.fault_config())?)),
    })
}

fn answer(value: impl Serialize) -> Response {
    Json(value).into_response()
}

/// A decimal field written as a string (`"2500.00"`), when present: 400
/// `<name>: must be a decimal number such as 1500.50` otherwise.
fn decimal(body: &ControlBody, name: &'static str) -> Result<Option<Decimal>, ApiError> {
    let Some(text) = body.text(name)? else {
        return Ok(None);
    };
    parse_amount(text.trim()).map(Some).map_err(|_| {
        ApiError::violation(Violation::new(
            name,
            Rule::InvalidFormat,
            "must be a decimal number such as 1500.50",
        ))
    })
}

/// The required `amount` of a balance.
fn balance(body: &ControlBody) -> Result<Decimal, ApiError> {
    decimal(body, "amount")?
        .ok_or_else(|| ApiError::violation(Violation::new("amount", Rule::Required, "is required")))
}

/// The fault settings of a `PUT /_sandbox/faults` body: `profile`
/// (default `off`), `seed` (default the current one), `rates` by kind.
fn faults(body: &ControlBody, current: FaultConfig) -> Result<FaultConfig, ApiError> {
    let refuse = |field: &'static str, message: String| {
        ApiError::violation(Violation::new(field, Rule::InvalidFormat, message))
    };
    let Some(serde_json::Value::Object(fields)) = body.json() else {
        return Err(ApiError::bad_request("Request body must be a JSON object"));
    };
    if let Some(name) = fields
        .keys()
        .find(|name| !["profile", "seed", "rates"].contains(&name.as_str()))
    {
        return Err(ApiError::bad_request(format!(
            "unknown field `{name}` (valid: profile, seed, rates)"
        )));
    }
    let profile = match fields.get("profile") {
        None => FaultProfile::Off,
        Some(serde_json::Value::String(text)) => text
            .parse()
            .map_err(|error: FaultConfigError| refuse("profile", error.to_string()))?,
        Some(_) => return Err(refuse("profile", "must be off or standard".to_owned())),
    };
    let seed = match fields.get("seed") {
        None => current.seed(),
        Some(value) => value
            .as_u64()
            .ok_or_else(|| refuse("seed", "must be a whole number from 0 to 2^64-1".to_owned()))?,
    };
    let mut config = FaultConfig::profile_with_seed(profile, seed);
    match fields.get("rates") {
        None => {}
        Some(serde_json::Value::Object(rates)) => {
            for (name, value) in rates {
                let kind: FaultKind = name
                    .parse()
                    .map_err(|error: FaultConfigError| refuse("rates", error.to_string()))?;
                let text = match value {
                    serde_json::Value::String(text) => text.clone(),
                    serde_json::Value::Number(number) => number.to_string(),
                    other => other.to_string(),
                };
                let rate =
                    parse_rate(kind, &text).map_err(|error| refuse("rates", error.to_string()))?;
                config = config
                    .with_rate(kind, rate)
                    .map_err(|error| refuse("rates", error.to_string()))?;
            }
        }
        Some(_) => {
            return Err(refuse(
                "rates",
                "must be an object of rates by kind, such as {\"payout_failed\": \"0.1\"}"
                    .to_owned(),
            ))
        }
    }
    Ok(config)
}

/// The required `payoutSettlement` of the settings.
fn settlement(body: &ControlBody) -> Result<PayoutSettlement, ApiError> {
    let text = body.required_text("payoutSettlement")?;
    text.parse().map_err(|error: crate::SettlementError| {
        ApiError::violation(Violation::new(
            "payoutSettlement",
            Rule::InvalidFormat,
            error.to_string(),
        ))
    })
}
