//! The last requests of each business, as the control API lists them: the
//! API's own requests (`/v1/...`), not the console's reads and actions,
//! which would crowd them out.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::time::SystemTime;

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;
use crossborder_api::API_KEY_HEADER;

use crate::store::account::BusinessId;
use crate::store::state::AppState;
use crate::sync::lock;

/// How many requests of each business are kept.
pub const MAX_REQUESTS_KEPT: usize = 100;

/// A request as kept: method, path (without the query), status and when.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RequestEntry {
    pub(crate) method: String,
    pub(crate) path: String,
    pub(crate) status: u16,
    pub(crate) at: SystemTime,
}

/// The last [`MAX_REQUESTS_KEPT`] requests of each business.
#[derive(Debug, Default)]
pub(crate) struct RequestHistory {
    kept: Mutex<HashMap<BusinessId, VecDeque<RequestEntry>>>,
}

impl RequestHistory {
    fn push(&self, owner: BusinessId, entry: RequestEntry) {
        let mut kept = lock(&self.kept);
        let requests = kept.entry(owner).or_default();
        if requests.len() >= MAX_REQUESTS_KEPT {
            requests.pop_front();
        }
        requests.push_back(entry);
    }

    /// The requests of `owner`, newest first.
    pub(crate) fn of(&self, owner: BusinessId) -> Vec<RequestEntry> {
        lock(&self.kept)
            .get(&owner)
            .map(|requests| requests.iter().rev().cloned().collect())
            .unwrap_or_default()
    }

    /// Forgets the requests of `owner` (a reset of its business).
    pub(crate) fn forget(&self, owner: BusinessId) {
        lock(&self.kept).remove(&owner);
    }
}

/// Middleware: records each answered `/v1` request made with a known key
/// under that key's business.
pub(crate) async fn record(
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> Response {
    let method = request.method().to_string();
    let path = request.uri().path().to_owned();
    let owner = request
        .headers()
        .get(API_KEY_HEADER)
        .and_then(|value| value.to_str().ok())
        .and_then(|key| state.key(key.trim()))
        .map(|entry| entry.business)
        .filter(|_| path.starts_with("/v1/"));
    let response = next.run(request).await;
    if let Some(owner) = owner {
        state.requests().push(
            owner,
            RequestEntry {
                method,
                path,
                status: response.status().as_u16(),
                at: state.now(),
            },
        );
    }
    response
}

#[cfg(test)]
mod tests {
    use std::time::UNIX_EPOCH;

    use super::*;

    #[test]
    fn only_the_last_requests_of_each_business_are_kept() {
        let history = RequestHistory::default();
        let (mine, theirs) = (BusinessId::new(0), BusinessId::new(1));
        for index in 0..MAX_REQUESTS_KEPT + 5 {
            let entry = RequestEntry {
                method: "GET".to_owned(),
                path: format!("/v1/api/transaction/{index}"),
                status: 200,
                at: UNIX_EPOCH,
            };
            history.push(mine, entry);
        }
        let kept = history.of(mine);
        assert_eq!(kept.len(), MAX_REQUESTS_KEPT);
        assert_eq!(kept[0].path, "/v1/api/transaction/104");
        assert_eq!(kept[99].path, "/v1/api/transaction/5");
        assert!(history.of(theirs).is_empty());
        history.forget(mine);
        assert!(history.of(mine).is_empty());
    }
}
