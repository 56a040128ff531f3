//! `cargo xtask msrv`: the declared minimum Rust version holds for what the
//! workspace ships. Every package that the published crates (the SDK, core,
//! the generated client, the sandbox and the CLI) depend on, as locked,
//! must declare a `rust-version` no newer than the workspace's (a package
//! that declares none is taken at its word). Uses of the standard library
//! newer than the declared version are caught by clippy's
//! `incompatible_msrv` lint in the clippy step; building with that exact
//! toolchain is not possible on machines that have only one.

use std::collections::{BTreeSet, HashMap};
use std::path::Path;
use std::process::Command;

use anyhow::{bail, Context, Result};
use serde_json::Value;

/// The crates whose dependency graphs are checked.
const SHIPPED: [&str; 5] = [
    "crossborder",
    "crossborder-core",
    "crossborder-api",
    "crossborder-sandbox",
    "crossborder-cli",
];

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
    Ok(())
}
