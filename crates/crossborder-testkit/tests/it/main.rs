//! The test kit's own tests, one binary: a module a subject.

mod checks;
mod faults;
mod kit;
mod postgres_harness;
