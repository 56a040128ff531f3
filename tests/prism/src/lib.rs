//! Conformance of the SDK and the sandbox to `openapi/crossborder.yaml`
//! through Prism: a validating proxy between them, and the SDK against
//! random spec-valid mock answers.
//!
//! * [`install`]: Prism at the version `xtask/npm-packages.txt` pins,
//!   installed on first use (at most once per test binary);
//! * [`server`]: a Prism process on a free 127.0.0.1 port, awaited with a
//!   bounded wait, killed on drop, its output kept for failure messages;
//! * [`recorder`]: a forwarder in front of Prism that keeps each exchange
//!   with Prism's verdict on it (`sl-violations`, or an error Prism made);
//! * [`tamper`]: a forwarder between Prism and the sandbox that can spoil
//!   one answer, to prove Prism would notice;
//! * [`spec`]: the spec's operations, read from the spec, so that "every
//!   operation" follows the spec.

mod forward;
pub mod install;
pub mod recorder;
pub mod server;
pub mod spec;
pub mod tamper;

pub use install::{prism_bin, prism_version, workspace_root};
pub use recorder::{Exchange, Recorder};
pub use server::PrismServer;
pub use spec::{operation_of, operations, Operation};
pub use tamper::Tamper;
