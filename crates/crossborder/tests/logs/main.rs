//! The tests that read the SDK's log output, one binary with one global
//! subscriber writing into one buffer: a test that reads it takes it with
//! [`capture`], so those tests run one at a time and every event of a test
//! lands in the buffer it reads (thread-local subscribers miss events when
//! other threads cache callsite interest first).

#[path = "../it/common/mod.rs"]
mod common;

mod tracing_output;
#[cfg(feature = "axum")]
mod webhook_receiver;

use std::sync::OnceLock;

use common::log::LogBuffer;

static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

fn buffer() -> &'static LogBuffer {
    static BUFFER: OnceLock<LogBuffer> = OnceLock::new();
    BUFFER.get_or_init(|| {
        let buffer = LogBuffer::default();
        let writer = buffer.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_max_level(tracing::Level::TRACE)
            .with_span_events(tracing_subscriber::fmt::format::FmtSpan::CLOSE)
            .with_writer(move || writer.clone())
            .finish();
        tracing::subscriber::set_global_default(subscriber).unwrap();
        buffer
    })
}

/// Takes the buffer for this test alone, emptied; the guard keeps it until
/// the test ends.
pub(crate) async fn capture() -> (tokio::sync::MutexGuard<'static, ()>, &'static LogBuffer) {
    let serial = SERIAL.lock().await;
    let buffer = buffer();
    buffer.take();
    (serial, buffer)
}
