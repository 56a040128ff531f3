//! Idempotency keys (ASSUMPTIONS.md B3): a payout's `sessionId`, a
//! simulated funding's `sessionId` and a collection's `paymentReference` are
//! unique per business. A repeat with the same request gets the original
//! response again and has no second effect; a different request under a
//! used key is 409.
//!
//! Each operation keeps one [`IdempotentRequest`] per key in the caller's
//! account, and asks it (under the account's lock) before doing anything.

use std::collections::BTreeMap;

use crate::http::error::ApiError;

/// A request's fields as read from the wire, by wire name (absent fields
/// left out), for telling a repeat from a different request.
pub(crate) type WireFields = BTreeMap<&'static str, String>;

/// A request done under an idempotency key: what was asked and what was
/// answered.
#[derive(Debug, Clone)]
pub(crate) struct IdempotentRequest<R> {
    request: WireFields,
    response: R,
}

impl<R: Clone> IdempotentRequest<R> {
    /// Records `request` and the `response` it got.
    pub(crate) fn new(request: WireFields, response: R) -> IdempotentRequest<R> {
        IdempotentRequest { request, response }
    }

    /// The original response when `request` repeats the recorded one;
    /// otherwise 409 with the message `conflict` gives.
    pub(crate) fn replay(
        &self,
        request: &WireFields,
        conflict: impl FnOnce() -> String,
    ) -> Result<R, ApiError> {
        repeats(&self.request, request, conflict).map(|()| self.response.clone())
    }
}

/// Ok when `request` repeats the `recorded` one (the same fields, read the
/// same way); otherwise 409 with the message `conflict` gives.
pub(crate) fn repeats(
    recorded: &WireFields,
    request: &WireFields,
    conflict: impl FnOnce() -> String,
) -> Result<(), ApiError> {
    if recorded == request {
        Ok(())
    } else {
        Err(ApiError::conflict(conflict()))
    }
}

#[cfg(test)]
mod tests {
    use axum::http::StatusCode;

    use super::*;

    #[test]
    fn a_repeat_replays_and_a_different_request_conflicts() {
        let fields = |amount: &str| WireFields::from([("amount", amount.to_owned())]);
        let recorded = IdempotentRequest::new(fields("10"), "first");
        assert_eq!(
            recorded.replay(&fields("10"), || unreachable!()).unwrap(),
            "first"
        );
        let conflict = recorded
            .replay(&fields("11"), || "key already used".to_owned())
            .unwrap_err();
        assert_eq!(conflict.status(), StatusCode::CONFLICT);
        assert_eq!(conflict.message(), "key already used");
    }
}
