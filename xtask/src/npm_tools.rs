//! The pinned npm tools under `target/tools/node`: the pin list, the one
//! `npm install` command and the stamp that says an install is current.
//! Shared by `cargo xtask` (`tools.rs`) and the Prism tests
//! (`tests/contract/tests/it/prism/install.rs`, through `#[path]`), so both install the
//! same set the same way and each finds the other's install current.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The pins, one `name@version` a line (`#` starts a comment).
const PINS: &str = include_str!("../npm-packages.txt");

/// The pinned npm packages, in the file's order.
pub fn packages() -> Vec<&'static str> {
    PINS.lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .collect()
}

/// Where they are installed: `target/tools/node` of the workspace at `root`.
pub fn prefix(root: &Path) -> PathBuf {
    root.join("target/tools/node")
}

fn stamp(prefix: &Path) -> PathBuf {
    prefix.join("installed.stamp")
}

/// Whether the install at `prefix` is of the current pins.
pub fn is_current(prefix: &Path) -> bool {
    std::fs::read_to_string(stamp(prefix)).is_ok_and(|have| have == packages().join("\n"))
}

/// `npm install` of every pinned package into `prefix` (created first).
pub fn install_command(prefix: &Path) -> std::io::Result<Command> {
    std::fs::create_dir_all(prefix)?;
    let mut command = Command::new("npm");
    command
        .arg("install")
        .arg("--prefix")
        .arg(prefix)
        .args([
            "--no-audit",
            "--no-fund",
            "--loglevel=error",
            "--save-exact",
        ])
        .args(packages());
    Ok(command)
}

/// Records that the install at `prefix` is of the current pins.
pub fn mark_current(prefix: &Path) -> std::io::Result<()> {
    std::fs::write(stamp(prefix), packages().join("\n"))
}
