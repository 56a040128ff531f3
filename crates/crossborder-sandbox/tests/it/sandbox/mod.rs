//! Integration tests of the sandbox over loopback HTTP, with a plain
//! reqwest client, one module per area.

mod common;

mod auth_and_errors;
mod banks;
mod collections;
mod concurrency;
mod faults;
mod funding;
mod isolation;
mod kyb;
mod payouts;
mod quotes;
mod read_once;
mod request_log;
mod upload;
