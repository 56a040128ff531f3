//! The `crossborder` binary against sandboxes started in this process on
//! 127.0.0.1: every subcommand's output (table and JSON), exit codes and
//! error lines, the validators, onboarding with a resume, the webhook
//! listener, the sandbox command and the demo run to its end.
//!
//! Every run goes through [`finish`], which fails the test when the API key
//! appears in stdout or stderr: the key the sandboxes accept here is a
//! distinctive secret ([`KEY`]), so a leak cannot hide behind a common word.

mod basics;
mod business;
mod demo;
mod errors;
mod help;
mod ledger;
mod ledger_faults;
mod onboard;
mod payout;
mod production_faults;
mod response_cap;
mod sandbox_command;
mod sandbox_control;
mod simulate_funding;
mod webhook;
mod webhook_outcomes;

use std::ffi::OsStr;
use std::io::{BufRead, BufReader, Read};
use std::net::{Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::process::{Child, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use assert_cmd::Command;
use crossborder_sandbox::{ApiKeySpec, Sandbox, SandboxConfig, SandboxHandle};
use crossborder_testkit::fixtures;
use crossborder_testkit::postgres::Postgres;
use serde_json::{json, Value};

/// The API key of every test: a secret no output may contain.
pub const KEY: &str = "test_cli_secret_k7Qx93Fw2Lp8";
/// A well-formed key no sandbox knows (the bad-key error class); a secret
/// too.
pub const UNKNOWN_KEY: &str = "test_cli_unknown_k4Zr81Mn5Tq2";
const SECRETS: [&str; 2] = [KEY, UNKNOWN_KEY];

/// How long a test waits for a line from a running command: generous, for
/// a loaded machine.
pub const LINE_WAIT: Duration = Duration::from_secs(60);

/// A sandbox on a free loopback port that accepts [`KEY`].
pub async fn sandbox() -> SandboxHandle {
    sandbox_with(SandboxConfig::default()).await
}

pub async fn sandbox_with(config: SandboxConfig) -> SandboxHandle {
    Sandbox::start(
        config
            .with_addr(SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))
            .with_key(ApiKeySpec::new(KEY).unwrap()),
    )
    .await
    .unwrap()
}

/// The binary with no configuration from the environment.
pub fn bare() -> Command {
    let mut command = Command::cargo_bin("crossborder").unwrap();
    command
        .env_remove("CROSSBORDER_API_KEY")
        .env_remove("CROSSBORDER_BASE_URL")
        .timeout(Duration::from_secs(120));
    command
}

/// Runs the binary pointed at `base_url` with [`KEY`] and the words of
/// `line` (split at spaces, as a shell would a line without quotes).
pub async fn cli(base_url: &str, line: &str) -> Run {
    let mut command = at(base_url);
    command.args(line.split_whitespace());
    run(command).await
}

/// The binary pointed at `base_url` with [`KEY`].
pub fn at(base_url: &str) -> Command {
    let mut command = bare();
    command.args(["--api-key", KEY, "--base-url", base_url]);
    command
}

pub fn with_stdin(mut command: Command, input: &str) -> Command {
    command.write_stdin(input.to_owned());
    command
}

/// A finished command.
#[derive(Debug)]
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// The exit code and both streams, for an assertion's message.
    pub fn shown(&self) -> String {
        format!(
            "exit {}\n--- stdout\n{}--- stderr\n{}",
            self.code, self.stdout, self.stderr
        )
    }

    /// Asserts that stdout starts with `prefix`.
    pub fn stdout_starts(&self, prefix: &str) {
        assert!(
            self.stdout.starts_with(prefix),
            "{prefix:?}?\n{}",
            self.shown()
        );
    }

    /// Asserts that stderr starts with `prefix`.
    pub fn stderr_starts(&self, prefix: &str) {
        assert!(
            self.stderr.starts_with(prefix),
            "{prefix:?}?\n{}",
            self.shown()
        );
    }

    /// Asserts that stdout has `part`.
    pub fn stdout_has(&self, part: &str) {
        assert!(self.stdout.contains(part), "{part:?}?\n{}", self.shown());
    }

    /// Asserts that stderr has `part`.
    pub fn stderr_has(&self, part: &str) {
        assert!(self.stderr.contains(part), "{part:?}?\n{}", self.shown());
    }

    /// Stdout as JSON (`null` when it is not JSON).
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.stdout).unwrap_or(Value::Null)
    }

    /// Asserts that the run succeeded (exit code 0; stderr shown if not)
    /// and returns stdout as JSON.
    pub fn ok_json(&self) -> Value {
        assert_eq!(self.code, 0, "{}", self.stderr);
        self.json()
    }
}

