//! What these tests share: the test kit's sandbox (a manual clock, raw
//! requests with a key, the error shape, collections, fundings, reads, a
//! webhook receiver that answers 200), and the steps shared with the sandbox
//! tests.

use crossborder_testkit::assert_error_body;
pub use crossborder_testkit::{Reply, TestSandbox as Api};
use serde_json::Value;

pub use crate::steps::{funding, post_ok, refused, with_receiver};

/// The API's error shape with this status and message, for `method` on
/// `path` (under /v1).
pub fn assert_error(reply: &Reply, status: u16, message: &str, method: &str, path: &str) {
    assert_error_body(reply, status, message, method, path);
}

/// A simulated funding ([`Api::fund`]) that the sandbox must accept.
pub async fn funded(api: &Api, currency: &str, amount: Value, memo: &str, session: &str) {
    let funded = api.fund(currency, amount, memo, session).await;
    assert_eq!(funded.status, 200, "{}", funded.text);
}
