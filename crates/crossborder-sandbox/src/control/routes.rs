//! The control API's routes under `/_sandbox`, each a thin reading of the
//! request (the key's business, the path, the body) around one of
//! [`Control`]'s actions. `openapi/sandbox-control.yaml` describes exactly
//! these routes; [`ROUTES`] lists them for the test that holds the two
//! together.

use axum::extract::State;
use axum::routing::{get, post, put, MethodRouter};
use axum::{Json, Router};
use crossborder_core::{parse_amount, Rule, Violation};
use rust_decimal::Decimal;

use crate::control::actions::Control;
use crate::control::body::ControlBody;
use crate::control::view::{
    BalanceView, BusinessView, CollectionView, DeliveryView, PayoutView, SandboxState, SettingsView,
};
use crate::http::auth::Caller;
use crate::http::error::ApiError;
use crate::http::params::{currency_param, PathParams};
use crate::settlement::PayoutSettlement;
use crate::store::state::AppState;

/// Every route of the control API, as `(method, path)`.
pub const ROUTES: [(&str, &str); 11] = [
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
];

/// The routes, to merge beside `/v1`.
pub(crate) fn routes() -> Router<AppState> {
    let handlers: [MethodRouter<AppState>; 11] = [
        get(read_state),
        post(fund),
        post(expire),
        post(approve),
        post(reject),
        post(complete),
        post(fail),
        post(redeliver),
        put(set_balance),
        post(reset),
        put(settings),
    ];
    ROUTES
        .iter()
        .zip(handlers)
        .fold(Router::new(), |router, ((_, path), handler)| {
            router.route(path, handler)
        })
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

async fn read_state(State(state): State<AppState>, caller: Caller) -> Json<SandboxState> {
    Json(
        Control {
            state: &state,
            caller: &caller,
        }
        .state(),
    )
}

async fn fund(
    State(state): State<AppState>,
    caller: Caller,
    PathParams(reference): PathParams<String>,
    body: ControlBody,
) -> Result<Json<CollectionView>, ApiError> {
    let amount = decimal(&body, "amount")?;
    Control {
        state: &state,
        caller: &caller,
    }
    .fund(&reference, amount)
    .map(Json)
}

async fn expire(
    State(state): State<AppState>,
    caller: Caller,
    PathParams(reference): PathParams<String>,
    _body: ControlBody,
) -> Result<Json<CollectionView>, ApiError> {
    Control {
        state: &state,
        caller: &caller,
    }
    .expire(&reference)
    .map(Json)
}

async fn approve(
    State(state): State<AppState>,
    caller: Caller,
    PathParams(id): PathParams<String>,
    _body: ControlBody,
) -> Result<Json<BusinessView>, ApiError> {
    Control {
        state: &state,
        caller: &caller,
    }
    .approve(&id)
    .map(Json)
}

async fn reject(
    State(state): State<AppState>,
    caller: Caller,
    PathParams(id): PathParams<String>,
    body: ControlBody,
) -> Result<Json<BusinessView>, ApiError> {
    let reason = body.required_text("reason")?;
    Control {
        state: &state,
        caller: &caller,
    }
    .reject(&id, &reason)
    .map(Json)
}

async fn complete(
    State(state): State<AppState>,
    caller: Caller,
    PathParams(session_id): PathParams<String>,
    _body: ControlBody,
) -> Result<Json<PayoutView>, ApiError> {
    Control {
        state: &state,
        caller: &caller,
    }
    .complete(&session_id)
    .map(Json)
}

async fn fail(
    State(state): State<AppState>,
    caller: Caller,
    PathParams(session_id): PathParams<String>,
    body: ControlBody,
) -> Result<Json<PayoutView>, ApiError> {
    let reason = body.text("reason")?;
    Control {
        state: &state,
        caller: &caller,
    }
    .fail(&session_id, reason.as_deref())
    .map(Json)
}

async fn redeliver(
    State(state): State<AppState>,
    caller: Caller,
    PathParams(delivery_id): PathParams<String>,
    _body: ControlBody,
) -> Result<Json<DeliveryView>, ApiError> {
    Control {
        state: &state,
        caller: &caller,
    }
    .redeliver(&delivery_id)
    .map(Json)
}

async fn set_balance(
    State(state): State<AppState>,
    caller: Caller,
    PathParams(currency): PathParams<String>,
    body: ControlBody,
) -> Result<Json<BalanceView>, ApiError> {
    let currency = currency_param(&currency)?;
    let Some(amount) = decimal(&body, "amount")? else {
        return Err(ApiError::violation(Violation::new(
            "amount",
            Rule::Required,
            "is required",
        )));
    };
    Control {
        state: &state,
        caller: &caller,
    }
    .set_balance(currency, amount)
    .map(Json)
}

async fn reset(
    State(state): State<AppState>,
    caller: Caller,
    _body: ControlBody,
) -> Json<SandboxState> {
    Json(
        Control {
            state: &state,
            caller: &caller,
        }
        .reset(),
    )
}

async fn settings(
    State(state): State<AppState>,
    caller: Caller,
    body: ControlBody,
) -> Result<Json<SettingsView>, ApiError> {
    let text = body.required_text("payoutSettlement")?;
    let settlement: PayoutSettlement = text.parse().map_err(|error: crate::SettlementError| {
        ApiError::violation(Violation::new(
            "payoutSettlement",
            Rule::InvalidFormat,
            error.to_string(),
        ))
    })?;
    Ok(Json(
        Control {
            state: &state,
            caller: &caller,
        }
        .settings(settlement),
    ))
}
