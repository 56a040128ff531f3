//! `cargo xtask package-sandbox [--release] [--target TRIPLE]`: the sandbox
//! for teams without a Rust toolchain, a Python wheel (maturin, `bindings =
//! "bin"`, `packaging/pypi/`) and npm packages (the launcher
//! `packaging/npm/crossborder-sandbox/` and the platform package
//! `@crossborder/sandbox-<os>-<cpu>`, the esbuild/biome pattern), written to
//! `target/packaging/`. `cargo xtask spec-reuse` builds them for this
//! machine from the debug binary it already built and installs them into
//! clean environments with no Rust toolchain on their `PATH`
//! ([`path_without_rust`], [`python_env`]).

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};

use crate::process::{cargo_build_for, Profile};
use crate::tools::{self, run_checked};

/// maturin, pinned (installed under `target/tools/maturin`).
pub const MATURIN: &str = "maturin==1.16.0";

const PYPI_DIR: &str = "packaging/pypi";
const NPM_LAUNCHER_DIR: &str = "packaging/npm/crossborder-sandbox";

/// The built files.
pub struct Built {
    pub wheel: PathBuf,
    /// The launcher's and the platform package's tarballs.
    pub npm: [PathBuf; 2],
}

/// The npm platform (`process.platform`, `process.arch`) of the target
/// `triple`, or of this machine.
pub fn npm_platform(triple: Option<&str>) -> Result<(&'static str, &'static str)> {
    let (arch, os) = match triple {
        None => (std::env::consts::ARCH, std::env::consts::OS),
        Some(triple) => {
            let arch = triple.split('-').next().unwrap_or(triple);
            let os = if triple.contains("-linux") {
                "linux"
            } else if triple.contains("-apple-darwin") {
                "macos"
            } else if triple.contains("-windows") {
                "windows"
            } else {
                bail!("no npm platform package for the target {triple}")
            };
            (arch, os)
        }
    };
    let os = match os {
        "linux" => "linux",
        "macos" => "darwin",
        "windows" => "win32",
        other => bail!("no npm platform package for the OS {other}"),
    };
    let cpu = match arch {
        "x86_64" => "x64",
        "aarch64" => "arm64",
        other => bail!("no npm platform package for the CPU {other}"),
    };
    Ok((os, cpu))
}

/// `cargo xtask package-sandbox`: builds the sandbox for `triple` (or this
/// machine) and both packages from it.
pub fn run(root: &Path, profile: Profile, triple: Option<&str>) -> Result<()> {
    let binary = cargo_build_for(root, "crossborder-sandbox", profile, triple)?;
    build(root, &binary, profile, triple)?;
    Ok(())
}

/// The workspace's version, which every package carries (xtask's own).
const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The launcher's `package.json`.
fn launcher_manifest(root: &Path) -> Result<serde_json::Value> {
    let path = root.join(NPM_LAUNCHER_DIR).join("package.json");
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    serde_json::from_str(&text).with_context(|| format!("parsing {}", path.display()))
}

/// Builds the wheel and both npm packages into `target/packaging/` for
/// `triple` (or this machine), with `binary`, built with `profile` for it:
/// maturin builds the same profile and target, which cargo finds up to
/// date, so nothing is compiled twice.
pub fn build(root: &Path, binary: &Path, profile: Profile, triple: Option<&str>) -> Result<Built> {
    let version = VERSION.to_string();
    let out = root.join("target/packaging");
    let _ = std::fs::remove_dir_all(&out);
    let pypi_out = out.join("pypi");
    let npm_out = out.join("npm");
    std::fs::create_dir_all(&npm_out).with_context(|| format!("creating {}", npm_out.display()))?;

    let maturin = tools::pip_venv(root, "maturin", &[MATURIN])?;
    let mut cmd = Command::new(maturin.join("maturin"));
    cmd.current_dir(root.join(PYPI_DIR)).arg("build");
    match profile {
        // A wheel for this machine's tests: its platform tag is plain `linux`.
        Profile::Dev => cmd.args(["--profile", "dev", "--auditwheel", "skip"]),
        Profile::Release => cmd.arg("--release"),
    };
    if let Some(triple) = triple {
        cmd.args(["--target", triple]);
    }
    cmd.arg("--out").arg(&pypi_out);
    println!("==> maturin build ({PYPI_DIR}, bindings = \"bin\")");
    run_checked(&mut cmd, "maturin build")?;
    let wheel = only_file(&pypi_out, ".whl")?;

    let launcher = launcher_manifest(root)?;
    if launcher["version"] != version.as_str() {
        bail!(
            "{NPM_LAUNCHER_DIR}/package.json has version {}, the workspace {version}",
            launcher["version"]
        );
    }
    let (os, cpu) = npm_platform(triple)?;
    let name = format!("@crossborder/sandbox-{os}-{cpu}");
    if launcher["optionalDependencies"][&name] != version.as_str() {
        bail!("{NPM_LAUNCHER_DIR}/package.json lacks the optional dependency {name}@{version}");
    }
    let platform_dir = out.join(format!("npm-{os}-{cpu}"));
    let bin_dir = platform_dir.join("bin");
    std::fs::create_dir_all(&bin_dir).with_context(|| format!("creating {}", bin_dir.display()))?;
    let exe = if os == "win32" {
        "crossborder-sandbox.exe"
    } else {
        "crossborder-sandbox"
    };
    std::fs::copy(binary, bin_dir.join(exe))
        .with_context(|| format!("copying {}", binary.display()))?;
    let manifest = platform_manifest(&name, &version, os, cpu, &launcher);
    std::fs::write(
        platform_dir.join("package.json"),
        serde_json::to_string_pretty(&manifest).context("writing package.json")?,
    )
    .context("writing the platform package.json")?;
    let platform_tgz = npm_pack(&platform_dir, &npm_out)?;
    let launcher_tgz = npm_pack(&root.join(NPM_LAUNCHER_DIR), &npm_out)?;
    println!(
        "sandbox packages: {}, {}, {}",
        wheel.display(),
        launcher_tgz.display(),
        platform_tgz.display()
    );
    Ok(Built {
        wheel,
        npm: [launcher_tgz, platform_tgz],
    })
}

