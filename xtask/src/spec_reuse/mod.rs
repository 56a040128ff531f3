//! `cargo xtask spec-reuse`: the spec drives other languages' generators,
//! and their clients work on the wire.
//!
//! Against one sandbox (debug build, free loopback port, one business per
//! run through `--key`, so each starts from the same balances) and the
//! sandboxes the examples' tests start from its packages:
//! 1. the Rust SDK runs the money steps of the examples' flow and its
//!    amounts go to `target/spec-reuse/expected.json` ([`reference`](mod@reference));
//! 2. the sandbox's wheel and npm packages are built from that binary
//!    ([`crate::sandbox_packages`]), for this machine;
//! 3. `examples/typescript` becomes a clean Node project (its
//!    `package.json`, `tsconfig.json` and `src/*.ts`; `npm install` of its
//!    pins and of the sandbox's packages from their files),
//!    `openapi-typescript` generates `schema.d.ts` from the spec, `tsc`
//!    compiles it with the example's strict `tsconfig.json`, and `node
//!    --test` runs its `*.test.js`; `openapi-python-client` generates
//!    `crossborder_client` from the spec
//!    (`examples/python/openapi-python-client.yaml`; any warning fails the
//!    step) and `examples/python/test_*.py` run in a clean virtualenv with
//!    the wheel installed from its file; both with no Rust toolchain on
//!    `PATH`, each test file starting its own sandbox from the package
//!    (`flow.test.ts`, `test_flow.py` run the flow against it);
//! 4. self-test ([`mutant`]): both clients are generated again from a copy
//!    of the spec with a response field renamed, and both runs must fail,
//!    naming the field;
//! 5. self-test: both examples run again with one of the Rust SDK's amounts
//!    changed by 0.000001, and both must fail on it;
//! 6. OpenAPI Generator generates `python`, `typescript-fetch`, `go`, `java`
//!    and `rust` clients with the configs of `examples/openapi-generator/`,
//!    and the Python client sends `TIN` and `tin` to the sandbox, the Rust
//!    crate compiles, the TypeScript one type-checks
//!    ([`openapi_generator`]).
//!
//! Both examples compare every amount they read with the Rust SDK's, as
//! exact decimals, and exit non-zero on the first difference; the
//! self-tests show that this step can fail.

mod mutant;
mod openapi_generator;
mod reference;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use anyhow::{bail, Context, Result};

use crate::process::{cargo_build, free_loopback_addr, Profile, ServerGuard};
use crate::sandbox_packages as packages;
use crate::tools::{self, output_text, run_captured, run_checked};
use crate::SPEC_PATH;

/// The keys the sandbox is started with: a business for each run.
const KEYS: &[&str] = &[
    "test_spec_reuse_rust",
    "test_spec_reuse_ts",
    "test_spec_reuse_py",
    "test_spec_reuse_ts_mutant",
    "test_spec_reuse_py_mutant",
    "test_spec_reuse_ts_tampered",
    "test_spec_reuse_py_tampered",
    "test_spec_reuse_openapi_generator",
];

/// How many amounts each example compares with the Rust SDK's (the README
/// and ASSUMPTIONS B65 give the number).
const AMOUNTS: usize = 27;

