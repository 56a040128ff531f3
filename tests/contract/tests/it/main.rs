//! The contract suite, one test binary: the SDK against the in-process
//! sandbox, a module a subject; and both judged by Prism against the spec
//! ([`prism`]).

mod errors;
mod kyb;
mod kyb_documents;
mod onboard;
mod operations;
mod payout_destinations;
mod payout_settlement;
mod prism;
mod receiver;
mod reconcile;
mod sandbox_control;
mod validation_parity;
mod webhooks;