/// Fails when any secret appears in `text`, the output `stream` of a run.
pub fn assert_no_secret(stream: &str, text: &str) {
    for secret in SECRETS {
        assert!(
            !text.contains(secret),
            "{stream} leaked the API key {secret}:\n{text}"
        );
    }
}

/// The run of `output`, its secrecy checked.
pub fn finish(output: std::process::Output) -> Run {
    let run = Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8(output.stdout).unwrap(),
        stderr: String::from_utf8(output.stderr).unwrap(),
    };
    assert_no_secret("stdout", &run.stdout);
    assert_no_secret("stderr", &run.stderr);
    run
}

/// Runs `command` off the async runtime (the sandbox keeps serving).
pub async fn run(mut command: Command) -> Run {
    let output = tokio::task::spawn_blocking(move || command.output().unwrap())
        .await
        .unwrap();
    finish(output)
}

/// The binary started with `args` and no configuration from the
/// environment, its stdout and stderr piped, for a test that runs several
/// at once or acts while it runs ([`waited`] collects it).
pub fn spawned<I, S>(args: I) -> Child
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    std::process::Command::new(assert_cmd::cargo::cargo_bin("crossborder"))
        .env_remove("CROSSBORDER_API_KEY")
        .env_remove("CROSSBORDER_BASE_URL")
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits for `child` off the async runtime (the sandbox keeps serving):
/// its run, its secrecy checked.
pub async fn waited(child: Child) -> Run {
    let output = tokio::task::spawn_blocking(move || child.wait_with_output().unwrap())
        .await
        .unwrap();
    finish(output)
}

/// A throwaway PostgreSQL server and a new database `database` on it, as
/// a ledger URL (the server must outlive its use); `None`, the test
/// skipped, where PostgreSQL is missing and `CI` is not set.
pub fn postgres_ledger(test: &str, database: &str) -> Option<(Postgres, PathBuf)> {
    let server = Postgres::start_or_skip(test)?;
    let url = server.create_database(database).unwrap();
    Some((server, PathBuf::from(url)))
}

/// Checks the refusal of the production key `live` over plain http to
/// `base_url`: exit code 2, the one-line error, and the key nowhere.
pub fn assert_live_key_refused_over_http(out: &Run, live: &str, base_url: &str) {
    assert_eq!(out.code, 2, "{}", out.shown());
    assert_eq!(
        out.stderr,
        format!(
            "error: a production (live_) API key needs an https base URL, unless its host is \
             loopback (localhost, 127.0.0.0/8, [::1]): over plain http the key and every request \
             would cross the network unencrypted (base URL {base_url})\n"
        )
    );
    assert!(!out.stdout.contains(live) && !out.stderr.contains(live));
}

/// Runs `command` on this thread (no sandbox in this process needs it).
pub fn run_now(mut command: Command) -> Run {
    finish(command.output().unwrap())
}

/// Replaces each `(value, placeholder)` in `text`: ids, ports, paths and
/// times that change from run to run, before a snapshot.
pub fn redact(text: &str, pairs: &[(&str, &str)]) -> String {
    let mut text = text.to_owned();
    for (value, placeholder) in pairs {
        if !value.is_empty() {
            text = text.replace(value, placeholder);
        }
    }
    text
}

/// A command left running (`webhook listen`, `sandbox`): its stdout read
/// line by line on a thread, so a test can bound each wait.
pub struct Live {
    child: Child,
    lines: mpsc::Receiver<String>,
    stderr: std::thread::JoinHandle<String>,
    /// Every line read so far.
    pub seen: Vec<String>,
}