const TS_EXAMPLE: &str = "examples/typescript";
const PY_FLOW: &str = "examples/python/flow.py";
/// The sandbox's control API, typed for the TypeScript fixture's control client.
const CONTROL_SPEC_PATH: &str = "openapi/sandbox-control.yaml";
const PY_CONFIG: &str = "examples/python/openapi-python-client.yaml";
const PDF: &str = "examples/certificate-of-incorporation.pdf";
/// The Rust SDK's webhook verdicts, which the examples' modules must give.
const WEBHOOK_CASES: &str = "examples/webhook-cases.json";
/// The amounts the Rust SDK and both money modules are checked on.
const MONEY_CASES: &str = "examples/money-cases.json";
/// The payouts the Rust SDK and both pay-once modules are checked on.
const PAY_ONCE_CASES: &str = "examples/pay-once-cases.json";

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
    guard.wait_ready("/v1/api/balance/NGN", Duration::from_secs(30), &log)?;
    let base_url = format!("http://{addr}/v1");
    println!("==> sandbox at {base_url} (pid {})", guard.pid());

    println!("==> the Rust SDK's amounts (the reference)");
    let expected = reference::run(root, &base_url, KEYS[0])?;
    let expected_path = out.join("expected.json");
    std::fs::write(
        &expected_path,
        serde_json::to_string_pretty(&expected).context("writing the reference")?,
    )
    .with_context(|| format!("writing {}", expected_path.display()))?;
    println!("{} amounts in {}", expected.len(), expected_path.display());
    if expected.len() != AMOUNTS {
        bail!(
            "the Rust reference read {} amounts; README.md and ASSUMPTIONS B65 say the examples \
             compare {AMOUNTS}: update them with the flow",
            expected.len()
        );
    }
    let env = Env {
        root,
        base_url: &base_url,
        expected: &expected_path,
        venv: &venv,
    };

    let spec = root.join(SPEC_PATH);
    let built = packages::build(root, &sandbox, Profile::Dev, None)?;
    let no_rust = packages::path_without_rust()?;
    let ts = typescript_suite(&env, &built, &no_rust, &spec, &out.join("ts"))?;
    if !ts.passed {
        bail!("the TypeScript example's tests failed (output above)");
    }
    generate_python(&env, &spec, &out.join("python"))?;
    let py = python_suite(
        &env,
        &built,
        &no_rust,
        &out.join("python"),
        &out.join("python-env"),
    )?;
    if !py.passed {
        bail!("the Python example's tests failed (output above)");
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
    mutant::expect_failure("TypeScript", ts.passed, &ts.output, mutant::TS_NAMES)?;
    let py = python(
        &env,
        &Target {
            spec: &mutated,
            dir: out.join("mutant/python"),
            key: KEYS[4],
        },
    )?;
    mutant::expect_failure("Python", py.passed, &py.output, mutant::PY_NAMES)?;

    let (tampered, name) = reference::tampered(&expected)?;
    println!(
        "==> self-test: the Rust SDK's {name} changed to {}; both examples must fail on it",
        tampered[name]
    );
    let tampered_path = out.join("expected-tampered.json");
    std::fs::write(
        &tampered_path,
        serde_json::to_string_pretty(&tampered).context("writing the tampered reference")?,
    )
    .with_context(|| format!("writing {}", tampered_path.display()))?;
    let tampered_env = Env {
        expected: &tampered_path,
        ..env
    };
    let needle = format!("DIFFERENCE {name}: read");
    let ts = node_run(&tampered_env, &out.join("ts"), KEYS[5])?;
    mutant::expect_failure("TypeScript", ts.passed, &ts.output, &[&needle])?;
    let py = python_run(&tampered_env, &out.join("python"), KEYS[6])?;
    mutant::expect_failure("Python", py.passed, &py.output, &[&needle])?;

    openapi_generator::run(
        root,
        &spec,
        &out.join("openapi-generator"),
        &base_url,
        KEYS[7],
    )?;
    guard.stop();
    println!(
        "spec-reuse: the TypeScript and Python clients ran the flow and read the Rust SDK's \
         amounts; both failed on a renamed response field and on a changed amount; OpenAPI \
         Generator's {} clients were generated, its Python client sent TIN and tin, its Rust \
         crate compiled and its TypeScript client type-checked",
        openapi_generator::GENERATORS.join(", ")
    );
    Ok(())
}

/// What every run shares.
struct Env<'a> {
    root: &'a Path,
    base_url: &'a str,
    expected: &'a Path,
    /// The `bin` of the venv with openapi-python-client (and so httpx,
    /// attrs and python-dateutil, which the generated client needs).
    venv: &'a Path,
}

impl Env<'_> {
    /// The examples' environment for a run with `key`.
    fn apply(&self, cmd: &mut Command, key: &str) {
        cmd.env("CROSSBORDER_BASE_URL", self.base_url)
            .env("CROSSBORDER_API_KEY", key)
            .env("CROSSBORDER_EXPECTED", self.expected)
            .env("CROSSBORDER_PDF", self.root.join(PDF));
    }

    /// The examples' test suites' environment: they start their own
    /// sandboxes, so no base URL or key.
    fn apply_tests(&self, cmd: &mut Command) {
        cmd.env_remove("CROSSBORDER_BASE_URL")
            .env_remove("CROSSBORDER_API_KEY")
            .env("CROSSBORDER_EXPECTED", self.expected)
            .env("CROSSBORDER_PDF", self.root.join(PDF))
            .env("CROSSBORDER_WEBHOOK_CASES", self.root.join(WEBHOOK_CASES))
            .env("CROSSBORDER_MONEY_CASES", self.root.join(MONEY_CASES))
            .env("CROSSBORDER_PAY_ONCE_CASES", self.root.join(PAY_ONCE_CASES));
    }
}

