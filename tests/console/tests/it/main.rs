//! The console in a real browser, one binary: a module a subject (one
//! browser at a time, `ONE_BROWSER`). The browser tests are ignored unless
//! asked for (`-- --ignored`, as `.ci/run` does).

mod actions;
mod faults;
mod missing_browser;
mod page;
mod screenshots;
