//! `cargo xtask lint-spec`: first [`crate::assumptions`] (one row per id
//! in `openapi/ASSUMPTIONS.md`, every id the specs name a row, every row
//! naming its tests), then redocly (recommended rules), spectral
//! (`spectral:oas`) and openapi-spec-validator on the spec and on the
//! sandbox's control API (`openapi/sandbox-control.yaml`). Errors fail the
//! task; warnings are printed and counted.

use std::path::Path;
use std::process::{Command, Output};

use anyhow::{bail, Result};

use crate::tools::{self, output_text, run_captured};
use crate::{CONTROL_SPEC_PATH, SPEC_PATH};

/// Ruleset files, relative to the workspace root.
const REDOCLY_CONFIG: &str = "xtask/lint/redocly.yaml";
const SPECTRAL_RULESET: &str = "xtask/lint/spectral.yaml";

struct Outcome {
    tool: &'static str,
    spec: &'static str,
    ok: bool,
    errors: usize,
    warnings: usize,
}

impl Outcome {
    /// The outcome of a linter that ends its output with a summary such as
    /// "(1 error, 2 warnings)": the counts are read from it.
    fn from_summary(tool: &'static str, spec: &'static str, out: &Output) -> Outcome {
        let text = output_text(out);
        Outcome {
            tool,
            spec,
            ok: out.status.success(),
            errors: count_before(&text, "error"),
            warnings: count_before(&text, "warning"),
        }
    }
}

pub fn run(root: &Path) -> Result<()> {
    println!(
        "==> {} (unique ids, references, tests)",
        crate::assumptions::ASSUMPTIONS_PATH
    );
    crate::assumptions::run(root)?;
    let node = tools::node_bin(root)?;
    let venv = tools::venv_bin(root)?;
    let mut outcomes = Vec::new();
    for spec in [SPEC_PATH, CONTROL_SPEC_PATH] {
        if !root.join(spec).exists() {
            bail!("{spec} does not exist");
        }
        lint(root, &node, &venv, spec, &mut outcomes)?;
    }

    println!("==> summary");
    for o in &outcomes {
        println!(
            "{:<56} {}  errors: {}  warnings: {}",
            format!("{} ({})", o.tool, o.spec),
            if o.ok { "ok    " } else { "FAILED" },
            o.errors,
            o.warnings
        );
    }
    let failed: Vec<String> = outcomes
        .iter()
        .filter(|o| !o.ok)
        .map(|o| format!("{} ({})", o.tool, o.spec))
        .collect();
    if failed.is_empty() {
        Ok(())
    } else {
        bail!("spec lint failed: {}", failed.join(", "))
    }
}

/// Runs redocly, spectral and openapi-spec-validator on `spec`.
fn lint(
    root: &Path,
    node: &Path,
    venv: &Path,
    spec: &'static str,
    outcomes: &mut Vec<Outcome>,
) -> Result<()> {
    println!("==> redocly lint {spec} ({REDOCLY_CONFIG})");
    let out = run_captured(
        Command::new(node.join("redocly"))
            .current_dir(root)
            .env("REDOCLY_TELEMETRY", "off")
            .env("REDOCLY_SUPPRESS_UPDATE_NOTICE", "true")
            .args([
                "lint",
                "--config",
                REDOCLY_CONFIG,
                "--format",
                "codeframe",
                spec,
            ]),
        "redocly",
    )?;
    outcomes.push(Outcome::from_summary("redocly", spec, &out));

    println!("==> spectral lint {spec} ({SPECTRAL_RULESET})");
    let out = run_captured(
        Command::new(node.join("spectral")).current_dir(root).args([
            "lint",
            "--ruleset",
            SPECTRAL_RULESET,
            "--format",
            "stylish",
            spec,
        ]),
        "spectral",
    )?;
    outcomes.push(Outcome::from_summary("spectral", spec, &out));

    println!("==> openapi-spec-validator {spec}");
    let out = run_captured(
        Command::new(venv.join("openapi-spec-validator"))
            .current_dir(root)
            .arg(spec),
        "openapi-spec-validator",
    )?;
    outcomes.push(Outcome {
        tool: "openapi-spec-validator",
        spec,
        ok: out.status.success(),
        errors: usize::from(!out.status.success()),
        warnings: 0,
    });
    Ok(())
}

/// The largest count written as `<n> <word>` or `<n> <word>s` in `text`
/// (tools print a summary like "3 warnings" or "(1 error, 2 warnings)").
fn count_before(text: &str, word: &str) -> usize {
    let tokens: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == ',' || c == '(' || c == ')' || c == '.')
        .filter(|t| !t.is_empty())
        .collect();
    tokens
        .windows(2)
        .filter(|w| {
            let w1 = w[1].to_ascii_lowercase();
            w1 == word || w1 == format!("{word}s")
        })
        .filter_map(|w| w[0].parse::<usize>().ok())
        .max()
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::count_before;

    #[test]
    fn counts_summary_lines() {
        assert_eq!(count_before("You have 3 warnings.", "warning"), 3);
        assert_eq!(
            count_before("✖ 5 problems (1 error, 4 warnings, 0 infos)", "error"),
            1
        );
        assert_eq!(
            count_before("✖ 5 problems (1 error, 4 warnings, 0 infos)", "warning"),
            4
        );
        assert_eq!(
            count_before("Woohoo! Your API description is valid.", "warning"),
            0
        );
    }
}
