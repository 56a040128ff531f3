//! Core's integration tests, one binary: the payout formats' properties and
//! the spec's constraints against core's rules (`spec_parity`, which
//! `.ci/run` also runs on its own: `cargo test -p crossborder-core --test it spec_parity`).

mod payout_formats;
mod spec_parity;
