//! `cargo xtask spec-reuse`: the spec drives other languages' generators,
//! and their clients work on the wire.
//!
//! Against one sandbox (debug build, free loopback port, one business per
//! client through `--key`):
//! 1. the Rust SDK runs the money steps of the examples' flow and its
//!    amounts go to `target/spec-reuse/expected.json` ([`reference`]);
//! 2. `openapi-typescript` generates `schema.d.ts` from the spec,
//!    `examples/typescript/src/flow.ts` is compiled against it with
//!    `tsc --strict` and run with Node (openapi-fetch);
//! 3. `openapi-python-client` generates `crossborder_client` from the spec
//!    (`examples/python/openapi-python-client.yaml`; any warning fails the
//!    step), and `examples/python/flow.py` runs with it.
//!
//! Both examples compare every amount they read with the Rust SDK's, as
//! exact decimals, and exit non-zero on the first difference.
//! 4. The self-test ([`mutant`]): both clients are generated again from a
//!    copy of the spec with a response field renamed, and both runs must
//!    fail, naming the field, so this step can fail.

mod mutant;
mod reference;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use anyhow::{bail, Context, Result};

use crate::process::{cargo_build, free_loopback_addr, Profile, ServerGuard};
use crate::tools::{self, output_text, run_captured, run_checked};
use crate::SPEC_PATH;

/// The keys the sandbox is started with: a business for each run.
const KEYS: &[&str] = &[
    "test_spec_reuse_rust",
    "test_spec_reuse_ts",
    "test_spec_reuse_py",
    "test_spec_reuse_ts_mutant",
    "test_spec_reuse_py_mutant",
];

const TS_FLOW: &str = "examples/typescript/src/flow.ts";
const PY_FLOW: &str = "examples/python/flow.py";
const PY_CONFIG: &str = "examples/python/openapi-python-client.yaml";
const PDF: &str = "examples/certificate-of-incorporation.pdf";

/// What one client's run gave: whether it passed, and its output.
struct Run {
    passed: bool,
    output: String,
}

/// Where a run's client is generated and run from, with which key.
struct Target<'a> {
    spec: &'a Path,
    dir: PathBuf,
    key: &'a str,
}

pub fn run(root: &Path) -> Result<()> {
    let node = tools::node_bin(root)?;
    let venv = tools::venv_bin(root)?;
    let out = root.join("target/spec-reuse");
    std::fs::create_dir_all(&out).with_context(|| format!("creating {}", out.display()))?;

    let sandbox = cargo_build(root, "crossborder-sandbox", Profile::Dev)?;
    let addr = free_loopback_addr()?;
    let log = out.join("sandbox.log");
    let mut server = Command::new(&sandbox);
    server
        .current_dir(root)
        .args(["--host", "127.0.0.1", "--port", &addr.port().to_string()])
        .arg("--quiet");
    for key in KEYS {
        server.args(["--key", key]);
    }
    let mut guard = ServerGuard::spawn("crossborder-sandbox", server, addr, &log)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting a tokio runtime")?;
    runtime.block_on(guard.wait_ready("/v1/api/balance/NGN", Duration::from_secs(30), &log))?;
    let base_url = format!("http://{addr}/v1");
    println!("==> sandbox at {base_url} (pid {})", guard.pid());

    println!("==> the Rust SDK's amounts (the reference)");
    let expected = runtime.block_on(reference::run(&base_url, KEYS[0]))?;
    let expected_path = out.join("expected.json");
    std::fs::write(
        &expected_path,
        serde_json::to_string_pretty(&expected).context("writing the reference")?,
    )
    .with_context(|| format!("writing {}", expected_path.display()))?;
    println!("{} amounts in {}", expected.len(), expected_path.display());
    let env = Env {
        root,
        base_url: &base_url,
        expected: &expected_path,
    };

    let spec = root.join(SPEC_PATH);
    let ts = typescript(
        &env,
        &node,
        &Target {
            spec: &spec,
            dir: out.join("ts"),
            key: KEYS[1],
        },
    )?;
    if !ts.passed {
        bail!("the TypeScript example failed against the sandbox (output above)");
    }
    let py = python(
        &env,
        &venv,
        &Target {
            spec: &spec,
            dir: out.join("python"),
            key: KEYS[2],
        },
    )?;
    if !py.passed {
        bail!("the Python example failed against the sandbox (output above)");
    }

    println!("==> self-test: {}", mutant::DESCRIPTION);
    let mutated = mutant::write(&spec, &out.join("mutant"))?;
    let ts = typescript(
        &env,
        &node,
        &Target {
            spec: &mutated,
            dir: out.join("mutant/ts"),
            key: KEYS[3],
        },
    )?;
    mutant::expect_failure("TypeScript", ts.passed, &ts.output, mutant::TS_NAME)?;
    let py = python(
        &env,
        &venv,
        &Target {
            spec: &mutated,
            dir: out.join("mutant/python"),
            key: KEYS[4],
        },
    )?;
    mutant::expect_failure("Python", py.passed, &py.output, mutant::PY_NAME)?;
    guard.stop();
    println!("spec-reuse: the TypeScript and Python clients ran the flow and read the Rust SDK's amounts; both failed on the mutated spec");
    Ok(())
}

