//! OpenAPI Generator (the pip package `openapi-generator-cli`, which bundles
//! the jar; it runs on the machine's `java`) generates a client from the
//! spec for each of [`GENERATORS`], with the documented config of
//! `examples/openapi-generator/<generator>.yaml`. Then:
//! - each client's money and `TIN`/`tin` fields have the types the README's
//!   generator-limits table gives ([`EXPECTED`]);
//! - the Python client imports, and `examples/openapi-generator/tin.py`
//!   sends a business through it to the sandbox, both `TIN` and `tin` in
//!   its body;
//! - the Rust crate passes `cargo check` (its own target dir under
//!   `target/tools/`, the workspace's `Cargo.lock` as its start so the
//!   crates already downloaded are reused);
//! - the TypeScript client passes `tsc --noEmit --strict`.
//!
//! Go and Java are generated and inspected only: Go has no toolchain here,
//! and compiling the Java client needs its Maven dependencies.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use anyhow::{bail, Context, Result};

use crate::tools::{self, output_text, run_captured};

/// The pip packages: the generator, pinned, and what the generated Python
/// client needs to import (its `requirements.txt`), pinned too.
pub const PIP_PACKAGES: &[&str] = &[
    "openapi-generator-cli==7.26.0",
    "pydantic==2.12.5",
    "urllib3==2.7.0",
    "python-dateutil==2.9.0.post0",
    "typing-extensions==4.15.0",
];

/// The generators run, each with `examples/openapi-generator/<name>.yaml`.
pub const GENERATORS: &[&str] = &["python", "typescript-fetch", "go", "java", "rust"];

const CONFIGS: &str = "examples/openapi-generator";

/// What each generated client must contain, with the config applied: the
/// README's table of generator limits says the same (file relative to the
/// generator's output, text in it).
const EXPECTED: &[(&str, &str, &str)] = &[
    // Both spellings, as two fields (nameMappings).
    ("python", "crossborder_oag/models/create_business_request.py", "tin_upper: Optional[StrictStr] = Field(default=None, validation_alias=AliasChoices(\"TIN\", \"tin_upper\"), serialization_alias=\"TIN\""),
    ("python", "crossborder_oag/models/create_business_request.py", "    tin: Optional[StrictStr]"),
    ("typescript-fetch", "models/CreateBusinessRequest.ts", "tinUpper?: string;"),
    ("typescript-fetch", "models/CreateBusinessRequest.ts", "'TIN': value['tinUpper'],"),
    ("go", "model_create_business_request.go", "TinUpper *string `json:\"TIN,omitempty\"`"),
    ("go", "model_create_business_request.go", "Tin *string `json:\"tin,omitempty\"`"),
    ("java", "src/main/java/org/openapitools/client/model/CreateBusinessRequest.java", "private String tinUpper;"),
    ("java", "src/main/java/org/openapitools/client/model/CreateBusinessRequest.java", "public static final String SERIALIZED_NAME_TIN_UPPER = \"TIN\";"),
    ("rust", "src/models/create_business_request.rs", "#[serde(rename = \"TIN\", skip_serializing_if = \"Option::is_none\")]\n    pub tin_upper: Option<String>,"),
    // Money: response amounts (`Amount`, type number) and the payout's
    // string amount (`DecimalString`).
    ("python", "crossborder_oag/models/quote.py", "    rate: Union[StrictFloat, StrictInt]"),
    ("python", "crossborder_oag/models/payout_request.py", "    amount: Annotated[str,"),
    ("typescript-fetch", "models/Quote.ts", "rate: number;"),
    ("typescript-fetch", "models/PayoutRequest.ts", "amount: string;"),
    ("go", "model_quote.go", "Rate float64 `json:\"rate\"`"),
    ("go", "model_payout_request.go", "Amount string `json:\"amount\""),
    ("java", "src/main/java/org/openapitools/client/model/Quote.java", "private BigDecimal rate;"),
    ("java", "src/main/java/org/openapitools/client/model/PayoutRequest.java", "private String amount;"),
    ("rust", "src/models/quote.rs", "pub rate: f64,"),
    ("rust", "src/models/payout_request.rs", "pub amount: String,"),
];

/// The Python script that sends a business through the generated client.
const TIN_SCRIPT: &str = "examples/openapi-generator/tin.py";

