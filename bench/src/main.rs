//! `crossborder-bench` (run by `cargo xtask bench`, or directly as `cargo
//! run --release -p crossborder-bench -- [FLAGS]`): every performance
//! figure of the project, each a ratio against its anchor or its limit measured in the same run (or an
//! absolute figure with its goal), printed as one table and written to
//! `target/bench/summary.json` as `{"<figure>": {"value", "goal", "met",
//! "unit"}}`.
//!
//! Figures:
//! - `sdk_vs_raw`, `sdk_vs_raw_8`: the `crossborder` client's calls per
//!   second on the local sandbox from 64 (and 8) tasks, over plain `reqwest`
//!   sending the same requests through the same pool (goal at least 0.95).
//! - `sandbox_vs_prism_16`, `sandbox_vs_prism_64`: the sandbox's requests per
//!   second on `GET /v1/api/balance/NGN` over a Prism mock of the spec, at
//!   16 and 64 connections (goal at least 20).
//! - `sandbox_vs_bare`, `sandbox_vs_bare_16`: the sandbox over a bare axum
//!   handler answering the same bytes (the limit of the stack), at 64 (and
//!   16) connections (goal at least 0.7); `sandbox_p50_ms`, `sandbox_p99_ms`
//!   at 64 connections (p99 goal under 2 ms).
//! - `payout_validate_ns`: criterion median of `validate_payout` (goal under
//!   1,000 ns); `webhook_parse_ns`: of parsing and classifying a typical
//!   webhook event (goal under 5,000 ns).
//! - `sandbox_bytes_per_collection`: growth of the sandbox's resident memory
//!   per stored collection (goal under 2 KiB).
//! - `codegen_ms`: `xtask codegen --check`, once built (goal under 1,000 ms).
//! - `ledger_submit_vs_sqlite`: durable `Ledger::submit`s per second over
//!   bare one-row SQLite commits on the same disk (WAL, synchronous=FULL);
//!   `ledger_dispatch_vs_direct` (SQLite), `ledger_dispatch_vs_direct_pg`:
//!   payouts per second through the ledger over the SDK's direct
//!   `payouts().create` against the same sandbox (each goal at least 0.5;
//!   `ledger.rs`).
//! - `downstream_build_vs_async_openai`: a new user's first `cargo build`
//!   on `crossborder` over one on `async-openai` 0.30 (goal at most 0.8);
//!   only with `--only build` (`bench/build.rs`).
//!
//! Ratios alternate rounds of the two sides so the machine's noise hits
//! both. `--only GROUP,...` measures some groups of figures (see [`Group`]).
//! `--quick` runs every figure with short windows (CI runs it so the
//! harness cannot rot; it fails only on a broken harness, never on a
//! figure). Built unoptimised (`cargo run` without `--release`), this tool
//! first replaces itself with a release build; `--no-release` measures
//! debug builds instead (figures meaningless, harness checked, as CI does).
//! The latest figures and how they were read are in `bench/RESULTS.md`.
//!
//! Each server is a child killed by a guard on drop; SIGINT, SIGTERM and
//! SIGHUP end the run through the same path, so no server outlives it.

mod bare;
mod client;
mod codegen;
mod downstream;
mod figure;
mod ledger;
mod load;
mod micro;
// The npm tools' pins and install, shared with xtask and the Prism tests.
#[path = "../../xtask/src/npm_tools.rs"]
mod npm_tools;
// Child servers, shared with xtask (which waits for them without tokio:
// its blocking `wait_ready` is not used here).
#[allow(dead_code)]
#[path = "../../xtask/src/process.rs"]
mod process;
mod reference;
mod report;
mod rounds;
mod runtime;
mod server;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{anyhow, bail, Context, Result};
use clap::{Parser, Subcommand};
use serde_json::json;

use self::codegen::codegen_ms;
use self::load::{Outcome, API_KEY, API_KEY_HEADER};
use self::report::report;
use self::rounds::{alternate, pick_path};
use self::runtime::{reexec_release, Signals};
use crate::process::{cargo_build, free_loopback_addr, Profile, ServerGuard};

use figure::Figure;

/// Path of the OpenAPI spec, relative to the workspace root.
const SPEC_PATH: &str = "openapi/crossborder.yaml";

