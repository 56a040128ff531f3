//! The SDK's integration tests, one binary: a module a subject. Two suites
//! need a process of their own: `tests/logs` (one global tracing
//! subscriber) and `tests/response_cap.rs` (the process's peak memory).

mod common;
mod webhook_mock;

mod create_new;
mod create_or_get;
mod decimals;
mod destinations;
mod errors;
mod money_cases;
mod money_display;
mod operations;
mod pay_once_cases;
mod retries;
mod schemas;
mod secrecy;
mod tls;
mod webhook_delivery;
mod webhook_events;
mod webhook_outcomes;
