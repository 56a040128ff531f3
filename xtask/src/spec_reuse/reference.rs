//! The amounts the Rust SDK reads for the requests of the examples' flow
//! (`examples/python/flow.py`, `examples/typescript/src/flow.ts`), the
//! reference each example compares every amount it reads with, by name, as
//! exact decimals. The SDK's run is `crossborder-bench
//! spec-reuse-reference` (`bench/src/reference.rs`), so that xtask depends
//! on no crate it generates code into; this runs it and reads its JSON.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Stdio};

use anyhow::{bail, Context, Result};
use rust_decimal::Decimal;

use crate::process::{cargo_build, Profile};

/// Name -> amount, as the SDK read it.
pub type Readings = BTreeMap<String, String>;

/// The package whose binary runs the SDK's flow.
const PACKAGE: &str = "crossborder-bench";

/// Runs the flow's money steps with `api_key` against the sandbox at
/// `base_url` through the SDK; returns every amount read.
pub fn run(root: &Path, base_url: &str, api_key: &str) -> Result<Readings> {
    let exe = cargo_build(root, PACKAGE, Profile::Dev)?;
    let output = Command::new(&exe)
        .current_dir(root)
        .args(["spec-reuse-reference", "--base-url", base_url])
        .args(["--api-key", api_key])
        .stdin(Stdio::null())
        .stderr(Stdio::inherit())
        .output()
        .with_context(|| format!("running {}", exe.display()))?;
    if !output.status.success() {
        bail!("{PACKAGE} spec-reuse-reference failed ({})", output.status);
    }
    serde_json::from_slice(&output.stdout)
        .with_context(|| format!("reading the amounts {PACKAGE} printed"))
}

/// The reading the self-test changes, and by how much: one millionth, a
/// difference binary floating point would also show.
const TAMPERED: &str = "quote.fee";

/// `readings` with one amount changed by 0.000001: both examples must fail
/// on it, so their comparison with the Rust SDK is shown to be able to fail.
pub fn tampered(readings: &Readings) -> Result<(Readings, &'static str)> {
    let mut out = readings.clone();
    let value = out
        .get_mut(TAMPERED)
        .with_context(|| format!("the reference has no {TAMPERED}"))?;
    let read: Decimal = value
        .parse()
        .with_context(|| format!("the reference's {TAMPERED} {value} is not a decimal"))?;
    *value = (read + Decimal::new(1, 6)).to_string();
    Ok((out, TAMPERED))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tampering_changes_one_amount_by_a_millionth() {
        let readings: Readings = [("quote.fee", "0.62"), ("quote.rate", "1530.25")]
            .into_iter()
            .map(|(k, v)| (k.to_owned(), v.to_owned()))
            .collect();
        let (tampered, name) = tampered(&readings).unwrap();
        assert_eq!(name, "quote.fee");
        assert_eq!(tampered["quote.fee"], "0.620001");
        assert_eq!(tampered["quote.rate"], "1530.25");
    }
}
