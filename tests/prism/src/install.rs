//! Prism, installed on first use at the version pinned in
//! `xtask/npm-packages.txt`, the list `cargo xtask` installs from too.
//!
//! Both install the whole list into `target/tools/node` and write the same
//! stamp (the pins joined by newlines), so a machine that ran either one has
//! the tools of both; a changed pin reinstalls. The test threads of one
//! binary share one installation ([`prism_bin`] installs at most once).
//! When npm is missing or the install fails, [`prism_bin`] panics with the
//! reason: the tests never skip in silence.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The pins, one `name@version` a line (`#` starts a comment).
const PINS: &str = include_str!("../../../xtask/npm-packages.txt");

/// The npm package of Prism's command line.
const PRISM_PACKAGE: &str = "@stoplight/prism-cli";

/// The workspace root (two levels above this crate's manifest).
pub fn workspace_root() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest
        .ancestors()
        .nth(2)
        .unwrap_or_else(|| panic!("{} has no grandparent", manifest.display()))
        .to_path_buf()
}

/// The pinned npm packages, in the file's order.
pub fn npm_packages() -> Vec<&'static str> {
    PINS.lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .collect()
}

/// The pinned Prism version (`5.14.2`).
pub fn prism_version() -> &'static str {
    npm_packages()
        .into_iter()
        .find_map(|pin| pin.strip_prefix(PRISM_PACKAGE)?.strip_prefix('@'))
        .unwrap_or_else(|| panic!("xtask/npm-packages.txt pins no {PRISM_PACKAGE}"))
}

/// The `prism` executable, installed first when the pins changed or it is
/// missing. Panics with the reason when it cannot be installed.
pub fn prism_bin() -> &'static Path {
    static BIN: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    match BIN.get_or_init(|| install(&workspace_root())) {
        Ok(bin) => bin,
        Err(reason) => panic!("Prism {} is not available: {reason}", prism_version()),
    }
}

fn install(root: &Path) -> Result<PathBuf, String> {
    let prefix = root.join("target/tools/node");
    let stamp = prefix.join("installed.stamp");
    let bin = prefix.join("node_modules/.bin/prism");
    let packages = npm_packages();
    let want = packages.join("\n");
    let current = std::fs::read_to_string(&stamp).is_ok_and(|have| have == want);
    if current && installed_version(&prefix).as_deref() == Some(prism_version()) && bin.exists() {
        return Ok(bin);
    }
    eprintln!(
        "prism tests: installing {} into {}",
        packages.join(" "),
        prefix.display()
    );
    std::fs::create_dir_all(&prefix)
        .map_err(|error| format!("creating {}: {error}", prefix.display()))?;
    // The same command as `xtask/src/tools.rs` (node_bin).
    let output = Command::new("npm")
        .arg("install")
        .arg("--prefix")
        .arg(&prefix)
        .args([
            "--no-audit",
            "--no-fund",
            "--loglevel=error",
            "--save-exact",
        ])
        .args(&packages)
        .output()
        .map_err(|error| format!("cannot run npm (is Node.js with npm installed?): {error}"))?;
    if !output.status.success() {
        return Err(format!(
            "npm install failed ({}):\n{}{}",
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    let version = installed_version(&prefix);
    if version.as_deref() != Some(prism_version()) || !bin.exists() {
        return Err(format!(
            "after npm install, {} is {version:?} and {} {}",
            PRISM_PACKAGE,
            bin.display(),
            if bin.exists() { "exists" } else { "is missing" }
        ));
    }
    std::fs::write(&stamp, &want)
        .map_err(|error| format!("writing {}: {error}", stamp.display()))?;
    Ok(bin)
}

/// The version in the installed `package.json` of Prism's command line.
fn installed_version(prefix: &Path) -> Option<String> {
    let manifest = prefix
        .join("node_modules")
        .join(PRISM_PACKAGE)
        .join("package.json");
    let text = std::fs::read_to_string(manifest).ok()?;
    let json: serde_json::Value = serde_json::from_str(&text).ok()?;
    json["version"].as_str().map(str::to_owned)
}
