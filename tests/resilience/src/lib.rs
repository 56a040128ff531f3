//! Exactly-once payouts through a fault-injecting proxy, load with
//! reconciliation, and the API key kept secret across both.
//!
//! The helpers of the test binaries in `tests/`:
//!
//! * [`sandbox`]: the in-process sandbox on a manual clock, with keys
//!   distinctive enough to be searched for, and SDK clients for it;
//! * [`fault_proxy`]: an HTTP/1.1 proxy that refuses connections, drops
//!   them before or after passing the request on, holds answers past the
//!   client's timeout and answers 502 or 503 itself, as planned operation
//!   by operation;
//! * [`seed`]: the seed of a schedule, printed and overridable;
//! * [`capture`]: everything logged at `TRACE` and every error met, and the
//!   detector that finds an API key in them.
//!
//! Everything listens on 127.0.0.1.

pub mod capture;
pub mod fault_proxy;
pub mod sandbox;
pub mod seed;
