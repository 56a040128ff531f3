//! Each error class: one clear line on stderr (every violation for a
//! validation error), its exit code, never the key; as snapshots.

use crate::{assert_live_key_refused_over_http, bare, cli, redact, run, sandbox, KEY, UNKNOWN_KEY};

/// What a snapshot of a failure holds: the exit code, stdout and stderr.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_error_class_has_its_line_and_exit_code() {
    let sandbox = sandbox().await;

    // Missing key: usage, 2, before any request.
    let mut missing = bare();
    missing.args(["--base-url", sandbox.base_url(), "balance", "NGN"]);
    let out = run(missing).await;
    assert_eq!(out.code, 2);
    insta::assert_snapshot!("missing_key", out.shown());

    // No base URL (there is no default): usage, 2, nothing sent.
    let mut placeholder = bare();
    placeholder.args(["--api-key", KEY, "balance", "NGN"]);
    let out = run(placeholder).await;
    assert_eq!(out.code, 2);
    insta::assert_snapshot!("no_base_url", out.shown());

    // A key the API does not know: API error, 1.
    let mut bad_key = bare();
    bad_key.args(["--api-key", UNKNOWN_KEY, "--base-url", sandbox.base_url()]);
    bad_key.args(["balance", "NGN"]);
    let out = run(bad_key).await;
    assert_eq!(out.code, 1);
    insta::assert_snapshot!("bad_key", out.shown());

    // A request the rules refuse: validation, 2, every violation listed.
    let out = cli(sandbox.base_url(), "quote UGX NGN 10.5").await;
    assert_eq!(out.code, 2);
    insta::assert_snapshot!("validation", out.shown());

    // An argument clap refuses: usage, 2.
    let out = cli(sandbox.base_url(), "balance BTC").await;
    assert_eq!(out.code, 2);
    out.stderr_has("Invalid currency: BTC");

    // Nothing listening: network error, 1.
    let closed = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let mut unreachable = bare();
    unreachable.args([
        "--api-key",
        KEY,
        "--base-url",
        &format!("http://127.0.0.1:{closed}/v1"),
        "balance",
        "NGN",
    ]);
    let out = run(unreachable).await;
    assert_eq!(out.code, 1);
    let port = closed.to_string();
    insta::assert_snapshot!(
        "unreachable",
        redact(&out.shown(), &[(port.as_str(), "[port]")])
    );
}

/// A server on 127.0.0.1 that answers every request with `302` toward
/// `location`, reading each request whole first.
fn redirecting_server(location: &'static str) -> String {
    use std::io::{BufRead, BufReader, Write};

    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let mut reader = BufReader::new(stream);
            let mut line = String::new();
            while reader.read_line(&mut line).is_ok_and(|read| read > 2) {
                line.clear();
            }
            let _ = write!(
                reader.get_mut(),
                "HTTP/1.1 302 Found\r\nlocation: {location}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
            );
        }
    });
    format!("http://{address}/v1")
}

/// ASSUMPTIONS D40 and D41 as the CLI shows them: a redirect is one line
/// naming the status and where it points (exit 1, nothing followed), and a
/// production key with a plain http base URL one line saying why (exit 2,
/// nothing sent).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_redirect_and_an_insecure_production_url_are_one_line_each() {
    let base_url = redirecting_server("https://elsewhere.example/v1/api/wallet");
    let out = cli(&base_url, "balance NGN").await;
    assert_eq!(out.code, 1, "{}", out.shown());
    assert_eq!(out.stdout, "");
    assert_eq!(
        out.stderr,
        "error: HTTP 302: the server redirects to https://elsewhere.example/v1/api/wallet; \
         the SDK does not follow redirects, so the API key stays with the base URL's host: \
         check the base URL\n"
    );

    let live = "live_cli_secret_r5Vn27Kd9Hs3";
    let mut insecure = bare();
    insecure.args(["--api-key", live, "--base-url", "http://api.example.org/v1"]);
    insecure.args(["balance", "NGN"]);
    let out = run(insecure).await;
    assert_live_key_refused_over_http(&out, live, "http://api.example.org/v1");
}