/// The request measured, as the API documents it (server URL `.../v1`).
const BALANCE_PATH: &str = "/v1/api/balance/NGN";
/// The same path without the server's `/v1` prefix (how Prism may serve it).
const BALANCE_PATH_NO_PREFIX: &str = "/api/balance/NGN";
const SANDBOX_PACKAGE: &str = "crossborder-sandbox";
const OUT_DIR: &str = "target/bench";
const SUMMARY_FILE: &str = "target/bench/summary.json";

#[derive(Parser)]
#[command(
    name = "crossborder-bench",
    about = "Every performance figure, each against its anchor or limit, measured in one run; \
             writes target/bench/summary.json (see bench/RESULTS.md)",
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Internal>,
    /// Measured seconds of each round.
    #[arg(long, default_value_t = 4, value_name = "SECONDS",
          value_parser = clap::value_parser!(u64).range(1..=300))]
    duration: u64,
    /// Every figure with short windows, in under 2 minutes (CI).
    #[arg(long)]
    quick: bool,
    /// Measure debug builds (checks the harness; figures mean nothing).
    #[arg(long)]
    no_release: bool,
    /// Measure only these groups of figures (comma-separated); the
    /// summary then holds only them.
    #[arg(long, value_delimiter = ',', value_name = "GROUP")]
    only: Vec<Group>,
    /// Payouts in flight at once in the `ledger` group's dispatch figures,
    /// on both sides (the dispatcher's `concurrency`, the direct side's
    /// tasks).
    #[arg(long, default_value_t = 16, value_name = "N",
          value_parser = clap::value_parser!(u64).range(1..=1024))]
    ledger_concurrency: u64,
}

/// Programs this binary runs as its own children, or for other tools.
#[derive(Subcommand)]
enum Internal {
    /// Exactly COUNT calls of one client against a running sandbox, for a
    /// profiler: `valgrind --tool=callgrind target/release/crossborder-bench
    /// calls --which sdk --base-url http://127.0.0.1:8080/v1` (see
    /// `bench/RESULTS.md`).
    #[command(hide = true)]
    Calls {
        #[arg(long, value_enum)]
        which: client::Which,
        #[arg(long, value_enum, default_value = "both")]
        calls: client::Calls,
        #[arg(long, default_value_t = 4000)]
        count: u64,
        #[arg(long, default_value_t = 8)]
        tasks: u64,
        #[arg(long)]
        base_url: String,
    },
    /// The bare handler the sandbox is measured against.
    #[command(hide = true)]
    BareServer {
        #[arg(long)]
        port: u16,
        #[arg(long)]
        body_file: PathBuf,
    },
    /// The amounts the Rust SDK reads in the examples' flow, as JSON on
    /// stdout: the reference `cargo xtask spec-reuse` checks the
    /// TypeScript and Python examples against.
    #[command(hide = true)]
    SpecReuseReference {
        #[arg(long)]
        base_url: String,
        #[arg(long)]
        api_key: String,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Internal::Calls {
            which,
            calls,
            count,
            tasks,
            base_url,
        }) => client::calls(&base_url, which, calls, count, tasks),
        Some(Internal::BareServer { port, body_file }) => bare::serve(port, &body_file),
        Some(Internal::SpecReuseReference { base_url, api_key }) => {
            reference::print(&base_url, &api_key)
        }
        None => workspace_root().and_then(|root| {
            run(
                &root,
                &Options {
                    duration: if cli.quick {
                        Duration::from_millis(700)
                    } else {
                        Duration::from_secs(cli.duration)
                    },
                    quick: cli.quick,
                    release: !cli.no_release,
                    only: cli.only,
                    ledger_concurrency: usize::try_from(cli.ledger_concurrency).unwrap_or(16),
                },
            )
        }),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::FAILURE
        }
    }
}

/// The workspace root: the parent of this crate's manifest directory.
fn workspace_root() -> Result<PathBuf> {
    let manifest_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest_dir
        .parent()
        .map(PathBuf::from)
        .context("the bench crate's manifest dir has no parent")
}

struct Options {
    /// Measured window of each round.
    pub duration: Duration,
    pub quick: bool,
    /// Measure release builds (re-executing as one).
    pub release: bool,
    /// The groups of figures to measure; empty measures every figure.
    pub only: Vec<Group>,
    /// Payouts in flight at once in the dispatch figures (`ledger.rs`).
    pub ledger_concurrency: usize,
}

