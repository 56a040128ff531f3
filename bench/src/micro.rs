//! Micro-benchmarks: criterion benchmarks in the crates that own the code,
//! run by this tool and read back as one figure each (the median
//! time of one call, in nanoseconds).
//!
//! Each is run with `cargo bench -p <package> --bench <bench>` and
//! `CRITERION_HOME` pointed at `target/criterion` (`target/criterion-dev`
//! for unoptimised runs), so the figure is read
//! from a known place (`<id>/new/estimates.json`, `median.point_estimate`)
//! whatever the current directory of the benchmark process.

use std::path::Path;
use std::process::{Command, Stdio};

use anyhow::{bail, Context, Result};
use serde_json::Value;

/// One criterion benchmark and its goal.
pub(crate) struct Micro {
    /// The figure's name in the report.
    pub name: &'static str,
    pub package: &'static str,
    pub bench: &'static str,
    /// The criterion benchmark id (the name given to `bench_function`).
    pub id: &'static str,
    /// What is measured, for the report.
    pub what: &'static str,
    /// The median must be below this many nanoseconds.
    pub goal_ns: f64,
}

pub(crate) const MICROS: &[Micro] = &[
    Micro {
        name: "payout_validate_ns",
        package: "crossborder-core",
        bench: "payout_validate",
        id: "payout_validate",
        what: "crossborder_core::payout::validate_payout on a full NGN to GBP payout (IBAN, sort code, BIC)",
        goal_ns: 1_000.0,
    },
    Micro {
        name: "webhook_parse_ns",
        package: "crossborder",
        bench: "webhook_parse",
        id: "webhook_parse/typical",
        what: "crossborder::webhook::WebhookEvent::parse and classify on the sandbox's partial-payment event",
        goal_ns: 5_000.0,
    },
];

/// A measured micro-benchmark.
pub(crate) struct MicroResult {
    pub micro: &'static Micro,
    pub median_ns: f64,
}

/// Runs every micro-benchmark; `measurement_secs` is criterion's
/// measurement time per benchmark.
/// measurement time per benchmark; without `release` the benchmarks are
/// built unoptimised (`--profile dev`: the harness is checked, the figures
/// mean nothing).
pub(crate) fn run_all(
    root: &Path,
    measurement_secs: u64,
    release: bool,
) -> Result<Vec<MicroResult>> {
    MICROS
        .iter()
        .map(|micro| run(root, micro, measurement_secs, release))
        .collect()
}

fn run(
    root: &Path,
    micro: &'static Micro,
    measurement_secs: u64,
    release: bool,
) -> Result<MicroResult> {
    // Debug runs keep their own history, so criterion never compares a
    // release run against a debug one.
    let home = root.join(if release {
        "target/criterion"
    } else {
        "target/criterion-dev"
    });
    println!(
        "==> cargo bench -p {} --bench {}",
        micro.package, micro.bench
    );
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(cargo)
        .current_dir(root)
        .env("CRITERION_HOME", &home)
        .args(["bench", "-p", micro.package, "--bench", micro.bench])
        .args(if release {
            &[][..]
        } else {
            &["--profile", "dev"][..]
        })
        .arg("--")
        .args(["--noplot", "--warm-up-time", "1", "--measurement-time"])
        .arg(measurement_secs.to_string())
        .arg(micro.id)
        .stdin(Stdio::null())
        .status()
        .context("running cargo bench")?;
    if !status.success() {
        bail!(
            "cargo bench -p {} --bench {} failed ({status})",
            micro.package,
            micro.bench
        );
    }
    let path = home.join(micro.id).join("new/estimates.json");
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let estimates: Value =
        serde_json::from_str(&text).with_context(|| format!("parsing {}", path.display()))?;
    let median_ns = estimates["median"]["point_estimate"]
        .as_f64()
        .with_context(|| format!("{} has no median.point_estimate", path.display()))?;
    Ok(MicroResult { micro, median_ns })
}
