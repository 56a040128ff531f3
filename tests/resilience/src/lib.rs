//! Exactly-once payouts under the sandbox's fault modes, load with
//! reconciliation, and the API key kept secret across both.
//!
//! The helpers of the test binaries in `tests/`:
//!
//! * [`sandbox`]: the in-process sandbox on a manual clock, with keys
//!   distinctive enough to be searched for, and SDK clients for it;
//! * [`refusal`]: a TCP forwarder whose listener closes for a while, for
//!   the one fault the sandbox cannot make itself, a connection refused
//!   (every other fault, an answer lost after the write was applied, a
//!   write refused, a read failing, is the sandbox's own fault mode);
//! * [`seed`]: the seed of a schedule, printed and overridable;
//! * [`capture`]: everything logged at `TRACE` and every error met, and the
//!   detector that finds an API key in them.
//!
//! Everything listens on 127.0.0.1.

pub mod capture;
pub mod refusal;
pub mod sandbox;
pub mod seed;
