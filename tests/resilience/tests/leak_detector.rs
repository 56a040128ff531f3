//! The secrecy check of `exactly_once.rs` and `load.rs` would notice a key
//! (#13, item 5): the same capture and detector, in a binary of their own,
//! find a key logged through `tracing`, one logged through `log`, and one in
//! an error's text, while the key of the SDK's real requests stays unseen.

use crossborder::{Currency, Error, RetryPolicy};
use crossborder_resilience_tests::capture::{capture, find_key};
use crossborder_resilience_tests::sandbox::{client, Env, CHECK_TIMEOUT, KEY};

const LEAKED_BY_TRACING: &str = "test_leak_tracing_Wq8Zr3Nx5Lp1";
const LEAKED_BY_LOG: &str = "test_leak_log_Jd4Hs7Gk2Mv9";
const LEAKED_BY_ERROR: &str = "live_leak_error_Ty6Bc1Fp8Qz3";

#[test]
fn the_detector_finds_a_key_in_any_case_with_or_without_its_prefix() {
    let key = "test_resilience_7Qm4Zx9Kp2Vt8Rw3";
    assert_eq!(
        find_key("x-api-key: test_resilience_7Qm4Zx9Kp2Vt8Rw3", key),
        Some(16)
    );
    assert_eq!(
        find_key("key=\"RESILIENCE_7QM4ZX9KP2VT8RW3\"", key),
        Some(5)
    );
    assert_eq!(find_key("resilience_7qm4zx9kp2vt8rw3", key), Some(0));
    // The masked form the sandbox logs, and a near miss, are not the key.
    assert_eq!(find_key("key=test_…8Rw3", key), None);
    assert_eq!(find_key("test_resilience_7Qm4Zx9Kp2Vt8Rw", key), None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_check_notices_a_key_in_the_log_and_in_an_error() {
    let capture = capture();
    // A real request, so that the capture holds the SDK's span and the
    // sandbox's masked request line.
    let env = Env::start(&[KEY]).await;
    let sdk = client(env.base_url(), KEY, CHECK_TIMEOUT, RetryPolicy::none());
    sdk.wallet().balance(Currency::Ngn).await.unwrap();
    let log = capture.log_text();
    assert!(log.contains("crossborder.request"), "{log}");
    assert!(log.contains("GET /v1/api/balance/NGN 200"), "{log}");
    assert!(log.contains("key=test_…"), "{log}");
    capture.assert_no_leak(&[KEY]);

    tracing::trace!(target: "crossborder", api_key = LEAKED_BY_TRACING, "a careless event");
    log::debug!("a careless log record with {LEAKED_BY_LOG}");
    capture.record_error(&Error::Config(format!("key {LEAKED_BY_ERROR} refused")));

    let leaks = capture.leaks(&[LEAKED_BY_TRACING]);
    assert_eq!(leaks.len(), 1, "{leaks:?}");
    assert!(leaks[0].starts_with("log: "), "{leaks:?}");
    assert!(leaks[0].contains("api_key=\"test_<API KEY>\""), "{leaks:?}");
    let leaks = capture.leaks(&[LEAKED_BY_LOG]);
    assert_eq!(leaks.len(), 1, "{leaks:?}");
    assert!(
        leaks[0].contains("a careless log record with test_<API KEY>"),
        "{leaks:?}"
    );
    // Display, Debug and pretty Debug of the error each show it.
    let leaks = capture.leaks(&[LEAKED_BY_ERROR]);
    assert_eq!(leaks.len(), 3, "{leaks:?}");
    assert!(
        leaks.iter().all(|leak| leak.starts_with("error: ")),
        "{leaks:?}"
    );
    // The report masks what it found.
    for leak in capture.leaks(&[LEAKED_BY_TRACING, LEAKED_BY_LOG, LEAKED_BY_ERROR]) {
        for key in [LEAKED_BY_TRACING, LEAKED_BY_LOG, LEAKED_BY_ERROR] {
            assert_eq!(find_key(&leak, key), None, "{leak}");
        }
    }

    let message = capture
        .check_no_leak(&[KEY, LEAKED_BY_LOG])
        .expect_err("the check fails on a leaked key");
    assert!(
        message.starts_with("the API key leaked:\nlog: "),
        "{message}"
    );
    // The key of the real requests is still nowhere.
    capture.assert_no_leak(&[KEY]);
}