/// A group of figures measured together (`--only`), for working on one
/// figure without waiting for the others; the summary then holds only
/// that group.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Group {
    /// `sandbox_vs_bare`, `sandbox_vs_bare_16`, `sandbox_p50_ms`, `sandbox_p99_ms`.
    Bare,
    /// `sdk_vs_raw`, `sdk_vs_raw_8`.
    Sdk,
    /// `sandbox_vs_prism_16`, `sandbox_vs_prism_64`.
    Prism,
    /// `sandbox_bytes_per_collection`.
    Memory,
    /// `payout_validate_ns`, `webhook_parse_ns`.
    Micro,
    /// `codegen_ms`.
    Codegen,
    /// `ledger_submit_vs_sqlite`, `ledger_dispatch_vs_direct`,
    /// `ledger_dispatch_vs_direct_pg` (`ledger.rs`).
    Ledger,
    /// `downstream_build_vs_async_openai` (`downstream.rs`); only when named,
    /// never in a full or `--quick` run: four full builds.
    Build,
}

impl Options {
    fn wants(&self, group: Group) -> bool {
        (self.only.is_empty() && group != Group::Build) || self.only.contains(&group)
    }

    fn warmup(&self) -> Duration {
        if self.quick {
            Duration::from_millis(300)
        } else {
            Duration::from_secs(1)
        }
    }

    /// Rounds of each side of a ratio.
    fn rounds(&self) -> usize {
        if self.quick {
            1
        } else {
            3
        }
    }

    fn collections(&self) -> usize {
        if self.quick {
            10_000
        } else {
            100_000
        }
    }
}

/// CPU use during a measured window, each as a share of one core in percent.
#[derive(Clone, Copy, Default)]
struct Cpu {
    client: Option<f64>,
    server: Option<f64>,
    /// The whole machine (all processes, all cores).
    machine: Option<f64>,
}

