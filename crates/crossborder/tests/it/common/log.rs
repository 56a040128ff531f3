//! A tracing writer whose output a test reads back.

use std::io::Write;
use std::sync::{Arc, Mutex};

/// Everything a tracing subscriber wrote, shared with the test.
#[derive(Clone, Default)]
pub struct LogBuffer(Arc<Mutex<Vec<u8>>>);

impl Write for LogBuffer {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl LogBuffer {
    /// What was written so far.
    pub fn text(&self) -> String {
        String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
    }

    /// What was written so far, emptying the buffer.
    pub fn take(&self) -> String {
        let mut bytes = self.0.lock().unwrap();
        let text = String::from_utf8_lossy(&bytes).into_owned();
        bytes.clear();
        text
    }
}
