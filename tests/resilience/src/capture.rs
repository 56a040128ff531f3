//! Everything a test binary logs and every error it meets, kept to be
//! searched for the API key.
//!
//! [`capture`] installs, once per test binary, a global subscriber at
//! `TRACE` for every target (the SDK's spans and events, the sandbox's, and
//! through `tracing-log` the `log` records of reqwest and others), writing
//! into one buffer. The workloads hand every [`crossborder::Error`] they
//! meet to [`Capture::record_error`]. At the end a test calls
//! [`Capture::assert_no_leak`] with its keys; [`find_key`] is the detector
//! it uses, and `tests/leak_detector.rs` shows it fires on a key that does
//! get logged.

use std::io::Write;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use tracing_subscriber::fmt::format::FmtSpan;
use tracing_subscriber::util::SubscriberInitExt;

/// The buffer the subscriber writes into.
#[derive(Clone, Default)]
struct Sink(Arc<Mutex<Vec<u8>>>);

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// What the test binary logged, and the text of every error it recorded.
pub struct Capture {
    log: Sink,
    errors: Mutex<Vec<String>>,
}

/// The capture of this test binary, installed on first use.
///
/// # Panics
///
/// When another global subscriber or `log` logger was installed first.
pub fn capture() -> &'static Capture {
    static CAPTURE: OnceLock<Capture> = OnceLock::new();
    CAPTURE.get_or_init(|| {
        let log = Sink::default();
        let writer = log.clone();
        tracing_subscriber::fmt()
            .with_max_level(tracing::Level::TRACE)
            .with_span_events(FmtSpan::CLOSE)
            .without_time()
            .with_writer(move || writer.clone())
            .finish()
            .try_init()
            .expect("the capture is the only subscriber and logger of the test binary");
        Capture {
            log,
            errors: Mutex::default(),
        }
    })
}

impl Capture {
    /// Keeps the `Display`, `Debug` and pretty `Debug` of `error` and of
    /// every error in its `source` chain.
    pub fn record_error(&self, error: &crossborder::Error) {
        let mut texts = vec![
            error.to_string(),
            format!("{error:?}"),
            format!("{error:#?}"),
        ];
        let mut source = std::error::Error::source(error);
        while let Some(inner) = source {
            texts.push(inner.to_string());
            texts.push(format!("{inner:?}"));
            source = inner.source();
        }
        self.errors
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .extend(texts);
    }

    /// Keeps any other text the run produced for a user to read.
    pub fn record_text(&self, text: impl Into<String>) {
        self.errors
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(text.into());
    }

    /// Everything logged so far.
    pub fn log_text(&self) -> String {
        String::from_utf8_lossy(&self.log.0.lock().unwrap_or_else(PoisonError::into_inner))
            .into_owned()
    }

    /// How many texts of errors were recorded.
    pub fn error_texts(&self) -> usize {
        self.errors
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }

    /// Where any of `keys` shows in the log or in a recorded error text,
    /// each described with the key masked.
    pub fn leaks(&self, keys: &[&str]) -> Vec<String> {
        let log = self.log_text();
        let errors = self
            .errors
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        let mut leaks = Vec::new();
        for key in keys {
            let texts = std::iter::once(("log", &log)).chain(errors.iter().map(|t| ("error", t)));
            for (place, text) in texts {
                if let Some(at) = find_key(text, key) {
                    leaks.push(format!("{place}: {}", masked_context(text, at, key)));
                }
            }
        }
        leaks
    }

    /// Panics with the message of [`Capture::check_no_leak`] when it finds
    /// a leak; prints what it searched otherwise.
    pub fn assert_no_leak(&self, keys: &[&str]) {
        match self.check_no_leak(keys) {
            Ok(searched) => println!("{searched}"),
            Err(leaks) => panic!("{leaks}"),
        }
    }

    /// Searches the log and the recorded error texts for `keys`: `Err`
    /// listing every leak, or `Ok` saying what was searched. A log without
    /// one SDK request span is an `Err` too: the capture saw nothing, and a
    /// search of nothing proves nothing.
    pub fn check_no_leak(&self, keys: &[&str]) -> Result<String, String> {
        let log = self.log_text();
        if !log.contains("crossborder.request") {
            return Err("the capture holds no SDK request span: it did not see the run".into());
        }
        let leaks = self.leaks(keys);
        if !leaks.is_empty() {
            return Err(format!("the API key leaked:\n{}", leaks.join("\n")));
        }
        Ok(format!(
            "secrets: {} bytes of TRACE output and {} error texts searched, no API key found",
            log.len(),
            self.error_texts()
        ))
    }
}

/// The part of a key that identifies it: everything after its environment
/// prefix (`test_`, `live_`), which a masked form never shows whole.
fn secret_part(key: &str) -> &str {
    key.strip_prefix("test_")
        .or_else(|| key.strip_prefix("live_"))
        .unwrap_or(key)
}

/// Where `key` shows in `text`: the byte offset of its secret part (the key
/// without its `test_`/`live_` prefix), matched ignoring ASCII case, so the
/// key is found with or without its prefix and in upper or lower case.
/// `None` when it does not show (checked in `tests/leak_detector.rs`).
pub fn find_key(text: &str, key: &str) -> Option<usize> {
    let secret = secret_part(key).to_ascii_lowercase();
    if secret.is_empty() {
        return None;
    }
    // Lowercasing ASCII keeps every byte offset.
    text.to_ascii_lowercase().find(&secret)
}

/// Up to 60 bytes either side of the key found at `at`, the key masked.
fn masked_context(text: &str, at: usize, key: &str) -> String {
    let end = at + secret_part(key).len();
    let before = text[..at]
        .char_indices()
        .rev()
        .take_while(|(index, _)| at - index <= 60)
        .last()
        .map_or(at, |(index, _)| index);
    let after = text[end..]
        .char_indices()
        .take_while(|(index, _)| *index <= 60)
        .last()
        .map_or(end, |(index, c)| end + index + c.len_utf8());
    format!(
        "…{}<API KEY>{}…",
        &text[before..at],
        &text[end..after.min(text.len())]
    )
}
