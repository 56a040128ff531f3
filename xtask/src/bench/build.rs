//! `downstream_build_vs_async_openai`: how long a new user's first
//! `cargo build` takes. Two throwaway crates, one on `crossborder` (a path
//! dependency on this workspace, default features) and one on
//! `async-openai` 0.30, each with `tokio` and a `main` that makes one call,
//! are built in debug from fresh target directories, their dependencies
//! fetched beforehand (so the network is not measured), alternating which
//! goes first. Their target directories are deleted after each build
//! (disk), the crates at the end. Measured only with `--only build`: four
//! full builds take minutes.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use anyhow::{bail, Context, Result};

use super::Figure;

/// The goal: our first build takes at most this share of theirs.
const GOAL: f64 = 0.8;

const OURS_MAIN: &str = r#"#[tokio::main]
async fn main() -> Result<(), crossborder::Error> {
    let client = crossborder::Client::from_env()?;
    let balance = client.wallet().balance(crossborder::Currency::Ngn).await?;
    println!("{balance}");
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
        let manifest = format!(
            "[package]\nname = \"{name}\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
             [dependencies]\n{dependency}\ntokio = {{ version = \"1\", features = [\"macros\", \"rt-multi-thread\"] }}\n\n\
             # Not a member of the workspace around it.\n[workspace]\n"
        );
        std::fs::write(dir.join("Cargo.toml"), manifest)?;
        std::fs::write(dir.join("src/main.rs"), main)?;
        Ok(Downstream { name, dir })
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
        let output = self.cargo(args).output().with_context(|| {
            format!("running cargo {} in {}", args.join(" "), self.dir.display())
        })?;
        if !output.status.success() {
            bail!(
                "cargo {} failed for {}: {}",
                args.join(" "),
                self.name,
                String::from_utf8_lossy(&output.stderr)
            );
        }
        Ok(String::from_utf8_lossy(&output.stdout).into_owned())
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

    /// Seconds of one `cargo build` from an empty target directory, which
    /// is deleted afterwards.
    fn build_secs(&self) -> Result<f64> {
        let target = self.dir.join("target");
        let _ = std::fs::remove_dir_all(&target);
        println!("==> cargo build ({})", self.name);
        let started = Instant::now();
        let result = self.run(&["build", "--offline", "--quiet"]);
        let secs = started.elapsed().as_secs_f64();
        let _ = std::fs::remove_dir_all(&target);
        result?;
        println!("    {secs:.1} s");
        Ok(secs)
    }
}

/// Builds both crates twice, alternating, and reports our total over theirs.
pub(super) fn downstream_build(root: &Path) -> Result<Figure> {
    let base = root.join("target/bench/downstream");
    let _ = std::fs::remove_dir_all(&base);
    let sdk = root.join("crates/crossborder");
    let ours = Downstream::create(
        &base,
        "on-crossborder",
        &format!("crossborder = {{ path = {:?} }}", sdk.display().to_string()),
        OURS_MAIN,
    )?;
    // The versions this workspace is tested with, where they apply.
    std::fs::copy(root.join("Cargo.lock"), ours.dir.join("Cargo.lock"))
        .context("copying Cargo.lock")?;
    let theirs = Downstream::create(
        &base,
        "on-async-openai",
        "async-openai = \"0.30\"",
        THEIRS_MAIN,
    )?;
    let result = (|| {
        for crate_ in [&ours, &theirs] {
            crate_.run(&["fetch", "--quiet"])?;
        }
        let (mut ours_secs, mut theirs_secs) = (0.0, 0.0);
        ours_secs += ours.build_secs()?;
        theirs_secs += theirs.build_secs()?;
        theirs_secs += theirs.build_secs()?;
        ours_secs += ours.build_secs()?;
        let (ours_crates, theirs_crates) = (ours.crates()?, theirs.crates()?);
        Ok(Figure {
            name: "downstream_build_vs_async_openai",
            value: ours_secs / theirs_secs,
            goal: GOAL,
            below: true,
            unit: "ratio",
            detail: format!(
                "first `cargo build` (debug, fresh target, deps fetched) of a crate on crossborder (default features) + tokio: {:.1} s, {ours_crates} crates; on async-openai 0.30 + tokio: {:.1} s, {theirs_crates} crates; two alternating builds each",
                ours_secs / 2.0,
                theirs_secs / 2.0
            ),
        })
    })();
    let _ = std::fs::remove_dir_all(&base);
    result
}
