//! The ledger's integration tests, one binary: a module a subject. The
//! crash, fleet and quote tests run this binary again as child dispatchers
//! (`support::spawn_dispatcher`), naming their test by its module path
//! (with `--include-ignored`: the PostgreSQL tests are ignored unless asked
//! for, as `.ci/run` does with `-- --ignored`).

mod support;

mod crash;
mod database;
mod faults;
mod first_send;
mod fleet;
mod follow_up;
mod lifecycle;
mod quotes;
mod receiver_fleet;
mod window;
