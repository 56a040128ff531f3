//! The `codegen_ms` figure.

use std::path::Path;
use std::process::{Command, Stdio};

use anyhow::{bail, Context, Result};

use super::{Figure, Options};

/// The median of three runs of `xtask codegen --check` with the `xtask` binary
/// (already built, as the figure asks).
pub(super) fn codegen_ms(root: &Path, xtask: &Path, options: &Options) -> Result<Figure> {
    let runs = if options.quick { 1 } else { 3 };
    let mut times = Vec::new();
    for _ in 0..runs {
        let started = std::time::Instant::now();
        let status = Command::new(xtask)
            .current_dir(root)
            .args(["codegen", "--check"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .context("running xtask codegen --check")?;
        if !status.success() {
            bail!("xtask codegen --check failed ({status}): the generated code is stale");
        }
        times.push(started.elapsed().as_secs_f64() * 1000.0);
    }
    times.sort_by(f64::total_cmp);
    Ok(Figure {
        name: "codegen_ms",
        value: times[times.len() / 2],
        goal: 1000.0,
        below: true,
        unit: "ms",
        detail: format!("xtask codegen --check, median of {runs}"),
    })
}
