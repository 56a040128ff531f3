//! The summary: the figures written to `target/bench/summary.json` with the
//! command, the date, the machine and the git state, and printed.

use std::path::Path;
use std::process::{Command, Stdio};

use anyhow::{Context, Result};
use serde_json::{json, Value};

use super::{Figure, Options, SUMMARY_FILE};

pub(super) fn report(root: &Path, options: &Options, figures: &[Figure]) -> Result<()> {
    let nproc = std::thread::available_parallelism().map_or(0, std::num::NonZero::get);
    let command = std::iter::once("crossborder-bench".to_owned())
        .chain(std::env::args().skip(1))
        .collect::<Vec<_>>()
        .join(" ");
    println!();
    println!(
        "{command} ({} builds, nproc {nproc}, {})",
        if options.release { "release" } else { "debug" },
        utc_now()
    );
    println!(
        "{:<30} {:>12} {:>10} {:>6}  {:<6} detail",
        "figure", "value", "goal", "met", "unit"
    );
    for f in figures {
        println!(
            "{:<30} {:>12.3} {:>10} {:>6}  {:<6} {}",
            f.name,
            f.value,
            format!("{}{}", if f.below { "<" } else { ">=" }, f.goal),
            if f.met() { "yes" } else { "NO" },
            f.unit,
            f.detail
        );
    }
    let mut summary = serde_json::Map::new();
    for f in figures {
        summary.insert(
            f.name.to_owned(),
            json!({"value": round(f.value, 3), "goal": f.goal, "met": f.met(), "unit": f.unit, "detail": f.detail}),
        );
    }
    summary.insert(
        "_run".to_owned(),
        json!({"command": command, "date": utc_now(), "quick": options.quick,
               "release": options.release, "nproc": nproc, "git": git_state(root)}),
    );
    let out = root.join(SUMMARY_FILE);
    let text =
        serde_json::to_string_pretty(&Value::Object(summary)).context("serialising the results")?;
    std::fs::write(&out, text + "\n").with_context(|| format!("writing {}", out.display()))?;
    println!("wrote {SUMMARY_FILE}");
    Ok(())
}

fn round(x: f64, places: i32) -> f64 {
    let f = 10f64.powi(places);
    (x * f).round() / f
}

/// Trimmed stdout of a command that succeeded, or `None`.
fn command_line_output(cmd: &mut Command) -> Option<String> {
    let out = cmd.stderr(Stdio::null()).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

fn git_state(root: &Path) -> Value {
    let head = command_line_output(
        Command::new("git")
            .current_dir(root)
            .args(["rev-parse", "HEAD"]),
    );
    let dirty = command_line_output(Command::new("git").current_dir(root).args([
        "status",
        "--porcelain",
        "--untracked-files=normal",
    ]))
    .map(|s| !s.is_empty());
    json!({ "head": head, "dirty": dirty })
}

/// Now as `YYYY-MM-DDTHH:MM:SSZ`, by the `time` crate (as the sandbox
/// formats its timestamps).
fn utc_now() -> String {
    let now = time::OffsetDateTime::now_utc();
    now.replace_nanosecond(0)
        .unwrap_or(now)
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::utc_now;

    #[test]
    fn the_report_date_is_rfc3339_to_the_second() {
        let now = utc_now();
        assert_eq!(now.len(), 20, "{now}");
        assert!(now.starts_with("20") && now.ends_with('Z'), "{now}");
        assert_eq!(&now[10..11], "T", "{now}");
    }
}
