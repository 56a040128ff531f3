//! The console: one web page at `/` that shows a business's state and acts
//! on it through the control API under `/_sandbox/`, with its script and
//! style at `/console/`. The page asks for an API key once, keeps it in the
//! tab's session storage and sends it only in the `x-api-key` header.
//!
//! The assets are compiled in with `include_str!`, so an installed binary
//! (`cargo install`) serves them with no files beside it, and there is no
//! build step outside cargo.

use axum::http::{header, HeaderName, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use crossborder_core::Currency;

use crate::store::state::AppState;

/// The page; `{{MINOR_UNITS}}` is replaced by [`minor_units_json`].
const PAGE: &str = include_str!("index.html");
const SCRIPT: &str = include_str!("console.js");
const STYLE: &str = include_str!("console.css");

/// Where the page's script and style are served.
pub(crate) const SCRIPT_PATH: &str = "/console/console.js";
pub(crate) const STYLE_PATH: &str = "/console/console.css";

/// Only the page's own script and style run, it talks only to its own
/// origin, and no other site can frame it: the key typed into it stays
/// with the sandbox.
const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; \
     style-src 'self'; connect-src 'self'; img-src 'self' data:; form-action 'none'; \
     frame-ancestors 'none'; base-uri 'none'";

/// The console's routes, outside `/v1` and `/_sandbox`.
pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/", get(page))
        .route(SCRIPT_PATH, get(script))
        .route(STYLE_PATH, get(style))
}

async fn page() -> Response {
    let html = PAGE.replace("{{MINOR_UNITS}}", &minor_units_json());
    asset(html, "text/html; charset=utf-8")
}

async fn script() -> Response {
    asset(SCRIPT, "text/javascript; charset=utf-8")
}

async fn style() -> Response {
    asset(STYLE, "text/css; charset=utf-8")
}

/// `body` with its type and the headers every console asset carries.
fn asset(body: impl IntoResponse, content_type: &'static str) -> Response {
    let headers = [
        (header::CONTENT_TYPE, HeaderValue::from_static(content_type)),
        (header::CACHE_CONTROL, HeaderValue::from_static("no-store")),
        (
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(CONTENT_SECURITY_POLICY),
        ),
        (
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ),
        (
            header::REFERRER_POLICY,
            HeaderValue::from_static("no-referrer"),
        ),
        (
            HeaderName::from_static("x-frame-options"),
            HeaderValue::from_static("DENY"),
        ),
    ];
    (headers, body).into_response()
}

/// Each currency's minor units (`{"NGN":2,...,"UGX":0,...}`), from
/// [`Currency::minor_unit_exponent`], so the page shows amounts by the same
/// table as the SDK's `display_amount`.
fn minor_units_json() -> String {
    let entries: Vec<String> = Currency::ALL
        .iter()
        .map(|currency| format!("\"{}\":{}", currency.code(), currency.minor_unit_exponent()))
        .collect();
    format!("{{{}}}", entries.join(","))
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

    async fn get_asset(path: &str) -> (StatusCode, axum::http::HeaderMap, String) {
        let webhooks = WebhookSender::new(Duration::from_secs(1)).unwrap();
        let state = AppState::new(SandboxConfig::default(), webhooks, "http://x/v1".into());
        let app = crate::http::routes::router(state);
        let response = app
            .oneshot(Request::get(path).body(Body::empty()).unwrap())
            .await
            .unwrap();
        let status = response.status();
        let headers = response.headers().clone();
        let body = axum::body::to_bytes(response.into_body(), 1 << 20)
            .await
            .unwrap();
        (status, headers, String::from_utf8(body.to_vec()).unwrap())
    }

    /// The page, its script and its style are served without a key, each
    /// with its type and the policy that keeps the page to its own origin.
    #[tokio::test]
    async fn the_page_and_its_assets_are_served_with_their_types_and_policy() {
        for (path, content_type, marker) in [
            ("/", "text/html; charset=utf-8", "<title>Sandbox console"),
            (
                SCRIPT_PATH,
                "text/javascript; charset=utf-8",
                "'use strict';",
            ),
            (
                STYLE_PATH,
                "text/css; charset=utf-8",
                "@media (max-width: 760px)",
            ),
        ] {
            let (status, headers, body) = get_asset(path).await;
            assert_eq!(status, StatusCode::OK, "{path}");
            assert_eq!(headers[header::CONTENT_TYPE], content_type, "{path}");
            assert_eq!(headers[header::CACHE_CONTROL], "no-store", "{path}");
            assert_eq!(
                headers[header::CONTENT_SECURITY_POLICY],
                CONTENT_SECURITY_POLICY,
                "{path}"
            );
            assert_eq!(headers[header::X_CONTENT_TYPE_OPTIONS], "nosniff", "{path}");
            assert!(body.contains(marker), "{path}: {body}");
        }
    }

    /// The page carries every currency's minor units, as the SDK counts
    /// them, and nothing is left of the placeholder.
    #[tokio::test]
    async fn the_page_carries_every_currencys_minor_units() {
        let (_, _, html) = get_asset("/").await;
        assert!(!html.contains("{{"), "{html}");
        let start = html.find(r#"<script id="minor-units" type="application/json">"#);
        let json = start
            .and_then(|at| html[at..].split_once('>'))
            .and_then(|(_, rest)| rest.split_once("</script>"))
            .map(|(json, _)| json)
            .unwrap_or_else(|| panic!("no minor-units block in {html}"));
        let table: serde_json::Map<String, serde_json::Value> = serde_json::from_str(json).unwrap();
        assert_eq!(table.len(), Currency::ALL.len());
        for currency in Currency::ALL {
            assert_eq!(
                table[currency.code()],
                currency.minor_unit_exponent(),
                "{currency}"
            );
        }
        assert_eq!(table["UGX"], 0);
        assert_eq!(table["USDT"], 6);
        assert_eq!(table["NGN"], 2);
    }

    /// Other paths outside `/v1` are still the API's 404, not the page.
    #[tokio::test]
    async fn other_paths_are_not_the_page() {
        let (status, headers, body) = get_asset("/console/other.js").await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        assert_eq!(headers[header::CONTENT_TYPE], "application/json");
        assert!(body.contains(r#""statusCode":404"#), "{body}");
    }
}
