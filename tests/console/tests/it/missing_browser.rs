//! Where Chromium is missing: the browser tests fail when `CI` is set (CI
//! installs it, so its absence is a broken run) and skip with the reason
//! otherwise. Read from an environment of the test's own, so nothing here
//! depends on what this machine has installed.

use std::ffi::OsString;

use crossborder_console_tests::driver::find_programs_in;

/// An environment with `CI` as given, no `PATH`, and the browser and its
/// driver named at paths that do not exist.
fn without_browser(ci: Option<&'static str>) -> impl Fn(&str) -> Option<OsString> {
    move |name| match name {
        "CI" => ci.map(OsString::from),
        "CHROMIUM" => Some("/nonexistent/chromium".into()),
        "CHROMEDRIVER" => Some("/nonexistent/chromedriver".into()),
        _ => None,
    }
}

const REASON: &str = "the browser tests need Chromium and chromedriver (Debian: apt-get \
                      install chromium chromium-driver); found chromium: no, chromedriver: no";

#[test]
fn without_ci_a_missing_browser_skips_with_its_reason() {
    assert_eq!(
        find_programs_in(&without_browser(None)),
        Err(REASON.to_owned())
    );
    // An empty CI is no CI.
    assert_eq!(
        find_programs_in(&without_browser(Some(""))),
        Err(REASON.to_owned())
    );
}

#[test]
fn in_ci_a_missing_browser_fails_the_test() {
    let failed = std::panic::catch_unwind(|| find_programs_in(&without_browser(Some("true"))));
    let message = failed.expect_err("CI=true with no browser must fail, not skip");
    let message = message
        .downcast_ref::<String>()
        .map(String::as_str)
        .unwrap_or_default();
    assert_eq!(
        message,
        format!("CI is set, so this is a failure: {REASON}")
    );
}
