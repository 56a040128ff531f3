//! `cargo xtask schemathesis [-- extra schemathesis arguments]`: every
//! schemathesis check, positive and negative data, against the sandbox,
//! from the hand-written spec. Every exclusion is explained in
//! `tests/schemathesis/README.md`.
//!
//! Environment: `SCHEMATHESIS_MAX_EXAMPLES` (examples per operation,
//! default 50), `SCHEMATHESIS_SEED` (default 20261121),
//! `SCHEMATHESIS_WORKERS` (default 1: with two, CPython 3.11.7 crashes
//! inside schemathesis).

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use anyhow::{bail, Context, Result};

use crate::process::{cargo_build, free_loopback_addr, Profile, ServerGuard};
use crate::{tools, SPEC_PATH};

/// Pinned, in a venv of its own (`target/tools/schemathesis-venv`).
const SCHEMATHESIS: &str = "schemathesis==4.32.5";

/// The staging key schemathesis sends: the sandbox is started with it
/// (`--key`), a business of its own.
const API_KEY: &str = "test_schemathesis";

pub fn run(root: &Path, extra: &[String]) -> Result<()> {
    let bin = tools::pip_venv(root, "schemathesis-venv", &[SCHEMATHESIS])?;
    let sandbox = cargo_build(root, "crossborder-sandbox", Profile::Dev)?;
    let addr = free_loopback_addr()?;
    let report_dir = root.join("target/schemathesis-report");
    std::fs::create_dir_all(&report_dir)
        .with_context(|| format!("creating {}", report_dir.display()))?;
    let log = report_dir.join("sandbox.log");
    let mut server = Command::new(&sandbox);
    server
        .current_dir(root)
        .args(["--host", "127.0.0.1", "--port"])
        .arg(addr.port().to_string())
        .args(["--key", API_KEY]);
    let mut guard = ServerGuard::spawn("crossborder-sandbox", server, addr, &log)?;
    guard.wait_ready("/v1/api/balance/NGN", Duration::from_secs(30), &log)?;
    let base_url = format!("http://{addr}/v1");
    println!("==> sandbox at {base_url} (pid {})", guard.pid());

    let env = |name: &str, default: &str| std::env::var(name).unwrap_or_else(|_| default.into());
    let mut st = Command::new(bin.join("schemathesis"));
    st.current_dir(root)
        .args(["run", SPEC_PATH, "--url", &base_url])
        .args(["--header", &format!("x-api-key: {API_KEY}")])
        .args([
            "--checks",
            "all",
            "--exclude-checks",
            "positive_data_acceptance",
        ])
        .args(["--mode", "all"])
        .args(["--max-examples", &env("SCHEMATHESIS_MAX_EXAMPLES", "50")])
        .args(["--seed", &env("SCHEMATHESIS_SEED", "20261121")])
        .args(["--workers", &env("SCHEMATHESIS_WORKERS", "1")])
        .args(["--request-timeout", "10"])
        .args(["--report", "junit", "--report-dir"])
        .arg(&report_dir)
        .args(extra);
    let status = st.status().context("running schemathesis from its venv")?;
    guard.stop();
    println!(
        "schemathesis exited with {status} (report: {})",
        report_dir.display()
    );
    if !status.success() {
        bail!("schemathesis found failures ({status})");
    }
    Ok(())
}
