//! `cargo xtask msrv`: the declared minimum Rust version holds for what the
//! workspace ships, in two steps.
//!
//! 1. Every package that the published crates (the SDK, core, the generated
//!    client, the sandbox, the CLI, the test kit and the ledger) depend on, as locked, declares a
//!    `rust-version` no newer than the workspace's (a package that declares
//!    none is taken at its word). This names the culprit when a dependency
//!    update raises the floor.
//! 2. The shipped crates are compiled (`cargo check`) by that exact
//!    toolchain, installed with rustup on first use (`--profile minimal`,
//!    kept by rustup afterwards), with the features the rest of CI builds:
//!    the defaults (rustls, the ledger's SQLite), the SDK's `axum` receiver
//!    and `schemars` impls, and the ledger's `postgres`. `native-tls` is
//!    left out: it only swaps the TLS crate, and checking it would need
//!    OpenSSL's headers, which nothing else in CI needs. A check runs every
//!    compiler pass that can refuse newer syntax or library items; code
//!    generation does not depend on the language version.

use std::collections::{BTreeSet, HashMap};
use std::path::Path;
use std::process::Command;

use anyhow::{bail, Context, Result};
use serde_json::Value;

/// The crates whose dependency graphs are checked.
const SHIPPED: [&str; 7] = [
    "crossborder",
    "crossborder-core",
    "crossborder-api",
    "crossborder-sandbox",
    "crossborder-cli",
    "crossborder-testkit",
    "crossborder-ledger",
];

/// The features checked: the SDK's receiver, the `JsonSchema` impls (the
/// SDK's `schemars` turns on core's and the generated client's) and the
/// ledger's PostgreSQL backend (SQLite is its default).
const FEATURES: &str = "crossborder/axum crossborder/schemars crossborder-ledger/postgres";

pub fn run(root: &Path) -> Result<()> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .current_dir(root)
        .args(["metadata", "--format-version", "1", "--locked"])
        .output()
        .context("running cargo metadata")?;
    if !output.status.success() {
        bail!(
            "cargo metadata failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    let metadata: Value =
        serde_json::from_slice(&output.stdout).context("parsing cargo metadata")?;
    let packages: HashMap<&str, &Value> = metadata["packages"]
        .as_array()
        .context("no packages")?
        .iter()
        .filter_map(|p| Some((p["id"].as_str()?, p)))
        .collect();
    let nodes: HashMap<&str, &Value> = metadata["resolve"]["nodes"]
        .as_array()
        .context("no resolve graph")?
        .iter()
        .filter_map(|n| Some((n["id"].as_str()?, n)))
        .collect();
    let declared = |id: &str| -> Option<Vec<u64>> {
        let text = packages.get(id)?["rust_version"].as_str()?;
        // `1.88` and `1.88.0` are the same version.
        let mut parts: Vec<u64> = text
            .split('.')
            .filter_map(|part| part.parse().ok())
            .collect();
        parts.resize(3, 0);
        Some(parts)
    };

    let roots: Vec<&str> = packages
        .iter()
        .filter(|(_, p)| SHIPPED.contains(&p["name"].as_str().unwrap_or_default()))
        .map(|(id, _)| *id)
        .collect();
    if roots.len() != SHIPPED.len() {
        bail!("expected the packages {SHIPPED:?} in the workspace");
    }
    let msrv = declared(roots[0]).context("the workspace declares no rust-version")?;

    // Normal and build dependencies only: dev-dependencies are not shipped.
    let mut seen = BTreeSet::new();
    let mut stack = roots.clone();
    while let Some(id) = stack.pop() {
        if !seen.insert(id) {
            continue;
        }
        for dep in nodes
            .get(id)
            .and_then(|n| n["deps"].as_array())
            .into_iter()
            .flatten()
        {
            let shipped = dep["dep_kinds"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|kind| matches!(kind["kind"].as_str(), None | Some("build")));
            if let (true, Some(pkg)) = (shipped, dep["pkg"].as_str()) {
                stack.push(pkg);
            }
        }
    }
    let newer: Vec<String> = seen
        .iter()
        .filter_map(|id| {
            let version = declared(id)?;
            (version > msrv).then(|| {
                let p = packages[id];
                format!(
                    "{} {} needs Rust {}",
                    p["name"].as_str().unwrap_or("?"),
                    p["version"].as_str().unwrap_or("?"),
                    p["rust_version"].as_str().unwrap_or("?")
                )
            })
        })
        .collect();
    let msrv_text = msrv
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(".");
    if !newer.is_empty() {
        bail!(
            "the workspace declares rust-version {msrv_text}, but:\n  {}\n\
             pin an older version (`cargo update -p NAME --precise VERSION`) or raise rust-version",
            newer.join("\n  ")
        );
    }
    println!(
        "msrv: {} packages shipped with the workspace's crates all support Rust {msrv_text}",
        seen.len()
    );
    check_with_toolchain(root, &msrv_text)
}

/// Compiles the shipped crates (default features and the SDK's `axum`) on
/// toolchain `version`, installing it first when rustup does not have it.
fn check_with_toolchain(root: &Path, version: &str) -> Result<()> {
    let installed = Command::new("rustup")
        .args(["run", version, "rustc", "--version"])
        .output()
        .context("running rustup (the MSRV check needs rustup)")?;
    if !installed.status.success() {
        println!("msrv: installing Rust {version} with rustup (minimal profile)");
        let status = Command::new("rustup")
            .args(["toolchain", "install", version, "--profile", "minimal"])
            .status()
            .context("running rustup toolchain install")?;
        if !status.success() {
            bail!("rustup could not install Rust {version} ({status})");
        }
    }
    let mut check = Command::new("rustup");
    check
        .current_dir(root)
        .args([
            "run",
            version,
            "cargo",
            "check",
            "--locked",
            "--features",
            FEATURES,
        ])
        .args(SHIPPED.iter().flat_map(|name| ["-p", name]))
        // The outer `cargo xtask` sets these for its own toolchain; the
        // inner cargo must pick its own rustc.
        .env_remove("RUSTC")
        .env_remove("RUSTDOC")
        .env_remove("CARGO");
    println!(
        "msrv: cargo +{version} check --locked --features '{FEATURES}' -p {}",
        SHIPPED.join(" -p ")
    );
    let status = check.status().context("running cargo check")?;
    if !status.success() {
        bail!("the shipped crates do not compile with Rust {version}, the declared rust-version ({status})");
    }
    println!("msrv: the shipped crates compile with Rust {version}");
    Ok(())
}
