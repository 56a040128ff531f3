//! Fault modes: production's failures, injected on purpose and
//! reproducibly, so that an integration's tests meet them before launch.
//!
//! A [`FaultConfig`] names a [`FaultProfile`] (`off` or `standard`), a seed,
//! and the rate (0 to 1) of each [`FaultKind`]. Each business draws its
//! faults from its own three streams of a small deterministic generator
//! (SplitMix64), seeded from the seed and the business's place among the
//! configured keys: one stream for its API requests, one for its webhook
//! deliveries, one for its accepted payouts. One draw is made per request
//! (per delivery, per payout) in the order the sandbox receives them, so
//! the same seed and the same sequence of requests give the same faults.
//! Concurrent requests of one business draw in the order they reach the
//! sandbox, which the network decides: a test that wants the same fault
//! list twice sends each business's requests one at a time (requests of
//! different businesses never affect each other's draws).
//!
//! ```
//! use crossborder_sandbox::faults::{FaultConfig, FaultKind, FaultProfile};
//! use rust_decimal::Decimal;
//!
//! let config = FaultConfig::standard(42).with_rate(FaultKind::PayoutFailed, Decimal::new(5, 1)).unwrap();
//! assert_eq!(config.profile(), FaultProfile::Standard);
//! assert_eq!(config.seed(), 42);
//! assert_eq!(config.rate(FaultKind::PayoutFailed), Decimal::new(5, 1));
//! assert!("chaos".parse::<FaultProfile>().unwrap_err().to_string().contains("off, standard"));
//! ```

mod config;
mod engine;
mod kind;

use std::time::Duration;

pub(crate) use self::config::parse_rate;
pub use self::config::{FaultConfig, FaultConfigError, FaultRate};
pub(crate) use self::engine::{FaultEngine, FaultRecord, InjectedFault};
pub use self::kind::{FaultKind, FaultProfile};

/// How long a delayed webhook waits before its one POST.
pub const WEBHOOK_DELAY: Duration = Duration::from_secs(2);

/// How long a `write_applied_held` answer is held: past the SDK's default
/// 30 s timeout and most clients'.
pub const ANSWER_HOLD: Duration = Duration::from_secs(60);

/// How long a `webhook_reordered` event waits for its collection's next
/// event before it is sent on its own.
pub const REORDER_HOLD: Duration = Duration::from_secs(5);

/// How late a `payout_settled_late` payout settles, on the sandbox's clock.
pub const PAYOUT_LATE: Duration = Duration::from_secs(60);

/// The `Retry-After` of a `write_refused_429` or `read_429`, in seconds.
pub const RETRY_AFTER_SECS: u64 = 1;

/// How many injected faults each business keeps (older ones are forgotten).
pub const MAX_FAULTS_KEPT: usize = 1000;

/// Rates are held in parts per million: a rate is rounded to 6 decimals.
const PPM: u64 = 1_000_000;
