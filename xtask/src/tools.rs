//! External spec tools (npm and pip), installed on first use under
//! `target/tools/` at pinned versions and reused while the pins match.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use anyhow::{bail, Context, Result};

use crate::npm_tools;

/// pip packages, pinned.
pub const PIP_PACKAGES: &[&str] = &[
    "openapi-spec-validator==0.9.0",
    "openapi-python-client==0.29.1",
];

/// The `node_modules/.bin` directory with the npm tools installed.
pub fn node_bin(root: &Path) -> Result<PathBuf> {
    let prefix = npm_tools::prefix(root);
    if !npm_tools::is_current(&prefix) {
        println!(
            "tools: installing {} into {}",
            npm_tools::packages().join(" "),
            prefix.display()
        );
        let mut cmd = npm_tools::install_command(&prefix)
            .with_context(|| format!("creating {}", prefix.display()))?;
        run_checked(&mut cmd, "npm install (is node/npm installed?)")?;
        npm_tools::mark_current(&prefix)
            .with_context(|| format!("writing the stamp in {}", prefix.display()))?;
    }
    Ok(prefix.join("node_modules/.bin"))
}

/// The `node_modules` directory of the npm tools (installed by [`node_bin`]).
pub fn node_modules(root: &Path) -> PathBuf {
    npm_tools::prefix(root).join("node_modules")
}

/// The `bin` directory of a venv with the pip tools installed.
pub fn venv_bin(root: &Path) -> Result<PathBuf> {
    pip_venv(root, "venv", PIP_PACKAGES)
}

/// The `bin` directory of the venv `target/tools/<name>` with `packages`
/// installed (pinned), created or brought up to date first. Tools whose
/// dependencies could clash get a venv of their own.
pub fn pip_venv(root: &Path, name: &str, packages: &[&str]) -> Result<PathBuf> {
    let venv = root.join("target/tools").join(name);
    let stamp = venv.join("installed.stamp");
    let want = packages.join("\n");
    let bin = venv.join("bin");
    if !stamp_matches(&stamp, &want) {
        println!(
            "tools: installing {} into {}",
            packages.join(" "),
            venv.display()
        );
        if !bin.join("python").exists() {
            let mut cmd = Command::new("python3");
            cmd.arg("-m").arg("venv").arg(&venv);
            run_checked(&mut cmd, "python3 -m venv (is python3-venv installed?)")?;
        }
        let mut cmd = Command::new(bin.join("python"));
        cmd.args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
        ])
        .args(packages);
        run_checked(&mut cmd, "pip install")?;
        std::fs::write(&stamp, &want).with_context(|| format!("writing {}", stamp.display()))?;
    }
    Ok(bin)
}

fn stamp_matches(stamp: &Path, want: &str) -> bool {
    std::fs::read_to_string(stamp).is_ok_and(|have| have == want)
}

/// Runs a command with inherited output; fails if it cannot start or exits non-zero.
pub fn run_checked(cmd: &mut Command, what: &str) -> Result<()> {
    let status = cmd
        .status()
        .with_context(|| format!("{what}: cannot run {:?}", cmd.get_program()))?;
    if !status.success() {
        bail!("{what} failed ({status})");
    }
    Ok(())
}

/// Runs a command capturing its output, echoes the output, and returns it.
pub fn run_captured(cmd: &mut Command, what: &str) -> Result<Output> {
    let output = cmd
        .output()
        .with_context(|| format!("{what}: cannot run {:?}", cmd.get_program()))?;
    print!("{}", String::from_utf8_lossy(&output.stdout));
    eprint!("{}", String::from_utf8_lossy(&output.stderr));
    Ok(output)
}

/// Text of both output streams.
pub fn output_text(output: &Output) -> String {
    format!(
        "{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}
