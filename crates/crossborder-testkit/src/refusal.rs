//! The check of an SDK call the API refused.

use std::fmt::Debug;

/// Asserts that `result` is the API's refusal ([`crossborder::Error::Api`])
/// with exactly `status` and `message`, and returns the error (for a check
/// of its `path` or body).
///
/// ```no_run
/// # async fn demo(client: crossborder::Client) {
/// use crossborder::Currency;
///
/// let refused = client.wallet().balance(Currency::Ngn).await;
/// crossborder_testkit::assert_api_error(refused, 401, "Invalid api key");
/// # }
/// ```
///
/// # Panics
///
/// When `result` is a success, another error, or another status or
/// message.
pub fn assert_api_error<T: Debug>(
    result: crossborder::Result<T>,
    status: u16,
    message: &str,
) -> crossborder::Error {
    match result {
        Err(error) => {
            match &error {
                crossborder::Error::Api {
                    status: got,
                    message: said,
                    ..
                } => assert_eq!((*got, said.as_str()), (status, message), "{error:?}"),
                other => panic!("expected the API's {status} {message:?}, got {other:?}"),
            }
            error
        }
        Ok(value) => panic!("expected the API's {status} {message:?}, got Ok({value:?})"),
    }
}