/// The sandbox's throughput over another server's (`sandbox, other`) on
/// GET [`BALANCE_PATH`] at `connections`, which must reach `goal`; `setting`
/// ends the detail (how the two were run).
fn throughput_ratio(
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

fn run(root: &Path, options: &Options) -> Result<()> {
    if options.release && cfg!(debug_assertions) {
        return reexec_release(root);
    }
    if !root.join(SPEC_PATH).exists() {
        bail!("{SPEC_PATH} does not exist");
    }
    let profile = if options.release {
        Profile::Release
    } else {
        Profile::Dev
    };
    let sandbox_bin = cargo_build(root, SANDBOX_PACKAGE, profile)?;
    let xtask_bin = if options.wants(Group::Codegen) {
        Some(cargo_build(root, "xtask", profile)?)
    } else {
        None
    };
    let prism_bin = if options.wants(Group::Prism) {
        let prism = node_bin(root)?.join("prism");
        if !prism.exists() {
            bail!("{} is missing after the npm install", prism.display());
        }
        Some(prism)
    } else {
        None
    };
    let out_dir = root.join(OUT_DIR);
    std::fs::create_dir_all(&out_dir).with_context(|| format!("creating {}", out_dir.display()))?;
    let servers = Servers {
        root: root.to_owned(),
        out_dir: out_dir.clone(),
        sandbox: sandbox_bin,
        prism: prism_bin,
        this: std::env::current_exe().context("finding this program")?,
    };

    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("building the tokio runtime")?;
    let mut figures = runtime.block_on(async {
        // Installed before any child starts: from here on a signal makes the
        // benchmark future below drop (killing the child) instead of killing
        // this process outright.
        let mut signals = Signals::install()?;
        tokio::select! {
            biased;
            name = signals.recv() => Err(anyhow!("interrupted by {name}; servers stopped")),
            r = servers.measure(options) => r,
        }
    })?;
    drop(runtime);

    let measurement_secs = if options.quick { 1 } else { 3 };
    if options.wants(Group::Micro) {
        for result in micro::run_all(root, measurement_secs, options.release)? {
            figures.push(Figure {
                name: result.micro.name,
                value: result.median_ns,
                goal: result.micro.goal_ns,
                below: true,
                unit: "ns",
                detail: format!("criterion median: {}", result.micro.what),
            });
        }
    }
    if let Some(xtask) = xtask_bin {
        figures.push(codegen_ms(root, &xtask, options)?);
    }
    if options.wants(Group::Build) {
        figures.push(downstream::downstream_build(root)?);
    }
    report(root, options, &figures)
}

/// The programs under test.
struct Servers {
    root: PathBuf,
    out_dir: PathBuf,
    sandbox: PathBuf,
    /// Prism, installed only when its figures are measured.
    prism: Option<PathBuf>,
    /// This program, which serves the bare handler.
    this: PathBuf,
}

impl Servers {
    async fn start(
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

    fn sandbox_args() -> [&'static str; 3] {
        ["--port", "{port}", "--quiet"]
    }

    async fn measure(&self, options: &Options) -> Result<Vec<Figure>> {
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

    /// The sandbox against a Prism mock of the spec at 16 and 64 connections.
    async fn sandbox_vs_prism(
        &self,
        sandbox: &ServerGuard,
        options: &Options,
    ) -> Result<Vec<Figure>> {
        let prism_bin = self
            .prism
            .as_deref()
            .context("Prism is installed only when its figures are asked for")?;
        let prism = self
            .start(
                "prism",
                prism_bin,
                &["mock", SPEC_PATH, "-p", "{port}", "-h", "127.0.0.1"],
                Duration::from_secs(90),
            )
            .await?;
        let prism_path = pick_path(&prism, &[BALANCE_PATH, BALANCE_PATH_NO_PREFIX]).await?;
        let mut figures = Vec::new();
        for (name, connections) in [("sandbox_vs_prism_16", 16), ("sandbox_vs_prism_64", 64)] {
            let (s, p) = alternate(
                (sandbox, BALANCE_PATH),
                (&prism, prism_path),
                connections,
                options,
            )
            .await?;
            let setting = "Prism with default settings";
            figures.push(throughput_ratio(name, (&s, &p), connections, 20.0, setting));
        }
        prism.stop();
        Ok(figures)
    }

    /// Resident memory growth of a fresh sandbox per stored collection.
    async fn bytes_per_collection(&self, options: &Options) -> Result<Figure> {
        let sandbox = self
            .start(
                "sandbox-memory",
                &self.sandbox,
                &Self::sandbox_args(),
                Duration::from_secs(30),
            )
            .await?;
        let count = options.collections();
        let base_url = format!("http://{}/v1", sandbox.addr);
        let http = reqwest::Client::new();
        // One collection first, so one-off allocations are not counted.
        create_collection(&http, &base_url, 0).await?;
        let before = resident_bytes(sandbox.pid())?;
        let next = Arc::new(std::sync::atomic::AtomicUsize::new(1));
        let mut tasks = Vec::new();
        for _ in 0..16 {
            let (http, base_url, next) = (http.clone(), base_url.clone(), next.clone());
            tasks.push(tokio::spawn(async move {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if i > count {
                        return anyhow::Ok(());
                    }
                    create_collection(&http, &base_url, i).await?;
                }
            }));
        }
        for task in tasks {
            task.await.context("a load task panicked")??;
        }
        let after = resident_bytes(sandbox.pid())?;
        sandbox.stop();
        Ok(Figure {
            name: "sandbox_bytes_per_collection",
            value: after.saturating_sub(before) as f64 / count as f64,
            goal: 2048.0,
            below: true,
            unit: "bytes",
            detail: format!("resident memory {before} -> {after} bytes over {count} collections"),
        })
    }
}

async fn create_collection(http: &reqwest::Client, base_url: &str, i: usize) -> Result<()> {
    let body = json!({"amount": 5000, "fromCurrency": "NGN", "toCurrency": "NGN",
                      "paymentReference": format!("bench-{i}")});
    let response = http
        .post(format!("{base_url}/api/initiate-payment"))
        .header(API_KEY_HEADER, API_KEY)
        .json(&body)
        .send()
        .await
        .context("creating a collection")?;
    if !response.status().is_success() {
        bail!("creating collection {i}: {}", response.status());
    }
    Ok(())
}

/// VmRSS of `pid`, from `/proc`.
fn resident_bytes(pid: u32) -> Result<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"))
        .with_context(|| format!("reading /proc/{pid}/status"))?;
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|rest| rest.trim().strip_suffix("kB"))
        .and_then(|kb| kb.trim().parse::<u64>().ok())
        .map(|kb| kb * 1024)
        .context("no VmRSS in /proc/<pid>/status")
}

