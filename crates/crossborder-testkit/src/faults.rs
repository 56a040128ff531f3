//! A sandbox that injects production's failures, and the faults it
//! injected, typed, so that a test can assert that a fault of a kind hit a
//! request and that the code under test recovered.

use crossborder_sandbox::faults::{FaultConfig, FaultKind};
use crossborder_sandbox::{SandboxConfig, SandboxHandle};

use crate::sandbox::TestSandbox;

/// A fault the sandbox injected, as its control API lists it
/// (`GET /_sandbox/state`, `faults`), its kind typed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InjectedFault {
    /// `flt_` and a number, in the order the faults were injected.
    pub id: String,
    /// The kind.
    pub kind: FaultKind,
    /// When, on the sandbox's clock (RFC 3339).
    pub at: String,
    /// What it hit: a request (`POST /v1/api/payout`, with the object a
    /// lost answer named: `POST /v1/api/payout (sessionId s-1)`), a webhook
    /// delivery id, a payout's sessionId or a rateKey.
    pub target: String,
    /// What the sandbox did: whether the request was applied and what it
    /// had answered, or what became of the event or payout.
    pub applied: String,
}

impl InjectedFault {
    /// Whether the fault hit `target`: the target itself (a sessionId, a
    /// delivery id), or a request naming it (`POST /v1/api/payout
    /// (sessionId s-1)` hit `s-1`).
    pub fn hit(&self, target: &str) -> bool {
        self.target == target
            || self
                .target
                .strip_suffix(')')
                .and_then(|rest| rest.rsplit_once(' '))
                .is_some_and(|(_, named)| named == target)
    }
}

/// The faults the sandbox injected into `key`'s business, oldest first (at
/// most the last [`MAX_FAULTS_KEPT`](crossborder_sandbox::faults::MAX_FAULTS_KEPT)).
///
/// # Panics
///
/// When the sandbox knows no business with `key`, or lists a kind this
/// test kit does not know (a sandbox of another version).
pub fn injected_faults(sandbox: &SandboxHandle, key: &str) -> Vec<InjectedFault> {
    let state = sandbox
        .state(key)
        .unwrap_or_else(|error| panic!("no state for the key's business: {error}"));
    state
        .faults
        .into_iter()
        .rev()
        .map(|fault| InjectedFault {
            kind: fault
                .kind
                .parse()
                .unwrap_or_else(|error| panic!("fault {}: {error}", fault.fault_id)),
            id: fault.fault_id,
            at: fault.at,
            target: fault.target,
            applied: fault.applied,
        })
        .collect()
}

impl TestSandbox {
    /// A sandbox whose every business meets `faults` (for instance
    /// `FaultConfig::standard(seed)`, as `--faults standard --fault-seed
    /// SEED` on the command line), on the manual clock.
    ///
    /// # Panics
    ///
    /// When the sandbox cannot start (no free loopback port).
    pub async fn start_with_faults(faults: FaultConfig) -> TestSandbox {
        TestSandbox::start_with(SandboxConfig::default().with_faults(faults)).await
    }

    /// The faults injected into the staging business
    /// ([`TestSandbox::KEY`]), oldest first.
    pub fn faults(&self) -> Vec<InjectedFault> {
        injected_faults(&self.sandbox, TestSandbox::KEY)
    }

    /// The faults injected into `key`'s business, oldest first.
    ///
    /// # Panics
    ///
    /// When the sandbox knows no business with `key`.
    pub fn faults_of(&self, key: &str) -> Vec<InjectedFault> {
        injected_faults(&self.sandbox, key)
    }
}
