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
use std::sync::OnceLock;

/// The pin list, the install command and the stamp, shared with
/// `cargo xtask` (one file, compiled into both).
#[path = "../../../../../xtask/src/npm_tools.rs"]
mod npm_tools;

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

/// The pinned Prism version (`5.14.2`).
pub fn prism_version() -> &'static str {
    npm_tools::packages()
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
    let prefix = npm_tools::prefix(root);
    let bin = prefix.join("node_modules/.bin/prism");
    let installed = || installed_version(&prefix).as_deref() == Some(prism_version());
    if npm_tools::is_current(&prefix) && installed() && bin.exists() {
        return Ok(bin);
    }
    eprintln!(
        "prism tests: installing {} into {}",
        npm_tools::packages().join(" "),
        prefix.display()
    );
    let output = npm_tools::install_command(&prefix)
        .map_err(|error| format!("creating {}: {error}", prefix.display()))?
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
    if !installed() || !bin.exists() {
        return Err(format!(
            "after npm install, {} is {:?} and {} {}",
            PRISM_PACKAGE,
            installed_version(&prefix),
            bin.display(),
            if bin.exists() { "exists" } else { "is missing" }
        ));
    }
    npm_tools::mark_current(&prefix)
        .map_err(|error| format!("writing the stamp in {}: {error}", prefix.display()))?;
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
