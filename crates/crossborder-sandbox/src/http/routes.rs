//! The router: every operation of the spec under `/v1`, with the same paths
//! and spellings (`/v1/api/qoutes/...`).

use axum::extract::{DefaultBodyLimit, Request, State};
use axum::middleware::{from_fn_with_state, Next};
use axum::response::Response;
use axum::routing::{get, post, put};
use axum::Router;

use crate::control::requests;
use crate::handlers::{
    balance, banks, business, collection, documents, funding, payout, quote, webhook,
};
use crate::http::{error, error_shape, fault_injection, request_log};
use crate::limits;
use crate::store::state::AppState;

/// Builds the application.
///
/// Body limits are applied by the sandbox's own extractors (so a too-large
/// body is 413 in the API's shape), hence axum's default limit is disabled.
/// A panic in a handler becomes a 500 in the API's shape (see
/// [`envelope`](crate::http::error_shape)), and unknown
/// routes and wrong methods get 404 and 405 in the same shape.
pub(crate) fn router(state: AppState) -> Router {
    layered(operations(), state)
}

/// Every operation's route.
fn operations() -> Router<AppState> {
    Router::new()
        .route(
            "/v1/api/qoutes/{fromCurrency}/{toCurrency}/{amount}",
            get(quote::get_quote),
        )
        .route(
            "/v1/api/initiate-payment",
            post(collection::initiate_payment),
        )
        .route(
            "/v1/api/transaction/{paymentReference}",
            get(collection::get_transaction),
        )
        .route("/v1/api/balance/{currency}", get(balance::get_balance))
        .route(
            "/v1/api/bank-list/{fromCurrency}/{toCurrency}",
            get(banks::bank_list),
        )
        .route("/v1/api/resolve-bank", post(banks::resolve_bank))
        .route("/v1/api/payout", post(payout::create_payout))
        .route("/v1/api/upload-document", post(documents::upload_document))
        .route("/v1/api/business", post(business::create_business))
        .route(
            "/v1/api/business/{businessId}",
            get(business::get_business).patch(business::update_business),
        )
        .route(
            "/v1/api/business/{businessId}/director",
            post(business::add_director),
        )
        .route("/v1/api/business/{businessId}/ubo", post(business::add_ubo))
        .route("/v1/api/set-webhook", put(webhook::set_webhook))
        .route("/v1/api/simulate-funding", post(funding::simulate_funding))
        .route("/v1/documents/{id}", get(documents::get_document))
        .merge(crate::console::routes())
        .merge(crate::control::routes::routes())
        .fallback(error::route_not_found)
}

/// `routes` behind the layers every answer goes through.
fn layered(routes: Router<AppState>, state: AppState) -> Router {
    let log = state.config().request_log.clone();
    let router = routes
        .layer(DefaultBodyLimit::disable())
        .layer(from_fn_with_state(state.clone(), answer))
        .with_state(state);
    match log {
        Some(sink) => router.layer(from_fn_with_state(sink, request_log::log)),
        None => router,
    }
}

/// Every answer's way, outermost first: recorded for the control API's
/// request list, in the API's error shape, a request fault drawn and
/// injected, the head's size checked. One layer, not one per step: each
/// `from_fn` layer clones and boxes the service beneath it, and boxes its
/// future, on every request.
async fn answer(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let owner = state.api_request_owner(&request);
    let state = &state;
    requests::record(state, owner, request, async move |request| {
        error_shape::envelope(state, request, async move |request| {
            fault_injection::inject(state, owner, request, async move |request| {
                limits::head_size(request, next).await
            })
            .await
        })
        .await
    })
    .await
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use axum::body::Body;
    use axum::http::{Request, StatusCode};
    use tower::ServiceExt;

    use super::*;
    use crate::background::webhook_delivery::WebhookSender;
    use crate::config::SandboxConfig;

    /// A handler that panics is answered 500 in the API's error shape, and
    /// the router goes on answering.
    #[tokio::test]
    async fn a_panicking_handler_is_a_500_in_the_error_shape() {
        async fn boom() -> &'static str {
            panic!("boom")
        }
        let webhooks = WebhookSender::new(Duration::from_secs(1)).unwrap();
        let state = AppState::new(SandboxConfig::default(), webhooks, "http://x/v1".into());
        let app = layered(operations().route("/v1/boom", get(boom)), state);

        let response = app
            .clone()
            .oneshot(Request::get("/v1/boom?x=1").body(Body::empty()).unwrap())
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::INTERNAL_SERVER_ERROR);
        let body = axum::body::to_bytes(response.into_body(), 4096)
            .await
            .unwrap();
        let body: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(body["statusCode"], 500);
        assert_eq!(body["message"], "Internal server error");
        assert_eq!(body["path"], "/v1/boom");
        assert_eq!(body["request"]["method"], "GET");
        assert_eq!(body["request"]["url"], "/v1/boom?x=1");

        let after = app
            .oneshot(
                Request::get("/v1/api/balance/NGN")
                    .header("x-api-key", crate::config::STAGING_KEY)
                    .body(Body::empty())
                    .unwrap(),
            )
            .await
            .unwrap();
        assert_eq!(after.status(), StatusCode::OK);
    }
}
