//! A server whose answers are too large for a client's response cap, to
//! test what the caller does with the SDK's `Error::ResponseTooLarge`.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};

/// How an [`oversized_server`] answers every request, once its head is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Oversized {
    /// `status`, `Content-Type: application/json` and a chunked body of `x`
    /// that never ends (until the client hangs up).
    EndlessBody(u16),
    /// `200`, `Content-Type: application/json` and a `Content-Length` of
    /// this many bytes, but no body: the connection is held open until the
    /// client closes it, so a client that waited for the body would time
    /// out.
    DeclaredLength(u64),
}

/// Starts a server on 127.0.0.1, on threads of its own, that answers every
/// request as `answer` says; returns its base URL,
/// `http://127.0.0.1:PORT/v1`. It runs until the test process ends.
///
/// # Panics
///
/// If no loopback port can be bound.
pub fn oversized_server(answer: Oversized) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a loopback port binds");
    let addr = listener.local_addr().expect("a bound port has an address");
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { return };
            std::thread::spawn(move || answer_one(stream, answer));
        }
    });
    format!("http://{addr}/v1")
}

fn answer_one(mut stream: TcpStream, answer: Oversized) {
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        match stream.read(&mut byte) {
            Ok(1) => head.push(byte[0]),
            _ => return,
        }
    }
    match answer {
        Oversized::EndlessBody(status) => {
            let head = format!(
                "HTTP/1.1 {status} Whatever\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n"
            );
            if stream.write_all(head.as_bytes()).is_err() {
                return;
            }
            let mut chunk = format!("{:x}\r\n", 64 * 1024).into_bytes();
            chunk.extend(std::iter::repeat_n(b'x', 64 * 1024));
            chunk.extend_from_slice(b"\r\n");
            // Until the client hangs up.
            while stream.write_all(&chunk).is_ok() {}
        }
        Oversized::DeclaredLength(length) => {
            let head = format!("HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {length}\r\n\r\n");
            if stream.write_all(head.as_bytes()).is_err() {
                return;
            }
            // Nothing more, until the client closes.
            let mut rest = [0u8; 64];
            while matches!(stream.read(&mut rest), Ok(n) if n > 0) {}
        }
    }
}
