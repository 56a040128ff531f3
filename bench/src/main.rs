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
//!   bare one-row SQLite commits on the same disk (WAL, synchronous=FULL),
//!   one at a time (goal at least 0.5) and from 64 tasks at once
//!   (`ledger_submit_64_vs_sqlite`, goal at least 1);
//!   `ledger_dispatch_vs_direct` (SQLite), `ledger_dispatch_vs_direct_pg`:
//!   payouts per second through the ledger over the SDK's direct
//!   `payouts().create` against the same sandbox (goals at least 0.5);
//!   `ledger_settle_vs_direct`, `ledger_quoted_vs_direct` (SQLite): the same
//!   for payouts followed until settled, and for converting payouts quoted
//!   at send time (goals at least 0.5);
//!   `ledger_record_scaling`: the time per item of recording a batch of
//!   16,000 items without `sessionId` over that of 1,000 (goal under 1.5:
//!   linear in the batch's size; `ledger.rs`).
//! - `downstream_build_vs_async_openai`: a new user's first `cargo build`
//!   on `crossborder` over one on `async-openai` 0.30 (goal at most 0.7);
//!   `ledger_build_vs_sdk`: one on `crossborder-ledger` (SQLite) over one
//!   on `crossborder` alone (goal at most 1.3); only with `--only build`
//!   (`downstream.rs`).
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
mod cpu;
mod downstream;
mod figure;
mod ledger;
mod load;
mod memory;
mod micro;
mod options;
mod prism;
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
mod servers;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{anyhow, bail, Context, Result};
use clap::{Parser, Subcommand};

use self::codegen::codegen_ms;
use self::options::{Group, Options};
use self::prism::node_bin;
use self::report::report;
use self::runtime::{reexec_release, Signals};
use self::servers::Servers;
use crate::process::{cargo_build, Profile};

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
        figures.extend(downstream::downstream_build(root)?);
    }
    report(root, options, &figures)
}