/// Lays the example out as in `examples/typescript` (its `package.json`,
/// `tsconfig.json` and `src/flow.ts`), generates `src/schema.d.ts` from
/// `target.spec`, compiles with `tsc -p` (strict) and runs `dist/flow.js`
/// with Node. A compile error is a failed run (its output kept).
fn typescript(env: &Env, node: &Path, target: &Target) -> Result<Run> {
    let dir = &target.dir;
    let src = dir.join("src");
    std::fs::create_dir_all(&src).with_context(|| format!("creating {}", src.display()))?;
    for file in ["package.json", "tsconfig.json", "src/flow.ts"] {
        let from = env.root.join(TS_EXAMPLE).join(file);
        std::fs::copy(&from, dir.join(file))
            .with_context(|| format!("copying {}", from.display()))?;
    }
    let schema = src.join("schema.d.ts");
    println!(
        "==> openapi-typescript {} -> {}",
        target.spec.display(),
        schema.display()
    );
    run_checked(
        Command::new(node.join("openapi-typescript"))
            .arg(target.spec)
            .arg("--output")
            .arg(&schema),
        "openapi-typescript",
    )?;
    // The example's packages are the pinned npm tools' (a test keeps the
    // pins equal); Node and tsc resolve them from the example's folder up.
    let modules = dir.join("node_modules");
    let _ = std::fs::remove_file(&modules);
    symlink_dir(&tools::node_modules(env.root), &modules)?;
    println!("==> tsc -p (the example's tsconfig.json, strict)");
    let compiled = run_captured(Command::new(node.join("tsc")).arg("-p").arg(dir), "tsc")?;
    if !compiled.status.success() {
        return Ok(Run {
            passed: false,
            output: output_text(&compiled),
        });
    }
    node_run(env, dir, target.key)
}

/// The TypeScript example as a team without Rust has it: a clean Node
/// project in `dir` (the example's `package.json`, `tsconfig.json` and every
/// `src/*.ts`), `npm install` of its pins and of the sandbox's npm packages
/// from their files, `schema.d.ts` generated from `spec` (and `control.d.ts`
/// from the control API's spec), `tsc -p`, then
/// `node --test` of every `*.test.js` (each test file starts its sandbox
/// from the package), all with no Rust toolchain on `PATH`.
fn typescript_suite(
    env: &Env,
    built: &packages::Built,
    no_rust: &std::ffi::OsStr,
    spec: &Path,
    dir: &Path,
) -> Result<Run> {
    let _ = std::fs::remove_dir_all(dir);
    let src = dir.join("src");
    std::fs::create_dir_all(&src).with_context(|| format!("creating {}", src.display()))?;
    let example = env.root.join(TS_EXAMPLE);
    for file in ["package.json", "tsconfig.json"] {
        std::fs::copy(example.join(file), dir.join(file))
            .with_context(|| format!("copying {file}"))?;
    }
    let mut tests = Vec::new();
    for entry in std::fs::read_dir(example.join("src")).context("reading the example's src")? {
        let path = entry?.path();
        let name = path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        if name.ends_with(".ts") && !name.ends_with(".d.ts") {
            std::fs::copy(&path, src.join(&name))
                .with_context(|| format!("copying {}", path.display()))?;
            if let Some(stem) = name.strip_suffix(".test.ts") {
                tests.push(dir.join(format!("dist/{stem}.test.js")));
            }
        }
    }
    tests.sort();
    println!(
        "==> npm install (a clean project in {}, no Rust on PATH)",
        dir.display()
    );
    run_checked(
        packages::without_rust("npm", no_rust)
            .current_dir(dir)
            .args(["install", "--no-audit", "--no-fund", "--loglevel=error"])
            .args(&built.npm),
        "npm install (the sandbox's packages)",
    )?;
    let bin = dir.join("node_modules/.bin");
    run_checked(
        packages::without_rust(bin.join("openapi-typescript"), no_rust)
            .arg(spec)
            .arg("--output")
            .arg(src.join("schema.d.ts")),
        "openapi-typescript",
    )?;
    run_checked(
        packages::without_rust(bin.join("openapi-typescript"), no_rust)
            .arg(env.root.join(CONTROL_SPEC_PATH))
            .arg("--output")
            .arg(src.join("control.d.ts")),
        "openapi-typescript (the control API)",
    )?;
    println!("==> tsc -p (the example's tsconfig.json, strict)");
    let compiled = run_captured(
        packages::without_rust(bin.join("tsc"), no_rust)
            .arg("-p")
            .arg(dir),
        "tsc",
    )?;
    if !compiled.status.success() {
        return Ok(Run {
            passed: false,
            output: output_text(&compiled),
        });
    }
    println!("==> node --test ({} files)", tests.len());
    let mut cmd = packages::without_rust("node", no_rust);
    cmd.current_dir(dir).arg("--test").args(&tests);
    env.apply_tests(&mut cmd);
    let ran = run_captured(&mut cmd, "node --test")?;
    Ok(Run {
        passed: ran.status.success(),
        output: output_text(&ran),
    })
}

