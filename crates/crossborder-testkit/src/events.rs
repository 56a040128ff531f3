//! Posting any body to a webhook receiver, as the service (or a forger)
//! would.

use std::time::Duration;

use crate::http::http_client;

/// How long [`post_event`] waits for the receiver's answer.
const EVENT_TIMEOUT: Duration = Duration::from_secs(10);

/// A receiver's answer to [`post_event`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventReply {
    /// The HTTP status.
    pub status: u16,
    /// The body as text.
    pub text: String,
}

/// POSTs `body` as `application/json` to `url` (the receiver's route, such
/// as `http://127.0.0.1:PORT/hooks/crossborder`) and returns the answer.
/// The body is sent exactly as given: a forged event, a stale one, a body
/// that is not an event at all.
///
/// ```no_run
/// # async fn demo() -> Result<(), reqwest::Error> {
/// let forged = r#"{"reference": "order-1", "status": "COMPLETED", "amount": "50000", "currency": "NGN"}"#;
/// let reply = crossborder_testkit::post_event("http://127.0.0.1:3000/hooks/crossborder", forged).await?;
/// assert_eq!(reply.status, 200);
/// # Ok(()) }
/// ```
///
/// # Errors
///
/// The transport's error when the receiver cannot be reached or does not
/// answer within 10 seconds.
pub async fn post_event(
    url: &str,
    body: impl Into<reqwest::Body>,
) -> Result<EventReply, reqwest::Error> {
    let response = http_client(EVENT_TIMEOUT)
        .post(url)
        .header("content-type", "application/json")
        .body(body)
        .send()
        .await?;
    let status = response.status().as_u16();
    let text = response.text().await?;
    Ok(EventReply { status, text })
}
