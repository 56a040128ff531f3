//! The listener's limits, against the `crossborder-sandbox` binary itself
//! (a child process on 127.0.0.1): a head over 16 KiB is answered 431 in
//! the API's error shape, a head that does not come in time closes the
//! connection, and a connection over the bound is answered 503 at once
//! while the others are served.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The binary, killed on drop.
struct Binary {
    child: Child,
    addr: SocketAddr,
}

impl Binary {
    fn start(args: &[&str]) -> Binary {
        let mut child = Command::new(env!("CARGO_BIN_EXE_crossborder-sandbox"))
            .args(["--port", "0", "--quiet"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        let url = first
            .trim()
            .strip_prefix("crossborder sandbox listening on http://")
            .unwrap_or_else(|| panic!("unexpected first line {first:?}"));
        let addr = url.trim_end_matches("/v1").parse().unwrap();
        Binary { child, addr }
    }

    fn connect(&self) -> TcpStream {
        let stream = TcpStream::connect(self.addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .unwrap();
        stream
    }
}

impl Drop for Binary {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Sends `request` and reads the answer until the server closes.
fn exchange(binary: &Binary, request: &[u8]) -> String {
    let mut stream = binary.connect();
    stream.write_all(request).unwrap();
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    String::from_utf8_lossy(&answer).into_owned()
}

fn balance_with_header(size: usize) -> Vec<u8> {
    format!(
        "GET /v1/api/balance/NGN HTTP/1.1\r\nhost: sandbox\r\nx-api-key: test_sandbox_key\r\nx-padding: {}\r\nconnection: close\r\n\r\n",
        "p".repeat(size)
    )
    .into_bytes()
}

fn body_of(answer: &str) -> serde_json::Value {
    let (_, body) = answer.split_once("\r\n\r\n").unwrap();
    serde_json::from_str(body).unwrap_or_else(|_| panic!("not JSON: {answer}"))
}

#[test]
fn a_head_over_16_kib_is_a_431_in_the_error_shape() {
    let binary = Binary::start(&[]);
    let answer = exchange(&binary, &balance_with_header(20 * 1024));
    assert!(
        answer.starts_with("HTTP/1.1 431 Request Header Fields Too Large\r\n"),
        "{answer:.200}"
    );
    let body = body_of(&answer);
    assert_eq!(body["statusCode"], 431);
    assert_eq!(
        body["message"],
        "Request header fields too large: the request head is over 16384 bytes"
    );
    assert_eq!(body["path"], "/v1/api/balance/NGN");

    // Past hyper's 64 KiB read buffer: 431 from hyper, the connection closed.
    let answer = exchange(&binary, &balance_with_header(200 * 1024));
    assert!(answer.starts_with("HTTP/1.1 431 "), "{answer:.200}");

    // A head under the limit is served.
    let answer = exchange(&binary, &balance_with_header(8 * 1024));
    assert!(answer.starts_with("HTTP/1.1 200 "), "{answer:.200}");
}

#[test]
fn a_head_that_does_not_come_in_time_closes_the_connection() {
    let binary = Binary::start(&["--head-timeout-secs", "1"]);
    let mut stream = binary.connect();
    stream
        .write_all(b"GET /v1/api/balance/NGN HTTP/1.1\r\nhost: sandbox\r\n")
        .unwrap();
    let started = Instant::now();
    let mut answer = Vec::new();
    // Ends when the server closes (the read timeout is 20 s).
    let _ = stream.read_to_end(&mut answer);
    let waited = started.elapsed();
    assert!(waited < Duration::from_secs(15), "open for {waited:?}");
    assert!(
        waited >= Duration::from_millis(900),
        "closed after {waited:?}"
    );
    let answer = String::from_utf8_lossy(&answer);
    assert!(
        answer.is_empty() || answer.starts_with("HTTP/1.1 408 "),
        "{answer}"
    );
}

#[test]
fn a_connection_over_the_bound_is_refused_and_the_others_are_served() {
    let binary = Binary::start(&["--max-connections", "4"]);
    // Four clients trickling a head they never finish hold every slot.
    let tricklers: Vec<TcpStream> = (0..4)
        .map(|_| {
            let mut stream = binary.connect();
            stream
                .write_all(b"GET /v1/api/balance/NGN HTTP/1.1\r\n")
                .unwrap();
            stream
        })
        .collect();
    // Let the server accept them before the fifth comes.
    std::thread::sleep(Duration::from_millis(300));
    let started = Instant::now();
    let answer = exchange(&binary, &balance_with_header(0));
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(
        answer.starts_with("HTTP/1.1 503 Service Unavailable\r\n"),
        "{answer}"
    );
    let body = body_of(&answer);
    assert_eq!(body["statusCode"], 503);
    assert_eq!(body["message"], "Too many connections; try again later");

    // Once they go, a new connection is served.
    drop(tricklers);
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let answer = exchange(&binary, &balance_with_header(0));
        if !answer.starts_with("HTTP/1.1 503 ") {
            assert!(answer.starts_with("HTTP/1.1 200 "), "{answer}");
            break;
        }
        assert!(Instant::now() < deadline, "still refused: {answer}");
        std::thread::sleep(Duration::from_millis(50));
    }
}