/// The Python example's tests (`examples/python/test_*.py`, unittest) in a
/// clean virtualenv with the wheel installed from its file, the client
/// generated in `client`, and no Rust toolchain on `PATH`.
fn python_suite(
    env: &Env,
    built: &packages::Built,
    no_rust: &std::ffi::OsStr,
    client: &Path,
    venv_dir: &Path,
) -> Result<Run> {
    let bin = packages::python_env(venv_dir, &built.wheel, env.venv, no_rust)?;
    println!("==> python -m unittest (examples/python/test_*.py)");
    let mut cmd = packages::without_rust(bin.join("python"), no_rust);
    cmd.args(["-m", "unittest", "discover", "-v", "-p", "test_*.py", "-s"])
        .arg(env.root.join("examples/python"))
        .env("PYTHONPATH", client)
        .env("PYTHONDONTWRITEBYTECODE", "1");
    env.apply_tests(&mut cmd);
    let ran = run_captured(&mut cmd, "python -m unittest")?;
    Ok(Run {
        passed: ran.status.success(),
        output: output_text(&ran),
    })
}

/// Runs the compiled TypeScript example in `dir` with `key`.
fn node_run(env: &Env, dir: &Path, key: &str) -> Result<Run> {
    println!("==> node dist/flow.js (key {key})");
    let mut cmd = Command::new("node");
    cmd.arg(dir.join("dist/flow.js"));
    env.apply(&mut cmd, key);
    let ran = run_captured(&mut cmd, "node")?;
    Ok(Run {
        passed: ran.status.success(),
        output: output_text(&ran),
    })
}

/// Generates `crossborder_client` from `target.spec` and runs the example
/// with it.
fn python(env: &Env, target: &Target) -> Result<Run> {
    generate_python(env, target.spec, &target.dir)?;
    python_run(env, &target.dir, target.key)
}

/// Generates `crossborder_client` from `spec` into `dir`.
fn generate_python(env: &Env, spec: &Path, dir: &Path) -> Result<()> {
    let venv = env.venv;
    println!(
        "==> openapi-python-client {} -> {}",
        spec.display(),
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
            .arg(spec)
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
    Ok(())
}

/// Runs the Python example with the client generated in `dir` and `key`.
fn python_run(env: &Env, dir: &Path, key: &str) -> Result<Run> {
    println!("==> python {PY_FLOW} (key {key})");
    let mut cmd = Command::new(env.venv.join("python"));
    cmd.arg(env.root.join(PY_FLOW)).env("PYTHONPATH", dir);
    env.apply(&mut cmd, key);
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

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::npm_tools;

    fn example(file: &str) -> String {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../examples")
            .join(file);
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }

    /// CI runs the TypeScript example with the pinned npm tools, so its own
    /// pins (what a team installs) must be the same versions.
    #[test]
    fn the_typescript_example_pins_what_ci_installs() {
        let package: serde_json::Value =
            serde_json::from_str(&example("typescript/package.json")).unwrap();
        let mut pinned = BTreeSet::new();
        for section in ["dependencies", "devDependencies"] {
            for (name, version) in package[section].as_object().unwrap() {
                pinned.insert(format!("{name}@{}", version.as_str().unwrap()));
            }
        }
        let tools: BTreeSet<String> = npm_tools::packages()
            .into_iter()
            .map(String::from)
            .collect();
        let missing: Vec<_> = pinned.difference(&tools).collect();
        assert!(
            missing.is_empty(),
            "examples/typescript pins {missing:?}, not in xtask/npm-packages.txt"
        );
        assert_eq!(pinned.len(), 6, "{pinned:?}");
    }

    /// The same for the Python example's generator.
    #[test]
    fn the_python_example_pins_what_ci_installs() {
        let pins: Vec<String> = example("python/requirements.txt")
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(String::from)
            .collect();
        assert_eq!(pins, ["openapi-python-client==0.29.1"]);
        for pin in &pins {
            assert!(
                tools::PIP_PACKAGES.contains(&pin.as_str()),
                "{pin} is not in tools::PIP_PACKAGES"
            );
        }
    }
}
