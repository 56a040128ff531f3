//! Child processes of the commands that run a server (xtask's
//! `schemathesis` and `spec-reuse`, and the benchmarks in `bench/`, which
//! include this file through `#[path]`): building its binary, a free
//! loopback port, a guard that kills the child on every exit path, and
//! readiness polling.

use std::fs::File;
use std::io::{Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use serde_json::Value;

/// How [`cargo_build`] builds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Profile {
    Dev,
    Release,
}

/// Builds `package` and returns the path of its binary (named like the
/// package), as cargo reports it, so `CARGO_TARGET_DIR` and the like are
/// honoured.
pub fn cargo_build(root: &Path, package: &str, profile: Profile) -> Result<PathBuf> {
    cargo_build_for(root, package, profile, None)
}

/// [`cargo_build`] for the target `triple` (`--target`), or the host's.
pub fn cargo_build_for(
    root: &Path,
    package: &str,
    profile: Profile,
    triple: Option<&str>,
) -> Result<PathBuf> {
    let release: &[&str] = match profile {
        Profile::Dev => &[],
        Profile::Release => &["--release"],
    };
    let target: Vec<&str> = triple.map(|t| vec!["--target", t]).unwrap_or_default();
    println!(
        "==> cargo build {}-p {package}{}",
        if release.is_empty() { "" } else { "--release " },
        triple.map(|t| format!(" --target {t}")).unwrap_or_default()
    );
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .current_dir(root)
        .arg("build")
        .args(release)
        .args(&target)
        .args(["-p", package])
        .args(["--message-format", "json-render-diagnostics"])
        .stdin(Stdio::null())
        .stderr(Stdio::inherit())
        .output()
        .context("running cargo build")?;
    if !output.status.success() {
        bail!("cargo build -p {package} failed ({})", output.status);
    }
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter(|msg| msg["reason"] == "compiler-artifact")
        .filter(|msg| msg["target"]["name"] == package)
        .find_map(|msg| msg["executable"].as_str().map(PathBuf::from))
        .with_context(|| format!("cargo reported no {package} executable"))
}

/// A running child server. Dropping it kills the child and reaps it, so the
/// server goes away on every exit path of the command: success, error,
/// panic (unwinding), and a signal turned into an early return.
pub struct ServerGuard {
    name: &'static str,
    child: Child,
    pub addr: SocketAddr,
}

impl ServerGuard {
    /// Starts `cmd` with its output appended to `log`.
    pub fn spawn(
        name: &'static str,
        mut cmd: Command,
        addr: SocketAddr,
        log: &Path,
    ) -> Result<Self> {
        let out = File::create(log).with_context(|| format!("creating {}", log.display()))?;
        let err = out
            .try_clone()
            .with_context(|| format!("opening {} twice", log.display()))?;
        cmd.stdin(Stdio::null())
            .stdout(Stdio::from(out))
            .stderr(Stdio::from(err));
        let child = cmd
            .spawn()
            .with_context(|| format!("{name}: cannot start {:?}", cmd.get_program()))?;
        Ok(Self { name, child, addr })
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Waits until `path` answers with any HTTP response, the child exits,
    /// or `limit` passes.
    pub fn wait_ready(&mut self, path: &str, limit: Duration, log: &Path) -> Result<()> {
        let deadline = Instant::now() + limit;
        loop {
            self.check_running(log)?;
            if answers(self.addr, path, Duration::from_secs(2)) {
                return Ok(());
            }
            self.check_deadline(deadline, limit, log)?;
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// An error if the child has exited (it should be serving).
    pub fn check_running(&mut self, log: &Path) -> Result<()> {
        if let Some(status) = self
            .child
            .try_wait()
            .with_context(|| format!("{}: checking the child", self.name))?
        {
            bail!(
                "{} exited before answering ({status}); see {}",
                self.name,
                log.display()
            );
        }
        Ok(())
    }

    /// An error if `deadline` (`limit` after the start of the wait) has passed.
    pub fn check_deadline(&self, deadline: Instant, limit: Duration, log: &Path) -> Result<()> {
        if Instant::now() >= deadline {
            bail!(
                "{} did not answer on {} within {} s; see {}",
                self.name,
                self.addr,
                limit.as_secs(),
                log.display()
            );
        }
        Ok(())
    }

    /// Kills and reaps the child now (also done on drop).
    pub fn stop(mut self) {
        self.kill();
    }

    fn kill(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

impl Drop for ServerGuard {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A loopback address with a port that was free a moment ago.
pub fn free_loopback_addr() -> Result<SocketAddr> {
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .context("binding 127.0.0.1:0 to find a free port")?;
    listener
        .local_addr()
        .context("reading the address of a bound socket")
}

/// Whether `GET path` on `addr` gets the start of an HTTP/1.1 response
/// within `timeout` (each of connecting, writing and reading).
fn answers(addr: SocketAddr, path: &str, timeout: Duration) -> bool {
    let exchange = || -> std::io::Result<bool> {
        let mut stream = TcpStream::connect_timeout(&addr, timeout)?;
        stream.set_read_timeout(Some(timeout))?;
        stream.set_write_timeout(Some(timeout))?;
        write!(
            stream,
            "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
        )?;
        let mut start = [0u8; 7];
        stream.read_exact(&mut start)?;
        Ok(&start == b"HTTP/1.")
    };
    exchange().unwrap_or(false)
}