impl Live {
    /// Starts the binary with `args` (no configuration from the environment).
    pub fn start(args: &[&str]) -> Live {
        let mut child = spawned(args);
        let stdout = child.stdout.take().unwrap();
        let mut stderr = child.stderr.take().unwrap();
        let (send, lines) = mpsc::channel::<String>();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        let stderr = std::thread::spawn(move || {
            let mut text = String::new();
            let _ = stderr.read_to_string(&mut text);
            text
        });
        Live {
            child,
            lines,
            stderr,
            seen: Vec::new(),
        }
    }

    /// The next line of stdout, within [`LINE_WAIT`].
    pub fn line(&mut self, what: &str) -> String {
        let line = self
            .lines
            .recv_timeout(LINE_WAIT)
            .unwrap_or_else(|_| panic!("no {what} line after {:?}", self.seen));
        assert_no_secret("stdout", &line);
        self.seen.push(line.clone());
        line
    }

    /// Reads lines until one satisfies `wanted`, and returns it.
    pub fn until(&mut self, what: &str, wanted: impl Fn(&str) -> bool) -> String {
        loop {
            let line = self.line(what);
            if wanted(&line) {
                return line;
            }
        }
    }

    /// The first URL (`http://...`) of `line`.
    pub fn url_in(line: &str) -> String {
        line.split_whitespace()
            .find(|word| word.starts_with("http://"))
            .unwrap_or_else(|| panic!("no URL in {line:?}"))
            .to_owned()
    }

    /// Sends SIGTERM (a graceful stop), waits, and returns the exit code,
    /// the rest of stdout and stderr, their secrecy checked.
    #[cfg(unix)]
    pub fn terminate(self) -> Run {
        self.signal("-TERM")
    }

    /// Sends SIGINT (Ctrl-C), waits, and returns what it printed.
    #[cfg(unix)]
    pub fn interrupt(self) -> Run {
        self.signal("-INT")
    }

    #[cfg(unix)]
    fn signal(self, signal: &str) -> Run {
        let status = std::process::Command::new("kill")
            .args([signal, &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
        self.finish()
    }

    /// Whether the command is still running.
    pub fn running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Kills the command (no graceful stop), and returns what it printed.
    pub fn kill(mut self) -> Run {
        let _ = self.child.kill();
        self.finish()
    }

    fn finish(mut self) -> Run {
        let status = self.child.wait().unwrap();
        let mut rest: Vec<String> = std::mem::take(&mut self.seen);
        rest.extend(self.lines.iter());
        let stderr = self.stderr.join().unwrap();
        let stdout = rest.join("\n");
        assert_no_secret("stdout", &stdout);
        assert_no_secret("stderr", &stderr);
        Run {
            code: status.code().unwrap_or(-1),
            stdout,
            stderr,
        }
    }
}

/// A same-currency NGN payout in the API's JSON.
pub fn ngn_payout(session_id: &str) -> Value {
    let mut payout = fixtures::ngn_payout_json(session_id, "2500.00");
    payout.as_object_mut().unwrap().remove("narration");
    payout
}

/// The test kit's business (an LLC) in the API's JSON, its document keys
/// written loosely (`cac`, `Bank-Statement`), as a person would.
pub fn business_body() -> Value {
    let link =
        |name: &str| json!({"url": format!("https://files.example/{name}.pdf"), "key": name});
    fixtures::business_json(
        "RC1234567",
        "https://files.example/poa.pdf",
        json!({"cac": link("cac"), "Bank-Statement": link("statement"),
               "application_letter": link("letter"), "bn_form_1": link("bn1")}),
    )
}

/// The test kit's director or UBO in the API's JSON.
pub fn person_body() -> Value {
    fixtures::person_json("https://files.example/passport.pdf")
}

/// The secrecy check notices a leak: a command whose output holds the key
/// (`business validate` echoes document keys as given) fails the run
/// helper every test goes through.
#[test]
#[should_panic(expected = "stdout leaked the API key test_cli_secret_k7Qx93Fw2Lp8")]
fn the_secrecy_check_fails_a_run_that_prints_the_key() {
    let mut leaky = bare();
    leaky
        .args(["business", "validate", "-", "--update"])
        .write_stdin(
            json!({"documents": {KEY: {"url": "https://f.example/x.pdf", "key": "x"}}}).to_string(),
        );
    run_now(leaky);
}
