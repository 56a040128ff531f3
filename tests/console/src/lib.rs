//! The browser harness of the console's tests: Debian's Chromium under
//! chromedriver on a free loopback port ([`driver`]), a WebDriver session
//! over plain HTTP ([`webdriver`]) and the console's own steps
//! ([`console`]).
//!
//! The tests that drive a browser are `#[ignore = "needs Chromium"]`: a
//! plain `cargo test` lists them as ignored, and `.ci/run` runs them
//! (`-- --ignored`). Run without Chromium, they print why and pass, unless
//! the environment variable `CI` is set: then they fail, since CI installs
//! it (`.ci/run`).
#![forbid(unsafe_code)]

pub mod console;
pub mod driver;
pub mod receiver;
pub mod webdriver;

pub use console::Console;
pub use receiver::Hooks;
