//! The last requests of each business, as the control API lists them: the
//! API's own requests (`/v1/...`), not the console's reads and actions,
//! which would crowd them out. `control::requests` records them.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::time::SystemTime;

use crate::store::account::BusinessId;
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
    /// The fault injected into it, if any.
    pub(crate) fault: Option<crate::faults::FaultKind>,
}

/// The last [`MAX_REQUESTS_KEPT`] requests of each business.
#[derive(Debug, Default)]
pub(crate) struct RequestHistory {
    kept: Mutex<HashMap<BusinessId, VecDeque<RequestEntry>>>,
}

impl RequestHistory {
    pub(crate) fn push(&self, owner: BusinessId, entry: RequestEntry) {
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
                fault: None,
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