/// What every run shares.
struct Env<'a> {
    root: &'a Path,
    base_url: &'a str,
    expected: &'a Path,
}

impl Env<'_> {
    /// The examples' environment for a run with `key`.
    fn apply(&self, cmd: &mut Command, key: &str) {
        cmd.env("CROSSBORDER_BASE_URL", self.base_url)
            .env("CROSSBORDER_API_KEY", key)
            .env("CROSSBORDER_EXPECTED", self.expected)
            .env("CROSSBORDER_PDF", self.root.join(PDF));
    }
}

/// Generates the types from `target.spec`, compiles the example against
/// them and runs it. A compile error is a failed run (its output kept).
fn typescript(env: &Env, node: &Path, target: &Target) -> Result<Run> {
    let dir = &target.dir;
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    println!(
        "==> openapi-typescript {} -> {}",
        target.spec.display(),
        dir.join("schema.d.ts").display()
    );
    run_checked(
        Command::new(node.join("openapi-typescript"))
            .arg(target.spec)
            .arg("--output")
            .arg(dir.join("schema.d.ts")),
        "openapi-typescript",
    )?;
    // Node resolves the pinned packages from the compiled file's folder up.
    let modules = dir.join("node_modules");
    let _ = std::fs::remove_file(&modules);
    symlink_dir(&tools::node_modules(env.root), &modules)?;
    std::fs::write(dir.join("package.json"), "{\"type\": \"module\"}\n")
        .context("writing package.json")?;
    std::fs::copy(env.root.join(TS_FLOW), dir.join("flow.ts"))
        .with_context(|| format!("copying {TS_FLOW}"))?;
    println!("==> tsc --strict {TS_FLOW}");
    let compiled = run_captured(
        Command::new(node.join("tsc"))
            .current_dir(dir)
            .args(["--strict", "--target", "es2022", "--module", "nodenext"])
            .args(["--moduleResolution", "nodenext", "--skipLibCheck"])
            .args(["--outDir", "out", "flow.ts", "schema.d.ts"]),
        "tsc",
    )?;
    if !compiled.status.success() {
        return Ok(Run {
            passed: false,
            output: output_text(&compiled),
        });
    }
    println!("==> node (the compiled {TS_FLOW}, key {})", target.key);
    let mut cmd = Command::new("node");
    cmd.arg(dir.join("out/flow.js"));
    env.apply(&mut cmd, target.key);
    let ran = run_captured(&mut cmd, "node")?;
    Ok(Run {
        passed: ran.status.success(),
        output: output_text(&ran),
    })
}

/// Generates `crossborder_client` from `target.spec` and runs the example
/// with it.
fn python(env: &Env, venv: &Path, target: &Target) -> Result<Run> {
    let dir = &target.dir;
    println!(
        "==> openapi-python-client {} -> {}",
        target.spec.display(),
        dir.display()
    );
    // Its post-generation hooks run `ruff` (installed in the venv) from PATH.
    let path = std::env::join_paths(
        std::iter::once(venv.to_path_buf()).chain(
            std::env::var_os("PATH")
                .iter()
                .flat_map(std::env::split_paths),
        ),
    )
    .context("building PATH")?;
    let generated = run_captured(
        Command::new(venv.join("openapi-python-client"))
            .env("PATH", path)
            .arg("generate")
            .arg("--path")
            .arg(target.spec)
            .arg("--config")
            .arg(env.root.join(PY_CONFIG))
            .arg("--output-path")
            .arg(dir)
            .arg("--overwrite"),
        "openapi-python-client",
    )?;
    if !generated.status.success() {
        bail!("openapi-python-client failed ({})", generated.status);
    }
    // It exits 0 even when it had to leave parts of the spec out.
    if output_text(&generated).contains("Warning(s) encountered") {
        bail!("openapi-python-client left parts of the spec out (see its warnings above)");
    }
    println!("==> python {PY_FLOW} (key {})", target.key);
    let mut cmd = Command::new(venv.join("python"));
    cmd.arg(env.root.join(PY_FLOW)).env("PYTHONPATH", dir);
    env.apply(&mut cmd, target.key);
    let ran = run_captured(&mut cmd, "python")?;
    Ok(Run {
        passed: ran.status.success(),
        output: output_text(&ran),
    })
}

#[cfg(unix)]
fn symlink_dir(target: &Path, link: &Path) -> Result<()> {
    std::os::unix::fs::symlink(target, link)
        .with_context(|| format!("linking {} to {}", link.display(), target.display()))
}

#[cfg(not(unix))]
fn symlink_dir(target: &Path, link: &Path) -> Result<()> {
    bail!(
        "spec-reuse links {} to {}, which needs a Unix file system",
        link.display(),
        target.display()
    )
}
