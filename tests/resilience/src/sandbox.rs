//! The in-process sandbox the tests run against, and SDK clients for it.
//!
//! The sandbox accepts only the keys it is given, which are long and
//! distinctive so that [`crate::capture::find_key`] cannot mistake anything
//! else for them. Its clock is manual and never moves, so no quote and no
//! collection expires during a run. Each request it answers is logged (with
//! the key masked, as the sandbox's binary prints it) into the capture, and
//! kept for counting.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use crossborder::{Client, RetryPolicy};
use crossborder_sandbox::faults::FaultConfig;
use crossborder_sandbox::{ApiKeySpec, RequestLine, Sandbox, SandboxConfig, SandboxHandle};

/// A staging key of the first business.
pub const KEY: &str = "test_resilience_7Qm4Zx9Kp2Vt8Rw3Ld6";

/// A staging key of a second business.
pub const SECOND_KEY: &str = "test_resilience_B5nH2cJ6yL0fT4sE9Gk";

/// How long a request of the checking client may take.
pub const CHECK_TIMEOUT: Duration = Duration::from_secs(30);

/// A running sandbox and the requests it answered.
pub struct Env {
    /// The sandbox.
    pub sandbox: SandboxHandle,
    answered: Arc<Mutex<Vec<RequestLine>>>,
}

impl Env {
    /// A sandbox accepting exactly `keys` (each a staging business with API
    /// access and the default starting balances), on a manual clock.
    ///
    /// # Panics
    ///
    /// When a key is malformed or the sandbox cannot start.
    pub async fn start(keys: &[&str]) -> Env {
        Env::start_with_faults(keys, FaultConfig::off()).await
    }

    /// [`Env::start`], each business meeting `faults` (the sandbox's fault
    /// modes, drawn from their seed).
    ///
    /// # Panics
    ///
    /// When a key is malformed or the sandbox cannot start.
    pub async fn start_with_faults(keys: &[&str], faults: FaultConfig) -> Env {
        let answered: Arc<Mutex<Vec<RequestLine>>> = Arc::default();
        let log = answered.clone();
        let keys = keys
            .iter()
            .map(|key| ApiKeySpec::new(*key).expect("a well-formed key"))
            .collect();
        let clock = crossborder_testkit::manual_clock();
        let config = SandboxConfig::default()
            .with_keys(keys)
            .with_clock(clock)
            .with_faults(faults)
            .with_request_log(move |line| {
                tracing::info!(target: "crossborder_sandbox::requests", "{line}");
                log.lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .push(line.clone());
            });
        let sandbox = Sandbox::start(config).await.expect("the sandbox starts");
        Env { sandbox, answered }
    }

    /// `http://127.0.0.1:PORT/v1`.
    pub fn base_url(&self) -> &str {
        self.sandbox.base_url()
    }

    /// A client straight to the sandbox, without retries and with a
    /// generous timeout, for reading the state a run left.
    pub fn checking_client(&self, key: &str) -> Client {
        client(self.base_url(), key, CHECK_TIMEOUT, RetryPolicy::none())
    }

    /// How many requests the sandbox answered with `method`, `path` (as
    /// logged: `/v1/api/payout`) and `status`, no fault in the way.
    pub fn answered(&self, method: &str, path: &str, status: u16) -> usize {
        self.answered
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .iter()
            .filter(|line| {
                line.method == method
                    && line.path == path
                    && line.status == status
                    && line.fault.is_none()
            })
            .count()
    }

    /// The requests the sandbox answered from the `from`th on (0: all), in
    /// order, each with the fault it injected, if any.
    pub fn lines_from(&self, from: usize) -> Vec<RequestLine> {
        let lines = self.answered.lock().unwrap_or_else(PoisonError::into_inner);
        lines.get(from..).map(<[_]>::to_vec).unwrap_or_default()
    }

    /// How many requests the sandbox answered.
    pub fn answered_total(&self) -> usize {
        self.answered
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }
}

/// An SDK client for `base_url` with `key`, `timeout` and `retry`.
///
/// # Panics
///
/// When the client cannot be built (a malformed key or URL).
pub fn client(base_url: &str, key: &str, timeout: Duration, retry: RetryPolicy) -> Client {
    crossborder_testkit::sdk_client_with(base_url, key, timeout, retry)
        .expect("the SDK client builds")
}
