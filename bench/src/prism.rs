//! `sandbox_vs_prism_16`, `sandbox_vs_prism_64`: the sandbox against a
//! Prism mock of the spec, installed with the pinned npm tools.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{bail, Context, Result};

use super::figure::Figure;
use super::npm_tools;
use super::rounds::{alternate, pick_path};
use super::servers::{throughput_ratio, Servers};
use super::{Options, BALANCE_PATH, BALANCE_PATH_NO_PREFIX, SPEC_PATH};
use crate::process::ServerGuard;

impl Servers {
    /// The sandbox against a Prism mock of the spec at 16 and 64 connections.
    pub(super) async fn sandbox_vs_prism(
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
}

/// The `node_modules/.bin` directory with the pinned npm tools (Prism),
/// installed first if they are not current (as xtask installs them).
pub(super) fn node_bin(root: &Path) -> Result<PathBuf> {
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
