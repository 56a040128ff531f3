//! Each error class: one clear line on stderr (every violation for a
//! validation error), its exit code, never the key; as snapshots.

use crate::{bare, cli, redact, run, sandbox, KEY, UNKNOWN_KEY};

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