/// Generates every client into `out/<generator>` and checks them; `key` is
/// a staging key of the sandbox at `base_url` for the Python request.
pub fn run(root: &Path, spec: &Path, out: &Path, base_url: &str, key: &str) -> Result<()> {
    let started = Instant::now();
    if which("java").is_none() {
        bail!(
            "OpenAPI Generator needs Java: install a JRE (Debian: apt-get install \
             default-jre-headless; .ci/run does)"
        );
    }
    let venv = tools::pip_venv(root, "openapi-generator", PIP_PACKAGES)?;
    let mut times = Vec::new();
    for generator in GENERATORS {
        let dir = out.join(generator);
        if dir.exists() {
            std::fs::remove_dir_all(&dir).with_context(|| format!("removing {}", dir.display()))?;
        }
        let config = root.join(CONFIGS).join(format!("{generator}.yaml"));
        println!(
            "==> openapi-generator-cli generate -g {generator} -c {}",
            config.display()
        );
        let begun = Instant::now();
        let generated = Command::new(venv.join("openapi-generator-cli"))
            .arg("generate")
            .args(["-g", generator, "-i"])
            .arg(spec)
            .arg("-o")
            .arg(&dir)
            .arg("-c")
            .arg(&config)
            .output()
            .with_context(|| format!("running {}", venv.join("openapi-generator-cli").display()))?;
        times.push((
            format!("generate {generator}"),
            begun.elapsed().as_secs_f64(),
        ));
        if !generated.status.success() {
            eprint!("{}", output_text(&generated));
            bail!(
                "openapi-generator-cli -g {generator} failed ({})",
                generated.status
            );
        }
    }
    for (generator, file, text) in EXPECTED {
        let path = out.join(generator).join(file);
        let body = std::fs::read_to_string(&path)
            .with_context(|| format!("reading {} (generated by -g {generator})", path.display()))?;
        if !body.contains(text) {
            bail!(
                "{} lacks `{text}`: the {generator} client no longer has what the README's \
                 generator-limits table and {CONFIGS}/{generator}.yaml say",
                path.display()
            );
        }
    }

    let python = out.join("python");
    println!("==> python -c 'import crossborder_oag' and {TIN_SCRIPT} (key {key})");
    let begun = Instant::now();
    let ran = run_captured(
        Command::new(venv.join("python"))
            .arg(root.join(TIN_SCRIPT))
            .env("PYTHONPATH", &python)
            .env("CROSSBORDER_BASE_URL", base_url)
            .env("CROSSBORDER_API_KEY", key),
        "python",
    )?;
    times.push((
        "python: import, TIN and tin sent".into(),
        begun.elapsed().as_secs_f64(),
    ));
    if !ran.status.success() {
        bail!("{TIN_SCRIPT} failed with the generated Python client (output above)");
    }

    let begun = Instant::now();
    cargo_check(root, &out.join("rust"))?;
    times.push(("rust: cargo check".into(), begun.elapsed().as_secs_f64()));

    let begun = Instant::now();
    tsc(root, &out.join("typescript-fetch"))?;
    times.push((
        "typescript-fetch: tsc --strict".into(),
        begun.elapsed().as_secs_f64(),
    ));

    println!("==> OpenAPI Generator: seconds per step");
    for (step, seconds) in &times {
        println!("{step:<40} {seconds:>6.1}");
    }
    println!("{:<40} {:>6.1}", "total", started.elapsed().as_secs_f64());
    Ok(())
}

/// `cargo check` of the generated Rust crate in `dir`, without TLS (what
/// is checked is the generated code, not reqwest's TLS stacks), in its own
/// target dir.
fn cargo_check(root: &Path, dir: &Path) -> Result<()> {
    let manifest = dir.join("Cargo.toml");
    let mut text = std::fs::read_to_string(&manifest)
        .with_context(|| format!("reading {}", manifest.display()))?;
    // A workspace of its own, not a member of ours (it lies under it).
    text.push_str("\n[workspace]\n");
    std::fs::write(&manifest, text).with_context(|| format!("writing {}", manifest.display()))?;
    std::fs::copy(root.join("Cargo.lock"), dir.join("Cargo.lock"))
        .context("copying Cargo.lock into the generated crate")?;
    let target = root.join("target/tools/openapi-generator/rust-target");
    let check = |offline: bool| -> Result<bool> {
        let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
        cmd.current_dir(dir)
            .env("CARGO_TARGET_DIR", &target)
            .env_remove("RUSTFLAGS")
            .args(["check", "--quiet", "--no-default-features"]);
        if offline {
            cmd.arg("--offline");
        }
        println!(
            "==> cargo check{} (the generated Rust crate, target {})",
            if offline { " --offline" } else { "" },
            target.display()
        );
        Ok(run_captured(&mut cmd, "cargo check")?.status.success())
    };
    // Offline first: every crate it needs is usually downloaded already.
    if check(true)? || check(false)? {
        Ok(())
    } else {
        bail!("the Rust crate OpenAPI Generator generated does not compile (output above)")
    }
}

/// `tsc --noEmit --strict` of the generated TypeScript client in `dir`.
fn tsc(root: &Path, dir: &Path) -> Result<()> {
    let node = tools::node_bin(root)?;
    println!("==> tsc --noEmit --strict (the typescript-fetch client)");
    let ran = run_captured(
        Command::new(node.join("tsc")).current_dir(dir).args([
            "--noEmit",
            "--strict",
            "--target",
            "es2020",
            "--module",
            "es2020",
            "--moduleResolution",
            "node",
            "--lib",
            "es2020,dom",
            "index.ts",
        ]),
        "tsc",
    )?;
    if !ran.status.success() {
        bail!("the typescript-fetch client does not type-check (output above)");
    }
    Ok(())
}

/// The first `name` on PATH.
fn which(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|path| {
        std::env::split_paths(&path)
            .map(|dir| dir.join(name))
            .find(|candidate| candidate.is_file())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every generator has its documented config, and the README names it.
    #[test]
    fn every_generator_has_its_documented_config() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let readme = std::fs::read_to_string(root.join(CONFIGS).join("README.md")).unwrap();
        for generator in GENERATORS {
            let config = root.join(CONFIGS).join(format!("{generator}.yaml"));
            let text = std::fs::read_to_string(&config).unwrap();
            assert!(
                text.contains("nameMappings:\n  TIN: "),
                "{}",
                config.display()
            );
            assert!(
                readme.contains(&format!("`{generator}.yaml`")),
                "{generator}"
            );
        }
    }
}
