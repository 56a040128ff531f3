//! A server that answers with an endless body: the command ends with the
//! SDK's response-cap error in one line on stderr, exit code 1.

use std::io::{Read, Write};
use std::net::TcpListener;

use crate::{at, run};

/// A server on 127.0.0.1 answering every request with `400` and a chunked
/// body that never ends (until the client hangs up).
fn endless_400() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { return };
            std::thread::spawn(move || {
                let mut head = Vec::new();
                let mut byte = [0u8; 1];
                while !head.ends_with(b"\r\n\r\n") {
                    match stream.read(&mut byte) {
                        Ok(1) => head.push(byte[0]),
                        _ => return,
                    }
                }
                let mut chunk = format!("{:x}\r\n", 64 * 1024).into_bytes();
                chunk.extend(std::iter::repeat_n(b'{', 64 * 1024));
                chunk.extend_from_slice(b"\r\n");
                let head = "HTTP/1.1 400 Bad Request\r\ntransfer-encoding: chunked\r\n\r\n";
                if stream.write_all(head.as_bytes()).is_ok() {
                    while stream.write_all(&chunk).is_ok() {}
                }
            });
        }
    });
    format!("http://{addr}/v1")
}

#[tokio::test]
async fn an_endless_body_is_the_caps_error_in_one_line() {
    let base_url = endless_400();
    let mut balance = at(&base_url);
    balance.args(["balance", "NGN"]);
    let out = run(balance).await;
    assert_eq!(out.code, 1);
    assert_eq!(out.stdout, "");
    assert_eq!(
        out.stderr,
        "error: the getBalance answer (HTTP 400) is larger than the limit of 1048576 bytes; reading stopped\n"
    );
}
