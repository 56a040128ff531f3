//! The programs under test, started as children of this one, and the
//! figures measured against them; the sandbox against a bare handler here,
//! against Prism in `prism.rs`, its memory in `memory.rs`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use anyhow::{bail, Context, Result};

use super::client::sdk_vs_raw;
use super::figure::Figure;
use super::load::{self, Outcome};
use super::rounds::alternate;
use super::{ledger, Group, Options, BALANCE_PATH};
use crate::process::{free_loopback_addr, ServerGuard};

/// The programs under test.
pub(super) struct Servers {
    pub(super) root: PathBuf,
    pub(super) out_dir: PathBuf,
    pub(super) sandbox: PathBuf,
    /// Prism, installed only when its figures are measured.
    pub(super) prism: Option<PathBuf>,
    /// This program, which serves the bare handler.
    pub(super) this: PathBuf,
}

impl Servers {
    pub(super) async fn start(
        &self,
        name: &'static str,
        program: &Path,
        args: &[&str],
        ready: Duration,
    ) -> Result<ServerGuard> {
        let addr = free_loopback_addr()?;
        let port = addr.port().to_string();
        let args: Vec<String> = args.iter().map(|a| a.replace("{port}", &port)).collect();
        let log = self.out_dir.join(format!("{name}.log"));
        let mut cmd = Command::new(program);
        cmd.current_dir(&self.root).args(&args);
        println!("==> {name}: {} {}", program.display(), args.join(" "));
        let mut guard = ServerGuard::spawn(name, cmd, addr, &log)?;
        let deadline = std::time::Instant::now() + ready;
        loop {
            guard.check_running(&log)?;
            if load::probe(addr, BALANCE_PATH, Duration::from_secs(2))
                .await
                .is_ok()
            {
                return Ok(guard);
            }
            guard.check_deadline(deadline, ready, &log)?;
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    pub(super) fn sandbox_args() -> [&'static str; 3] {
        ["--port", "{port}", "--quiet"]
    }

    pub(super) async fn measure(&self, options: &Options) -> Result<Vec<Figure>> {
        let mut figures = Vec::new();
        if [Group::Bare, Group::Sdk, Group::Prism, Group::Ledger]
            .into_iter()
            .any(|group| options.wants(group))
        {
            let sandbox = self
                .start(
                    "sandbox",
                    &self.sandbox,
                    &Self::sandbox_args(),
                    Duration::from_secs(30),
                )
                .await?;
            if options.wants(Group::Bare) {
                figures.extend(self.sandbox_vs_bare(&sandbox, options).await?);
            }
            if options.wants(Group::Sdk) {
                figures.extend(sdk_vs_raw(&sandbox, options).await?);
            }
            if options.wants(Group::Prism) {
                figures.extend(self.sandbox_vs_prism(&sandbox, options).await?);
            }
            // Last: its payouts grow the sandbox's state.
            if options.wants(Group::Ledger) {
                let base_url = format!("http://{}/v1", sandbox.addr);
                let dir = self.out_dir.join("ledger");
                figures.extend(ledger::figures(&base_url, &dir, options).await?);
            }
            sandbox.stop();
        }
        if options.wants(Group::Memory) {
            figures.push(self.bytes_per_collection(options).await?);
        }
        Ok(figures)
    }

    /// The sandbox against a bare axum handler answering the same bytes,
    /// alternating, at 16 and 64 connections; the sandbox's latency at 64.
    async fn sandbox_vs_bare(
        &self,
        sandbox: &ServerGuard,
        options: &Options,
    ) -> Result<Vec<Figure>> {
        let (window, rounds) = (options.duration, options.rounds());
        let (status, body) =
            load::probe(sandbox.addr, BALANCE_PATH, Duration::from_secs(5)).await?;
        if status != hyper::StatusCode::OK {
            bail!("the sandbox answered {status} to {BALANCE_PATH}");
        }
        let body_file = self.out_dir.join("balance-body.json");
        std::fs::write(&body_file, &body)
            .with_context(|| format!("writing {}", body_file.display()))?;
        let body_arg = body_file.display().to_string();
        let bare = self
            .start(
                "bare",
                &self.this,
                &["bare-server", "--port", "{port}", "--body-file", &body_arg],
                Duration::from_secs(30),
            )
            .await?;
        let mut figures = Vec::new();
        for (name, connections) in [("sandbox_vs_bare_16", 16), ("sandbox_vs_bare", 64)] {
            let (s, b) = alternate(
                (sandbox, BALANCE_PATH),
                (&bare, BALANCE_PATH),
                connections,
                options,
            )
            .await?;
            let setting = format!("{rounds} alternating rounds of {} ms", window.as_millis());
            figures.push(throughput_ratio(name, (&s, &b), connections, 0.7, &setting));
            if connections == 64 {
                let ms = |d: Option<Duration>| d.map_or(f64::NAN, |d| d.as_secs_f64() * 1000.0);
                for (name, q, what) in [
                    ("sandbox_p50_ms", 0.50, "median"),
                    ("sandbox_p99_ms", 0.99, "p99"),
                ] {
                    figures.push(Figure {
                        name,
                        value: ms(s.quantile(q)),
                        goal: 2.0,
                        below: true,
                        unit: "ms",
                        detail: format!(
                            "sandbox latency {what} at 64 connections; the bare handler's {what} {:.3} ms in the same rounds; {:.2} ms is 64 / throughput, the closed-loop mean",
                            ms(b.quantile(q)),
                            64_000.0 / s.requests_per_sec()
                        ),
                    });
                }
            }
        }
        bare.stop();
        Ok(figures)
    }
}

/// The sandbox's throughput over another server's (`sandbox, other`) on
/// GET [`BALANCE_PATH`] at `connections`, which must reach `goal`; `setting`
/// ends the detail (how the two were run).
pub(super) fn throughput_ratio(
    name: &'static str,
    (sandbox, other): (&Outcome, &Outcome),
    connections: usize,
    goal: f64,
    setting: &str,
) -> Figure {
    let (ours, theirs) = (sandbox.requests_per_sec(), other.requests_per_sec());
    Figure::ratio(
        name,
        ours,
        theirs,
        goal,
        format!("{ours:.0} / {theirs:.0} req/s, GET {BALANCE_PATH}, {connections} connections, {setting}"),
    )
}
