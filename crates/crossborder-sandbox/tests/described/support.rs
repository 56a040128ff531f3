//! What these tests share: the test kit's sandbox (a manual clock, raw
//! requests with a key, the error shape, collections, fundings, reads, a
//! webhook receiver that answers 200).

use crossborder_testkit::assert_error_body;
pub use crossborder_testkit::{Reply, TestSandbox as Api};

/// The API's error shape with this status and message, for `method` on
/// `path` (under /v1).
pub fn assert_error(reply: &Reply, status: u16, message: &str, method: &str, path: &str) {
    assert_error_body(reply, status, message, method, path);
}
