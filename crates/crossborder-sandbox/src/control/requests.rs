//! The middleware that records each business's API requests (`/v1/...`)
//! for the control API's `requests` list; [`crate::store::requests`] keeps
//! them.

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;

use crate::faults::InjectedFault;
use crate::store::requests::RequestEntry;
use crate::store::state::AppState;

/// Middleware: records each answered `/v1` request made with a known key
/// under that key's business.
pub(crate) async fn record(
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> Response {
    let method = request.method().to_string();
    let path = request.uri().path().to_owned();
    let owner = state.api_request_owner(&request);
    let response = next.run(request).await;
    if let Some(owner) = owner {
        state.requests().push(
            owner,
            RequestEntry {
                method,
                path,
                status: response.status().as_u16(),
                at: state.now(),
                fault: response
                    .extensions()
                    .get::<InjectedFault>()
                    .map(|InjectedFault(kind)| *kind),
            },
        );
    }
    response
}
