//! The webhook: registration (`PUT /api/set-webhook`) and delivery of
//! collection status changes.
//!
//! Delivery follows the spec: one HTTP POST of the [`WebhookEvent`] JSON to
//! the registered URL, no retry, a short timeout
//! ([`SandboxConfig::webhook_timeout`](crate::SandboxConfig::webhook_timeout)),
//! sent from a background task so the request that caused it is not
//! delayed. No signature is sent (the spec shows none). Every attempt is
//! recorded and can be read with
//! [`SandboxHandle::webhook_deliveries`](crate::SandboxHandle::webhook_deliveries);
//! the log keeps the last [`MAX_WEBHOOK_DELIVERIES`](crate::MAX_WEBHOOK_DELIVERIES) attempts, so a
//! long-running sandbox does not grow without bound.
//!
//! [`WebhookEvent`]: crossborder_api::types::WebhookEvent

use axum::Json;
use crossborder_api::types::MessageResponse;
use crossborder_core::webhook::{
    validate_set_webhook, validate_set_webhook_in_production, SetWebhookFields,
};

use crate::config::Environment;
use crate::http::auth::Caller;
use crate::http::body::Body;
use crate::http::error::ApiError;

/// `PUT /api/set-webhook`: registers the account's one webhook URL
/// (`webhookUrl`, an absolute http or https URL; with a production key
/// https unless the host is loopback, ASSUMPTIONS.md C25), replacing the
/// earlier one.
pub(crate) async fn set_webhook(
    caller: Caller,
    body: Body,
) -> Result<Json<MessageResponse>, ApiError> {
    let (view, read) = body.read(SetWebhookFields::read);
    let checked = if caller.environment() == Environment::Production {
        validate_set_webhook_in_production(&view)
    } else {
        validate_set_webhook(&view)
    };
    let url = Some(ApiError::checked(read, checked)?.to_owned());
    caller.account().webhook_url = url;
    Ok(Json(MessageResponse {
        message: "Webhook URL set successfully".to_owned(),
    }))
}
