//! The SDK's integration tests, one binary: a module a subject. Suites
//! that need a process of their own (a global tracing subscriber, the
//! process's peak memory) are the other files of `tests/`.

mod common;
mod webhook_mock;

mod create_new;
mod create_or_get;
mod decimals;
mod destinations;
mod errors;
mod money_display;
mod operations;
mod retries;
mod secrecy;
mod tls;
mod webhook_delivery;
mod webhook_events;
mod webhook_outcomes;
