//! The step of every answer that records each business's API requests (`/v1/...`)
//! for the control API's `requests` list; [`crate::store::requests`] keeps
//! them.

use axum::extract::Request;
use axum::response::Response;

use crate::faults::InjectedFault;
use crate::store::account::BusinessId;
use crate::store::requests::RequestEntry;
use crate::store::state::AppState;

/// Records the answer `serve` gives to a request of `owner` (a `/v1`
/// request made with a known key) under that key's business.
pub(crate) async fn record(
    state: &AppState,
    owner: Option<BusinessId>,
    request: Request,
    serve: impl AsyncFnOnce(Request) -> Response,
) -> Response {
    let Some(owner) = owner else {
        return serve(request).await;
    };
    let method = request.method().to_string();
    let path = request.uri().path().to_owned();
    let response = serve(request).await;
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
    response
}