/// The `package.json` of a platform package: only installable where it
/// runs (`os`, `cpu`), holding `bin/crossborder-sandbox`.
pub fn platform_manifest(
    name: &str,
    version: &str,
    os: &str,
    cpu: &str,
    launcher: &serde_json::Value,
) -> serde_json::Value {
    serde_json::json!({
        "name": name,
        "version": version,
        "description": format!("The crossborder-sandbox binary for {os}-{cpu}; install crossborder-sandbox instead."),
        "license": launcher["license"],
        "repository": launcher["repository"],
        "os": [os],
        "cpu": [cpu],
        "files": ["bin/"],
        "preferUnplugged": true,
    })
}

/// `npm pack` of `dir` into `out`; the tarball's path.
fn npm_pack(dir: &Path, out: &Path) -> Result<PathBuf> {
    // Its --json listing is read here, not echoed.
    let packed = Command::new("npm")
        .arg("pack")
        .arg(dir)
        .arg("--pack-destination")
        .arg(out)
        .args(["--json", "--loglevel=error"])
        .stderr(std::process::Stdio::inherit())
        .output()
        .context("npm pack: cannot run npm")?;
    if !packed.status.success() {
        bail!("npm pack {} failed ({})", dir.display(), packed.status);
    }
    let listing: serde_json::Value =
        serde_json::from_slice(&packed.stdout).context("reading npm pack --json")?;
    let file = listing[0]["filename"]
        .as_str()
        .context("npm pack --json named no file")?;
    Ok(out.join(file))
}

fn only_file(dir: &Path, suffix: &str) -> Result<PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
        let path = entry?.path();
        if path.to_string_lossy().ends_with(suffix) {
            found.push(path);
        }
    }
    match <[PathBuf; 1]>::try_from(found) {
        Ok([one]) => Ok(one),
        Err(found) => bail!(
            "expected one {suffix} in {}, found {found:?}",
            dir.display()
        ),
    }
}

/// `PATH` without any directory holding `cargo` or `rustc`, checked to
/// still find `node`, `npm` and `python3`: what a team without Rust has.
pub fn path_without_rust() -> Result<std::ffi::OsString> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let kept: Vec<PathBuf> = std::env::split_paths(&path)
        .filter(|dir| {
            !["cargo", "rustc", "rustup"]
                .iter()
                .any(|t| dir.join(t).exists())
        })
        .collect();
    for tool in ["node", "npm", "python3"] {
        if !kept.iter().any(|dir| dir.join(tool).exists()) {
            bail!("{tool} is only on PATH next to the Rust toolchain; spec-reuse cannot hide Rust");
        }
    }
    std::env::join_paths(kept).context("building PATH")
}

/// A command run as a team without Rust would: `PATH` without the Rust
/// toolchain and none of cargo's or rustup's variables.
pub fn without_rust(program: impl AsRef<std::ffi::OsStr>, path: &std::ffi::OsStr) -> Command {
    let mut cmd = Command::new(program);
    for (name, _) in std::env::vars_os() {
        let name = name.to_string_lossy();
        if name.starts_with("CARGO") || name.starts_with("RUSTUP") || name.starts_with("RUSTC") {
            cmd.env_remove(&*name);
        }
    }
    cmd.env("PATH", path);
    cmd
}

