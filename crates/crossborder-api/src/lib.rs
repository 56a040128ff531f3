#![doc = include_str!("../README.md")]

pub mod decimal;
pub mod response;
mod schema;
mod state;
pub mod timestamp;

pub use state::{ClientState, API_KEY_HEADER};

#[allow(
    clippy::all,
    clippy::pedantic,
    missing_docs,
    unused_imports,
    unused_mut,
    dead_code,
    irrefutable_let_patterns,
    rustdoc::all
)]
#[rustfmt::skip]
mod generated;

pub use generated::*;

// Here, not in `state`: the generated client uses the state, so a method
// of the client there would make the two modules import each other.
impl Client {
    /// The per-client state applied to every request.
    pub fn state(&self) -> &ClientState {
        &self.inner
    }
}

/// The spec's closed enums, which the generated types use as they are
/// (`cargo xtask codegen` replaces the generated copies with
/// `crossborder-core`'s, so each wire spelling is written once).
pub use crossborder_core::kyb::{BusinessType, IdType, ProofOfAddressType};
pub use crossborder_core::{Currency, Rail};
