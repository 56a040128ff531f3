//! The generated client's tests, one binary: a module a subject.

mod common;

mod error_statuses;
mod examples;
mod session_id;
mod surface;
mod tin;
