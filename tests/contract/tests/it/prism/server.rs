//! A Prism process on a free 127.0.0.1 port that lives exactly as long as
//! its [`PrismServer`]: started, awaited until it says it listens (with a
//! bounded wait), killed when dropped, and its output kept for failure
//! messages.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read};
use std::net::{Ipv4Addr, SocketAddr, TcpListener};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use tokio::sync::watch;

use super::install::{prism_bin, workspace_root};

/// How long Prism may take to start. It takes a few seconds on an idle
/// machine; a loaded 2-core machine starting several at once needs more.
pub const START_TIMEOUT: Duration = Duration::from_secs(120);

/// The line Prism prints once it accepts connections.
const READY_LINE: &str = "Prism is listening on";

/// How many lines of Prism's output are kept for failure messages.
const KEPT_LINES: usize = 400;

/// The spec, relative to the workspace root.
pub const SPEC_PATH: &str = "openapi/crossborder.yaml";

/// A running Prism.
pub struct PrismServer {
    name: String,
    child: Child,
    addr: SocketAddr,
    output: Arc<Mutex<Output>>,
    started_in: Duration,
}

#[derive(Default)]
struct Output {
    lines: VecDeque<String>,
    dropped: usize,
}

impl Output {
    fn push(&mut self, line: String) {
        if self.lines.len() == KEPT_LINES {
            self.lines.pop_front();
            self.dropped += 1;
        }
        self.lines.push_back(line);
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Starting,
    Ready,
    Exited,
}

impl PrismServer {
    /// Starts `prism <args> --port P --host 127.0.0.1` in the workspace root
    /// (so [`SPEC_PATH`] resolves) and waits until it listens. Panics with
    /// its output when it exits first or does not listen within
    /// [`START_TIMEOUT`]; a port taken in between is retried on another.
    pub async fn start(name: &str, args: &[&str]) -> PrismServer {
        let bin = tokio::task::spawn_blocking(prism_bin)
            .await
            .unwrap_or_else(|error| panic!("installing Prism: {error}"));
        let mut last_failure = String::new();
        for _attempt in 0..3 {
            match PrismServer::try_start(name, bin, args).await {
                Ok(server) => return server,
                Err((failure, port_taken)) => {
                    if !port_taken {
                        panic!("{failure}");
                    }
                    last_failure = failure;
                }
            }
        }
        panic!("{last_failure}")
    }

    async fn try_start(
        name: &str,
        bin: &Path,
        args: &[&str],
    ) -> Result<PrismServer, (String, bool)> {
        let addr = free_port();
        let mut command = Command::new(bin);
        command
            .current_dir(workspace_root())
            .args(args)
            .args(["--port", &addr.port().to_string(), "--host", "127.0.0.1"])
            // Plain text output, one process: the child is Prism itself.
            .env("FORCE_COLOR", "0")
            .env("NO_COLOR", "1")
            .env_remove("NODE_ENV")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let started = Instant::now();
        let mut child = command.spawn().map_err(|error| {
            (
                format!("{name}: cannot start {}: {error}", bin.display()),
                false,
            )
        })?;
        let output = Arc::new(Mutex::new(Output::default()));
        let (state_tx, mut state_rx) = watch::channel(State::Starting);
        let state_tx = Arc::new(state_tx);
        if let Some(stdout) = child.stdout.take() {
            read_lines(stdout, output.clone(), Some(state_tx.clone()));
        }
        if let Some(stderr) = child.stderr.take() {
            read_lines(stderr, output.clone(), None);
        }
        drop(state_tx);
        let mut server = PrismServer {
            name: name.to_owned(),
            child,
            addr,
            output,
            started_in: Duration::ZERO,
        };
        let waited =
            tokio::time::timeout(START_TIMEOUT, state_rx.wait_for(|s| *s != State::Starting)).await;
        let state = match waited {
            Ok(Ok(state)) => *state,
            // Every sender gone: stdout closed without the ready line.
            Ok(Err(_)) => State::Exited,
            Err(_) => {
                return Err((
                    format!(
                        "{name} did not listen on {addr} within {} s (`prism {}`):\n{}",
                        START_TIMEOUT.as_secs(),
                        args.join(" "),
                        server.log()
                    ),
                    false,
                ))
            }
        };
        if state == State::Exited {
            let _ = server.child.wait();
            let log = server.log();
            let port_taken = log.contains("EADDRINUSE");
            return Err((
                format!(
                    "{name} exited before listening (`prism {}`):\n{log}",
                    args.join(" ")
                ),
                port_taken,
            ));
        }
        server.started_in = started.elapsed();
        Ok(server)
    }

    /// `http://127.0.0.1:PORT`.
    pub fn origin(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// How long Prism took to start listening.
    pub fn started_in(&self) -> Duration {
        self.started_in
    }

    /// The last lines Prism printed, for failure messages.
    pub fn log(&self) -> String {
        let output = self.output.lock().unwrap_or_else(PoisonError::into_inner);
        let mut text = format!("--- {} output", self.name);
        if output.dropped > 0 {
            text.push_str(&format!(" (last {KEPT_LINES} lines)"));
        }
        text.push_str(" ---\n");
        for line in &output.lines {
            text.push_str(line);
            text.push('\n');
        }
        text.push_str("--- end ---");
        text
    }

    /// The lines Prism logged about a violation (`Violation: ...`).
    pub fn violation_lines(&self) -> Vec<String> {
        let output = self.output.lock().unwrap_or_else(PoisonError::into_inner);
        output
            .lines
            .iter()
            .filter(|line| line.contains("Violation:"))
            .cloned()
            .collect()
    }
}

impl Drop for PrismServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A port that was free a moment ago (Prism binds it itself; a race is
/// retried by [`PrismServer::start`]).
fn free_port() -> SocketAddr {
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).expect("binding 127.0.0.1:0");
    listener
        .local_addr()
        .expect("a bound socket has an address")
}

/// Copies `stream` line by line into `output` on a thread of its own,
/// announcing the ready line and the end of the stream on `state`.
fn read_lines(
    stream: impl Read + Send + 'static,
    output: Arc<Mutex<Output>>,
    state: Option<Arc<watch::Sender<State>>>,
) {
    std::thread::spawn(move || {
        for line in BufReader::new(stream).lines() {
            let Ok(line) = line else { break };
            if line.contains(READY_LINE) {
                if let Some(state) = &state {
                    state.send_replace(State::Ready);
                }
            }
            output
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(line);
        }
        if let Some(state) = &state {
            state.send_if_modified(|current| {
                if *current == State::Starting {
                    *current = State::Exited;
                    true
                } else {
                    false
                }
            });
        }
    });
}
