//! `crossborder sandbox`: serves until stopped, one line per request with
//! the key masked, `--quiet` silences them, and a closed stdout stops
//! nothing.

use std::io::{BufRead, BufReader, Read};

use assert_cmd::Command;

use crate::{assert_no_secret, bare, run, spawned, Live};

/// The key given to `crossborder sandbox --key`: the sandbox lists the keys
/// it accepts when it starts (its own configuration, not a secret of the
/// caller), so these tests use one of their own; the request log must
/// still mask it.
const SANDBOX_KEY: &str = "test_cli_sandbox_m3Vb62Hd9Kw4";

/// The binary pointed at `base_url` with [`SANDBOX_KEY`].
fn at(base_url: &str) -> Command {
    let mut command = bare();
    command.args(["--api-key", SANDBOX_KEY, "--base-url", base_url]);
    command
}

/// Starts `crossborder sandbox` on a free port accepting [`SANDBOX_KEY`],
/// and returns it with its base URL.
fn start(more: &[&str]) -> (Live, String) {
    let mut args = vec!["sandbox", "--port", "0", "--key", SANDBOX_KEY];
    args.extend_from_slice(more);
    let mut live = Live::start(&args);
    let first = live.line("listening");
    assert!(
        first.starts_with("crossborder sandbox listening on http://127.0.0.1:"),
        "{first}"
    );
    let url = Live::url_in(&first);
    (live, url)
}

#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sandbox_command_logs_each_request_with_the_key_masked() {
    let (mut live, url) = start(&[]);
    let mut balance = at(&url);
    balance.args(["balance", "NGN"]);
    let out = run(balance).await;
    assert_eq!(
        (out.code, out.stdout.as_str()),
        (0, "currency  NGN\nbalance   5,000,000.00 NGN\n")
    );

    let line = live.until("request", |line| line.starts_with("GET "));
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(words.len(), 5, "{line}");
    assert_eq!(words[..3], ["GET", "/v1/api/balance/NGN", "200"], "{line}");
    let ms = words[3].strip_suffix("ms").unwrap();
    assert!(ms.parse::<f64>().is_ok(), "{line}");
    // Masked: the environment prefix and the last four characters.
    assert_eq!(words[4], "key=test_…9Kw4");
    assert!(!line.contains(SANDBOX_KEY), "{line}");

    let out = live.terminate();
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.ends_with("stopping..."), "{}", out.stdout);
}

#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quiet_silences_the_request_log() {
    let (live, url) = start(&["--quiet"]);
    let mut balance = at(&url);
    balance.args(["balance", "USD"]);
    assert_eq!(run(balance).await.code, 0);
    let out = live.terminate();
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        !out.stdout.lines().any(|line| line.starts_with("GET ")),
        "{}",
        out.stdout
    );
    assert!(out.stdout.ends_with("stopping..."), "{}", out.stdout);
}

#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_closed_stdout_stops_neither_the_log_nor_the_sandbox() {
    let mut child = spawned(["sandbox", "--port", "0", "--key", SANDBOX_KEY]);
    let mut first = String::new();
    {
        // Read the first line, then close our end (`| head -1`).
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        stdout.read_line(&mut first).unwrap();
    }
    let url = Live::url_in(&first);
    // Each request is logged to the closed stdout; every one is answered.
    for currency in ["NGN", "USD", "NGN"] {
        let mut balance = at(&url);
        balance.args(["balance", currency]);
        let out = run(balance).await;
        assert_eq!(out.code, 0, "{}", out.stderr);
    }
    let kill = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let status = child.wait().unwrap();
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert_no_secret("stderr", &stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(status.code(), Some(0), "{stderr}");
}
