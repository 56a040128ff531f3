//! `downstream_build_vs_async_openai` and `ledger_build_vs_sdk`: how long
//! a new user's first `cargo build` takes. Three throwaway crates, one on
//! `crossborder` (default features), one on `crossborder-ledger` (default
//! features: SQLite) and `crossborder`, and one on `async-openai` 0.30,
//! each with `tokio` and a `main` that makes one call, are built in debug
//! from fresh target directories, their dependencies fetched beforehand
//! (so the network is not measured), in the order SDK, async-openai,
//! ledger, ledger, async-openai, SDK, so each pair's sides meet the same
//! drift. Their target directories are deleted after each build (disk),
//! the crates at the end. Measured only with `--only build`: six full
//! builds take minutes.
//!
//! Our crates reach the downstream crate as they reach a user: packaged
//! (`cargo package`, the working tree's code) and read from a registry-like
//! source (a `cargo vendor` directory that replaces crates.io, with the
//! packages added), as async-openai is. A path dependency would not do:
//! cargo compiles path dependencies incrementally, as it does a
//! workspace's own crates, and writing the incremental state makes the
//! first build of our three crates markedly slower (`RESULTS.md` gives the
//! `cargo build --timings` figures).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use anyhow::{bail, Context, Result};

use super::Figure;

/// The goal: our first build takes at most this share of theirs.
const GOAL: f64 = 0.7;

/// The goal: a first build on the ledger takes at most this multiple of
/// one on the SDK alone.
const LEDGER_GOAL: f64 = 1.3;

const OURS_MAIN: &str = r#"#[tokio::main]
async fn main() -> Result<(), crossborder::Error> {
    let client = crossborder::Client::from_env()?;
    let balance = client.wallet().balance(crossborder::Currency::Ngn).await?;
    println!("{balance}");
    Ok(())
}
"#;

const LEDGER_MAIN: &str = r#"#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let ledger = crossborder_ledger::Ledger::open("sqlite://payouts.db").await?;
    let client = crossborder::Client::from_env()?;
    let options = crossborder_ledger::DispatchOptions::default();
    let report = ledger.dispatcher(client, options).await?.send_pending(|_| {}).await?;
    println!("{report:?}");
    Ok(())
}
"#;

const THEIRS_MAIN: &str = r#"use async_openai::types::CreateCompletionRequestArgs;

#[tokio::main]
async fn main() -> Result<(), async_openai::error::OpenAIError> {
    let client = async_openai::Client::new();
    let request = CreateCompletionRequestArgs::default()
        .model("gpt-3.5-turbo-instruct")
        .prompt("hello")
        .build()?;
    let answer = client.completions().create(request).await?;
    println!("{:?}", answer.choices.first().map(|c| &c.text));
    Ok(())
}
"#;

/// The packages of this workspace a downstream crate on `crossborder`
/// compiles. `cargo package` also needs the crates their dev-dependencies
/// name with a version (the sandbox), packaged beside them.
const PACKAGED: &[&str] = &[
    "crossborder-core",
    "crossborder-api",
    "crossborder-sandbox",
    "crossborder",
    "crossborder-ledger",
];

/// One downstream crate.
struct Downstream {
    name: &'static str,
    dir: PathBuf,
}

impl Downstream {
    fn create(base: &Path, name: &'static str, dependency: &str, main: &str) -> Result<Downstream> {
        let dir = base.join(name);
        std::fs::create_dir_all(dir.join("src"))
            .with_context(|| format!("creating {}", dir.display()))?;
        let downstream = Downstream { name, dir };
        downstream.depend_on(dependency)?;
        std::fs::write(downstream.dir.join("src/main.rs"), main)?;
        Ok(downstream)
    }

