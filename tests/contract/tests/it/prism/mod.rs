//! The SDK and the sandbox against `openapi/crossborder.yaml`, judged by
//! Prism (#13 items 1 and 7): a validating proxy between them
//! ([`proxy`]), and the SDK against random spec-valid mock answers
//! ([`mock`]). Its Prisms start at the same time in this one binary and
//! share one installation.
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
mod install;
mod mock;
mod proxy;
mod recorder;
mod server;
mod spec;
mod tamper;

use recorder::{Exchange, Recorder};
use server::PrismServer;
use spec::{operation_of, operations, Operation};
use tamper::Tamper;
