//! The sandbox's integration tests over loopback HTTP, one binary: every
//! operation by area (`sandbox`), the sandbox as strict as the API
//! description (`described`), and the control document against the served
//! routes (`control_document`). `limits.rs` runs the binary itself.

mod control_document;
mod described;
mod sandbox;
// The steps both suites take (a funding, a refused request, a receiver).
mod steps;
