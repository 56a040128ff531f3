//! Helpers shared by the tests: the test kit's sandbox (raw requests with
//! the staging key by default), and what only these tests need.

pub use crossborder_testkit::fixtures::ngn_payout_json as ngn_payout;
pub use crossborder_testkit::{
    assert_error_body as assert_error, read_reply as reply, Reply, TestSandbox as Api,
    WebhookReceiver as Receiver,
};

/// Creates an NGN collection and returns its memo (`payRefrence`).
pub async fn ngn_collection(api: &Api, reference: &str, amount: u64) -> String {
    api.collection(reference, amount.into(), "NGN", "NGN").await
}
