//! What the fuzz targets (`tests/it/fuzz/`) share: their proptest
//! configuration and their committed seed corpora.
//!
//! The targets are proptest properties rather than cargo-fuzz harnesses:
//! cargo-fuzz needs a nightly toolchain and a second, sanitizer build of
//! the whole dependency tree, which CI's time budget cannot afford. Each
//! target runs a fixed number of cases by default, chosen so that the
//! whole crate's tests stay well under a minute on a loaded two-core debug
//! build; `PROPTEST_CASES=<n>` runs `n` cases per target instead, for a
//! longer hunt. A failure is shrunk and its seed saved to
//! `tests/hostile/proptest-regressions/<target>.txt` (committed, replayed
//! first on every run), and each target also replays its seed corpus,
//! `tests/hostile/corpus/<target>/`, on every run.

use std::path::PathBuf;

use proptest::test_runner::{Config, FileFailurePersistence};

/// The environment variable that overrides every target's case count.
pub const CASES_VAR: &str = "PROPTEST_CASES";

/// The proptest configuration of a target: `default_cases` cases unless
/// [`CASES_VAR`] says otherwise, failures persisted to `regressions` (a
/// path relative to `tests/hostile`, where cargo runs the tests).
pub fn config(default_cases: u32, regressions: &'static str) -> Config {
    Config {
        cases: cases(default_cases),
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(regressions))),
        ..Config::default()
    }
}

/// `default_cases`, or the value of [`CASES_VAR`] when it is a number.
pub fn cases(default_cases: u32) -> u32 {
    std::env::var(CASES_VAR)
        .ok()
        .and_then(|value| value.trim().parse().ok())
        .unwrap_or(default_cases)
}

/// Every file of the seed corpus `corpus/<target>/`, sorted by name, as
/// `(name, bytes)`. Panics when the directory is missing or empty: a
/// corpus that silently vanished would make its replay a check that
/// cannot fail.
pub fn corpus(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("corpus")
        .join(target);
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|error| panic!("{}: {error}", dir.display()))
        .map(|entry| {
            let path = entry.expect("a directory entry").path();
            let name = path
                .file_name()
                .map(|name| name.to_string_lossy().into_owned())
                .unwrap_or_default();
            let bytes =
                std::fs::read(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
            (name, bytes)
        })
        .collect();
    files.sort();
    assert!(!files.is_empty(), "the corpus {} is empty", dir.display());
    files
}