/// A fresh virtualenv at `dir` with the wheel and the generated client's
/// run-time dependencies (at the versions of the tools venv, `tools_venv`,
/// where openapi-python-client brought them).
pub fn python_env(
    dir: &Path,
    wheel: &Path,
    tools_venv: &Path,
    path: &std::ffi::OsStr,
) -> Result<PathBuf> {
    let _ = std::fs::remove_dir_all(dir);
    run_checked(
        without_rust("python3", path).arg("-m").arg("venv").arg(dir),
        "python3 -m venv",
    )?;
    let frozen = Command::new(tools_venv.join("python"))
        .args(["-m", "pip", "freeze", "--quiet"])
        .output()
        .context("pip freeze")?;
    // The generated client's dependencies (its pyproject.toml).
    let wanted = ["httpx", "attrs"];
    let pins: Vec<String> = String::from_utf8_lossy(&frozen.stdout)
        .lines()
        .filter(|line| {
            wanted
                .iter()
                .any(|name| line.to_ascii_lowercase().starts_with(&format!("{name}==")))
        })
        .map(String::from)
        .collect();
    if pins.len() != wanted.len() {
        bail!("the tools venv lacks one of {wanted:?} (has {pins:?})");
    }
    let bin = dir.join("bin");
    println!(
        "==> pip install {} {} (a clean venv, no Rust on PATH)",
        wheel.display(),
        pins.join(" ")
    );
    run_checked(
        without_rust(bin.join("python"), path)
            .args([
                "-m",
                "pip",
                "install",
                "--quiet",
                "--disable-pip-version-check",
            ])
            .arg(wheel)
            .args(&pins),
        "pip install (the wheel)",
    )?;
    Ok(bin)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The targets a release builds the packages for (examples/README.md).
    const RELEASE_TARGETS: &[&str] = &[
        "x86_64-unknown-linux-gnu",
        "aarch64-unknown-linux-gnu",
        "x86_64-apple-darwin",
        "aarch64-apple-darwin",
        "x86_64-pc-windows-msvc",
    ];

    fn root() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
    }

    /// The launcher depends on exactly the release targets' platform
    /// packages, at the workspace's version, and finds each by the same name.
    #[test]
    fn the_npm_launcher_names_every_release_platform_package() {
        let launcher = launcher_manifest(&root()).unwrap();
        assert_eq!(launcher["version"], VERSION);
        let index =
            std::fs::read_to_string(root().join(NPM_LAUNCHER_DIR).join("index.js")).unwrap();
        let mut names = Vec::new();
        for triple in RELEASE_TARGETS {
            let (os, cpu) = npm_platform(Some(triple)).unwrap();
            let name = format!("@crossborder/sandbox-{os}-{cpu}");
            assert!(
                index.contains(&format!("\"{os}-{cpu}\": \"{name}\"")),
                "index.js does not map {os}-{cpu} to {name}"
            );
            names.push(name);
        }
        names.sort();
        let deps = launcher["optionalDependencies"].as_object().unwrap();
        let listed: Vec<&String> = deps.keys().collect();
        assert_eq!(listed, names.iter().collect::<Vec<_>>());
        assert!(deps.values().all(|v| v == VERSION), "{deps:?}");
    }

    #[test]
    fn npm_platforms_are_node_s_names() {
        assert_eq!(
            npm_platform(Some("x86_64-unknown-linux-gnu")).unwrap(),
            ("linux", "x64")
        );
        assert_eq!(
            npm_platform(Some("aarch64-apple-darwin")).unwrap(),
            ("darwin", "arm64")
        );
        assert_eq!(
            npm_platform(Some("x86_64-pc-windows-msvc")).unwrap(),
            ("win32", "x64")
        );
        assert_eq!(
            format!(
                "{:#}",
                npm_platform(Some("riscv64gc-unknown-linux-gnu")).unwrap_err()
            ),
            "no npm platform package for the CPU riscv64gc"
        );
    }

    /// A platform package installs only where its binary runs.
    #[test]
    fn a_platform_package_is_limited_to_its_os_and_cpu() {
        let launcher = launcher_manifest(&root()).unwrap();
        let manifest = platform_manifest(
            "@crossborder/sandbox-darwin-arm64",
            VERSION,
            "darwin",
            "arm64",
            &launcher,
        );
        assert_eq!(manifest["os"], serde_json::json!(["darwin"]));
        assert_eq!(manifest["cpu"], serde_json::json!(["arm64"]));
        assert_eq!(manifest["files"], serde_json::json!(["bin/"]));
        assert_eq!(manifest["license"], launcher["license"]);
    }
}