/// The SDK against plain reqwest on the same sandbox and pool, from 64 and
/// from 8 tasks, in many short rounds (500 ms of each side after 200 ms of
/// warm-up, as many rounds as the other ratios' measured time: 24 by
/// default), the side that goes first alternating. This machine's speed
/// drifts over seconds (the same 10,000 calls take from 0.18 to 0.35 s,
/// run after run), so only rounds shorter than the drift meet both sides
/// with the same machine; and the sandbox's state grows with every quote,
/// so whichever side always ran second would meet a slightly busier server.
async fn sdk_vs_raw(sandbox: &ServerGuard, options: &Options) -> Result<Vec<Figure>> {
    let window = if options.quick {
        Duration::from_millis(300)
    } else {
        Duration::from_millis(500)
    };
    let warmup = Duration::from_millis(200);
    let measured = options.duration * options.rounds() as u32;
    let rounds = (measured.as_millis() / window.as_millis()).max(2) as usize;
    let base_url = format!("http://{}/v1", sandbox.addr);
    let (sdk, raw) = client::Side::pair(&base_url)?;
    let (sdk, raw) = (Arc::new(sdk), Arc::new(raw));
    let mut figures = Vec::new();
    for (name, tasks) in [("sdk_vs_raw", 64), ("sdk_vs_raw_8", 8)] {
        let (mut sdk_rate, mut raw_rate) = (0.0, 0.0);
        let (mut sdk_cpu, mut raw_cpu) = (Vec::new(), Vec::new());
        for round in 0..rounds {
            let (s, r) = if round % 2 == 0 {
                let s = client::throughput(sdk.clone(), tasks, warmup, window).await?;
                (
                    s,
                    client::throughput(raw.clone(), tasks, warmup, window).await?,
                )
            } else {
                let r = client::throughput(raw.clone(), tasks, warmup, window).await?;
                (
                    client::throughput(sdk.clone(), tasks, warmup, window).await?,
                    r,
                )
            };
            let us = |t: &client::Throughput| t.cpu_us_per_call.unwrap_or(f64::NAN);
            println!(
                "    {tasks} tasks, round {}/{rounds}: SDK {:.0} calls/s ({:.1} us CPU per call), reqwest {:.0} calls/s ({:.1} us)",
                round + 1,
                s.calls_per_sec,
                us(&s),
                r.calls_per_sec,
                us(&r)
            );
            sdk_rate += s.calls_per_sec;
            raw_rate += r.calls_per_sec;
            sdk_cpu.extend(s.cpu_us_per_call);
            raw_cpu.extend(r.cpu_us_per_call);
        }
        let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
        figures.push(Figure::ratio(
            name,
            sdk_rate,
            raw_rate,
            0.95,
            format!(
                "{:.0} / {:.0} calls/s, balance and quote alternately, {tasks} tasks, same reqwest pool, {rounds} alternating rounds of {} ms; client CPU {:.1} / {:.1} us per call",
                sdk_rate / rounds as f64,
                raw_rate / rounds as f64,
                window.as_millis(),
                mean(&sdk_cpu),
                mean(&raw_cpu)
            ),
        ));
    }
    Ok(figures)
}

/// The `node_modules/.bin` directory with the pinned npm tools (Prism),
/// installed first if they are not current (as xtask installs them).
fn node_bin(root: &Path) -> Result<PathBuf> {
    let prefix = npm_tools::prefix(root);
    if !npm_tools::is_current(&prefix) {
        println!(
            "tools: installing {} into {}",
            npm_tools::packages().join(" "),
            prefix.display()
        );
        let mut cmd = npm_tools::install_command(&prefix)
            .with_context(|| format!("creating {}", prefix.display()))?;
        let status = cmd
            .status()
            .context("npm install: cannot run npm (is node/npm installed?)")?;
        if !status.success() {
            bail!("npm install failed ({status})");
        }
        npm_tools::mark_current(&prefix)
            .with_context(|| format!("writing the stamp in {}", prefix.display()))?;
    }
    Ok(prefix.join("node_modules/.bin"))
}