    /// (Re)writes the manifest with `dependency` beside tokio.
    fn depend_on(&self, dependency: &str) -> Result<()> {
        let name = self.name;
        let manifest = format!(
            "[package]\nname = \"{name}\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
             [dependencies]\n{dependency}\ntokio = {{ version = \"1\", features = [\"macros\", \"rt-multi-thread\"] }}\n\n\
             # Not a member of the workspace around it.\n[workspace]\n"
        );
        std::fs::write(self.dir.join("Cargo.toml"), manifest)
            .with_context(|| format!("writing {}'s manifest", self.name))
    }

    /// Turns a crate on a path dependency into one on the same code as
    /// published: every registry dependency vendored, this workspace's
    /// packages (`cargo package` of `root`) added to the vendor directory,
    /// which replaces crates.io for this crate only.
    fn depend_on_packages(&self, root: &Path, dependency: &str) -> Result<()> {
        let packages = self.dir.join("packages");
        let mut package = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
        package
            .current_dir(root)
            .args([
                "package",
                "--no-verify",
                "--allow-dirty",
                "--offline",
                "--locked",
                "--quiet",
                "--target-dir",
            ])
            .arg(&packages);
        for name in PACKAGED {
            package.args(["-p", name]);
        }
        run_checked(&mut package, "cargo package")?;
        let vendor = self.dir.join("vendor");
        self.run(&[
            "vendor",
            "--offline",
            "--versioned-dirs",
            "--quiet",
            "vendor",
        ])?;
        for entry in std::fs::read_dir(packages.join("package"))? {
            let path = entry?.path();
            let Some(stem) = path
                .file_name()
                .and_then(|n| n.to_str())
                .and_then(|n| n.strip_suffix(".crate"))
            else {
                continue;
            };
            run_checked(
                Command::new("tar")
                    .arg("-xzf")
                    .arg(&path)
                    .arg("-C")
                    .arg(&vendor),
                "tar",
            )?;
            // A directory source checks the files listed here; the package
            // itself has no checksum (it is not in crates.io's index).
            std::fs::write(
                vendor.join(stem).join(".cargo-checksum.json"),
                r#"{"files":{},"package":null}"#,
            )?;
        }
        std::fs::create_dir_all(self.dir.join(".cargo"))?;
        std::fs::write(
            self.dir.join(".cargo/config.toml"),
            "[source.crates-io]\nreplace-with = \"vendored\"\n\n[source.vendored]\ndirectory = \"vendor\"\n",
        )?;
        self.depend_on(dependency)
    }

    fn cargo(&self, args: &[&str]) -> Command {
        let mut command = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
        command
            .current_dir(&self.dir)
            .args(args)
            // A user's plain `cargo build`: no wrapper or flags of this run.
            .env_remove("RUSTC_WRAPPER")
            .env_remove("RUSTFLAGS")
            .env_remove("CARGO_TARGET_DIR")
            .env_remove("CARGO_BUILD_TARGET_DIR")
            .env_remove("CARGO_INCREMENTAL")
            .env_remove("CARGO_ENCODED_RUSTFLAGS");
        command
    }

    fn run(&self, args: &[&str]) -> Result<String> {
        run_checked(
            &mut self.cargo(args),
            &format!("cargo {} for {}", args.join(" "), self.name),
        )
    }

    /// The packages of its tree (build dependencies included), each once.
    fn crates(&self) -> Result<usize> {
        let tree = self.run(&[
            "tree",
            "-e",
            "normal,build",
            "--prefix",
            "none",
            "--offline",
        ])?;
        let mut packages: Vec<&str> = tree
            .lines()
            .map(|line| line.trim_end_matches(" (*)").trim())
            .filter(|line| !line.is_empty())
            .collect();
        packages.sort_unstable();
        packages.dedup();
        // The crate itself is not a dependency.
        Ok(packages.len().saturating_sub(1))
    }

    /// One `cargo build` from an empty target directory, which is deleted
    /// afterwards.
    fn build(&self) -> Result<Build> {
        let target = self.dir.join("target");
        let _ = std::fs::remove_dir_all(&target);
        println!("==> cargo build ({})", self.name);
        let cpu_before = children_cpu_secs();
        let started = Instant::now();
        let result = self.run(&["build", "--offline", "--quiet"]);
        let secs = started.elapsed().as_secs_f64();
        let cpu_secs = children_cpu_secs()
            .zip(cpu_before)
            .map(|(after, before)| after - before);
        let _ = std::fs::remove_dir_all(&target);
        result?;
        match cpu_secs {
            Some(cpu) => println!("    {secs:.1} s ({cpu:.1} s of CPU)"),
            None => println!("    {secs:.1} s"),
        }
        Ok(Build { secs, cpu_secs })
    }
}

/// Wall and CPU seconds of one build.
struct Build {
    secs: f64,
    /// `None` where `/proc` does not say.
    cpu_secs: Option<f64>,
}

impl Build {
    fn plus(&self, other: &Build) -> Build {
        Build {
            secs: self.secs + other.secs,
            cpu_secs: self.cpu_secs.zip(other.cpu_secs).map(|(a, b)| a + b),
        }
    }
}

/// CPU seconds (user + system) used so far by the children this process
/// has waited for, theirs included (cargo waits for its rustc): Linux's
/// `/proc/self/stat` cutime and cstime, in ticks of 1/100 s (Linux's
/// `USER_HZ`). `None` without `/proc`.
fn children_cpu_secs() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the program's name, which is in parentheses and
    // may hold spaces; the first of them is field 3 (`state`).
    let fields: Vec<&str> = stat
        .get(stat.rfind(')')? + 1..)?
        .split_whitespace()
        .collect();
    let ticks = |field: usize| fields.get(field - 3)?.parse::<f64>().ok();
    Some((ticks(16)? + ticks(17)?) / 100.0)
}

/// Runs `command`; its standard output, or an error naming `what` with its
/// standard error.
fn run_checked(command: &mut Command, what: &str) -> Result<String> {
    let output = command
        .output()
        .with_context(|| format!("running {what}"))?;
    if !output.status.success() {
        bail!("{what} failed: {}", String::from_utf8_lossy(&output.stderr));
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// Builds each crate twice (SDK, async-openai, ledger, ledger,
/// async-openai, SDK) and reports our SDK's total over async-openai's, and
/// the ledger's over the SDK's.
pub(super) fn downstream_build(root: &Path) -> Result<Vec<Figure>> {
    let base = root.join("target/bench/downstream");
    let _ = std::fs::remove_dir_all(&base);
    let path = |name: &str| {
        format!(
            "{{ path = {:?} }}",
            root.join("crates").join(name).display().to_string()
        )
    };
    let version = env!("CARGO_PKG_VERSION");
    let ours = Downstream::create(
        &base,
        "on-crossborder",
        &format!("crossborder = {}", path("crossborder")),
        OURS_MAIN,
    )?;
    let ledger = Downstream::create(
        &base,
        "on-ledger",
        &format!(
            "crossborder = {}\ncrossborder-ledger = {}",
            path("crossborder"),
            path("crossborder-ledger")
        ),
        LEDGER_MAIN,
    )?;
    // The versions this workspace is tested with, where they apply.
    for crate_ in [&ours, &ledger] {
        std::fs::copy(root.join("Cargo.lock"), crate_.dir.join("Cargo.lock"))
            .context("copying Cargo.lock")?;
    }
    let theirs = Downstream::create(
        &base,
        "on-async-openai",
        "async-openai = \"0.30\"",
        THEIRS_MAIN,
    )?;
    let result = (|| {
        for crate_ in [&ours, &ledger, &theirs] {
            crate_.run(&["fetch", "--quiet"])?;
        }
        ours.depend_on_packages(root, &format!("crossborder = \"={version}\""))?;
        ledger.depend_on_packages(
            root,
            &format!("crossborder = \"={version}\"\ncrossborder-ledger = \"={version}\""),
        )?;
        let ours_first = ours.build()?;
        let theirs_first = theirs.build()?;
        let ledger_total = ledger.build()?.plus(&ledger.build()?);
        let theirs_total = theirs_first.plus(&theirs.build()?);
        let ours_total = ours_first.plus(&ours.build()?);
        let (ours_crates, theirs_crates, ledger_crates) =
            (ours.crates()?, theirs.crates()?, ledger.crates()?);
        Ok(vec![
            Figure {
                name: "downstream_build_vs_async_openai",
                value: ours_total.secs / theirs_total.secs,
                goal: GOAL,
                below: true,
                unit: "ratio",
                detail: format!(
                    "first `cargo build` (debug, fresh target, deps fetched) of a crate on crossborder (default features, packaged) + tokio: {:.1} s, {ours_crates} crates; on async-openai 0.30 + tokio: {:.1} s, {theirs_crates} crates; two builds each{}",
                    ours_total.secs / 2.0,
                    theirs_total.secs / 2.0,
                    cpu_detail(&ours_total, &theirs_total)
                ),
            },
            Figure {
                name: "ledger_build_vs_sdk",
                value: ledger_total.secs / ours_total.secs,
                goal: LEDGER_GOAL,
                below: true,
                unit: "ratio",
                detail: format!(
                    "first `cargo build` (debug, fresh target, deps fetched) of a crate on crossborder-ledger (default features: SQLite) + crossborder + tokio, packaged: {:.1} s, {ledger_crates} crates; on crossborder + tokio: {:.1} s, {ours_crates} crates; two builds each{}",
                    ledger_total.secs / 2.0,
                    ours_total.secs / 2.0,
                    cpu_detail(&ledger_total, &ours_total)
                ),
            },
        ])
    })();
    let _ = std::fs::remove_dir_all(&base);
    result
}

/// Each side's CPU time per build and their ratio: it moves less than wall
/// time when other work shares the machine, so it is shown beside a
/// figure, which stays the wall time a user waits.
fn cpu_detail(ours: &Build, theirs: &Build) -> String {
    match (ours.cpu_secs, theirs.cpu_secs) {
        (Some(ours), Some(theirs)) => format!(
            "; CPU (user + system) {:.1} s against {:.1} s per build, ratio {:.3}",
            ours / 2.0,
            theirs / 2.0,
            ours / theirs
        ),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The CPU a waited-for child spends is counted (the child is a shell
    /// that counts to 300,000).
    #[test]
    fn counts_the_cpu_of_waited_for_children() {
        let Some(before) = children_cpu_secs() else {
            // No /proc: the figure goes without its CPU detail.
            assert!(!Path::new("/proc/self/stat").exists());
            return;
        };
        run_checked(
            Command::new("sh").args(["-c", "i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done"]),
            "sh",
        )
        .unwrap();
        let after = children_cpu_secs().unwrap();
        assert!(after > before, "{before} s, then {after} s");
    }
}
