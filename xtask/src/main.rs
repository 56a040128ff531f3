//! Project automation for the crossborder workspace.
//!
//! * `cargo xtask codegen [--check]` regenerates nine files: from
//!   `openapi/crossborder.yaml` the client `crates/crossborder-api/src/generated.rs`,
//!   the request views `crates/crossborder-core/src/views.rs`, the enumerations
//!   `crates/crossborder-core/src/enums.rs`, and in `crates/crossborder/src/` the
//!   SDK's `types/payout_request.rs`, `kyb/business_request.rs`,
//!   `kyb/person_request.rs`, `kyb/parts.rs` and `kyb/record.rs`; from
//!   `openapi/sandbox-control.yaml` the sandbox's read model
//!   `crates/crossborder-sandbox/src/control/state.rs`.
//! * `cargo xtask lint-spec` lints the spec with redocly, spectral and
//!   openapi-spec-validator.
//! * `cargo xtask spec-reuse` runs `examples/typescript` and
//!   `examples/python` through clients generated from the spec against a
//!   sandbox, comparing their amounts with the Rust SDK's (read by
//!   `crossborder-bench spec-reuse-reference`).
//! * `cargo xtask package-sandbox [--release] [--target TRIPLE]` builds the
//!   sandbox's Python wheel and npm packages into `target/packaging/`.
//! * `cargo xtask schemathesis [-- ARGS]` runs schemathesis against the
//!   sandbox (see `tests/schemathesis/README.md`).
//! * `cargo xtask bench [--quick] [--duration S] [--no-release] [--only GROUP,...]` measures
//!   every performance figure against its anchor or limit (writes
//!   `target/bench/summary.json`): it runs the `crossborder-bench` crate
//!   (`bench/`), `cargo run [--release] -p crossborder-bench -- FLAGS`.
//!
//! xtask depends on no crate of the workspace, so code generation never
//! has to compile a crate it writes into.
//! * `cargo xtask msrv` checks that every dependency shipped with the
//!   workspace's crates supports the declared `rust-version`, and compiles
//!   the shipped crates with that toolchain (installed by rustup).

mod assumptions;
mod codegen;
mod control_views;
mod diff;
mod enums;
mod lint_spec;
mod msrv;
mod npm_tools;
mod postprocess;
mod preprocess;
mod process;
mod replacements;
mod rust_file;
mod sandbox_packages;
mod schemathesis;
mod sdk_records;
mod sdk_types;
mod spec_model;
mod spec_reuse;
#[cfg(test)]
mod test_spec;
mod tools;
mod views;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "xtask", about = "crossborder project automation")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Regenerate the nine generated files (the API client, core's views and
    /// enumerations, the SDK's typed requests and records, the sandbox's
    /// control read model) from openapi/crossborder.yaml and
    /// openapi/sandbox-control.yaml.
    #[command(after_help = codegen::files_help())]
    Codegen {
        /// Do not write; fail with a diff if a committed file is out of date.
        #[arg(long)]
        check: bool,
        /// Generate from another spec file (for experiments; default openapi/crossborder.yaml).
        #[arg(long, value_name = "PATH")]
        spec: Option<PathBuf>,
    },
    /// Lint openapi/crossborder.yaml with redocly, spectral and openapi-spec-validator.
    LintSpec,
    /// Generate TypeScript and Python clients from the spec and run the
    /// examples with them against a sandbox (and the self-tests).
    SpecReuse,
    /// Build the sandbox's Python wheel and npm packages (launcher and
    /// platform package) into target/packaging/, for this machine or
    /// `--target` (the release recipe in examples/README.md).
    PackageSandbox {
        /// Build the release profile (default: dev).
        #[arg(long)]
        release: bool,
        /// A target triple (`aarch64-apple-darwin`), as `cargo build --target`.
        #[arg(long, value_name = "TRIPLE")]
        target: Option<String>,
    },
    /// Run schemathesis (every check) against a freshly built sandbox on a free
    /// loopback port; arguments after `--` go to schemathesis.
    Schemathesis {
        #[arg(last = true, value_name = "ARGS")]
        extra: Vec<String>,
    },
    /// Check that every shipped dependency supports the declared rust-version,
    /// and compile the shipped crates with that toolchain (installed by rustup).
    Msrv,
    /// Every performance figure, each against its anchor or limit, measured
    /// in one run; writes target/bench/summary.json. Runs the
    /// crossborder-bench crate (bench/) with the same flags, `cargo run
    /// [--release] -p crossborder-bench -- FLAGS` (`--release` unless
    /// `--no-release`): `cargo xtask bench --help` prints its flags.
    #[command(disable_help_flag = true)]
    Bench {
        /// --quick, --duration SECONDS, --no-release, --only GROUP,...
        #[arg(
            trailing_var_arg = true,
            allow_hyphen_values = true,
            value_name = "FLAGS"
        )]
        flags: Vec<String>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = workspace_root().and_then(|root| match cli.command {
        Command::Codegen { check, spec } => codegen::run(&root, check, spec.as_deref()),
        Command::LintSpec => lint_spec::run(&root),
        Command::SpecReuse => spec_reuse::run(&root),
        Command::PackageSandbox { release, target } => sandbox_packages::run(
            &root,
            if release {
                process::Profile::Release
            } else {
                process::Profile::Dev
            },
            target.as_deref(),
        ),
        Command::Schemathesis { extra } => schemathesis::run(&root, &extra),
        Command::Msrv => msrv::run(&root),
        Command::Bench { flags } => bench(&root, &flags),
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::FAILURE
        }
    }
}

/// `cargo run -p crossborder-bench -- FLAGS`, with `--release` unless
/// `FLAGS` has `--no-release` (the benchmark then measures debug builds) or
/// asks for help (which needs no optimised build).
fn bench(root: &Path, flags: &[String]) -> Result<()> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut cmd = std::process::Command::new(cargo);
    cmd.current_dir(root)
        .args(["run", "-p", "crossborder-bench"]);
    let debug = ["--no-release", "--help", "-h"];
    if !flags.iter().any(|flag| debug.contains(&flag.as_str())) {
        cmd.arg("--release");
    }
    cmd.arg("--").args(flags);
    let status = cmd
        .status()
        .context("running cargo run -p crossborder-bench")?;
    if !status.success() {
        bail!("crossborder-bench failed ({status})");
    }
    Ok(())
}

/// The workspace root: the parent of this crate's manifest directory.
fn workspace_root() -> Result<PathBuf> {
    let manifest_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest_dir
        .parent()
        .map(PathBuf::from)
        .ok_or_else(|| anyhow::anyhow!("xtask manifest dir has no parent"))
}

/// Path of the OpenAPI spec, relative to the workspace root.
pub const SPEC_PATH: &str = "openapi/crossborder.yaml";

/// The sandbox's control API (`/_sandbox`), relative to the workspace root:
/// linted beside the API's spec, and the source of the sandbox's control
/// read model.
pub const CONTROL_SPEC_PATH: &str = "openapi/sandbox-control.yaml";
