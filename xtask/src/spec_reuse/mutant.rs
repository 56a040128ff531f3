//! The self-test of `spec-reuse`: a copy of the spec with one response
//! field renamed, which both examples must fail on, naming the field, so
//! the step is shown to be able to fail.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use serde_yaml_ng::Value;

const SCHEMA: &str = "Transaction";
const FIELD: &str = "paidAmount";
const RENAMED: &str = "amountPaid";

pub const DESCRIPTION: &str =
    "both clients generated from a copy of the spec whose Transaction.paidAmount is renamed amountPaid must fail";
/// How each language's failure names the field: tsc's "Property
/// 'paidAmount' does not exist"; Python's "no attribute 'paid_amount'" when
/// the field is optional, or the model's `KeyError: 'amountPaid'` when the
/// schema requires it (the answer lacks it).
pub const TS_NAMES: &[&str] = &["'paidAmount'"];
pub const PY_NAMES: &[&str] = &["'paid_amount'", "'amountPaid'"];

/// Writes the mutated copy of `spec` into `dir`; returns its path.
pub fn write(spec: &Path, dir: &Path) -> Result<PathBuf> {
    let text =
        std::fs::read_to_string(spec).with_context(|| format!("reading {}", spec.display()))?;
    let mutated = rename(&text)?;
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let path = dir.join("crossborder.yaml");
    std::fs::write(&path, mutated).with_context(|| format!("writing {}", path.display()))?;
    Ok(path)
}

/// The spec's text with `Transaction.paidAmount` renamed `amountPaid`
/// (in its properties and, when there, its `required` list).
pub fn rename(spec: &str) -> Result<String> {
    let mut doc: Value = serde_yaml_ng::from_str(spec).context("the spec is not YAML")?;
    let schema = doc
        .get_mut("components")
        .and_then(|c| c.get_mut("schemas"))
        .and_then(|s| s.get_mut(SCHEMA))
        .with_context(|| format!("the spec has no schema {SCHEMA}"))?;
    let properties = schema
        .get_mut("properties")
        .and_then(Value::as_mapping_mut)
        .with_context(|| format!("{SCHEMA} has no properties"))?;
    let value = properties
        .remove(FIELD)
        .with_context(|| format!("{SCHEMA} has no property {FIELD}"))?;
    properties.insert(Value::from(RENAMED), value);
    if let Some(required) = schema.get_mut("required").and_then(Value::as_sequence_mut) {
        for name in required.iter_mut() {
            if name.as_str() == Some(FIELD) {
                *name = Value::from(RENAMED);
            }
        }
    }
    serde_yaml_ng::to_string(&doc).context("writing the mutated spec")
}

/// Fails unless the run failed and its output holds one of `needles`
/// (what the example says of the cause the self-test planted).
pub fn expect_failure(language: &str, passed: bool, output: &str, needles: &[&str]) -> Result<()> {
    let shown = needles.join(" or ");
    if passed {
        bail!(
            "self-test: the {language} example passed where it must fail (on {shown}): \
             spec-reuse could not catch a broken spec or a wrong amount"
        );
    }
    let Some(found) = needles.iter().find(|n| output.contains(*n)) else {
        bail!(
            "self-test: the {language} example failed, but its output holds none of {shown}, \
             so it failed for another reason (output above)"
        );
    };
    println!("self-test: the {language} example failed on {found}, as it must");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rename_moves_the_field_and_keeps_the_rest() {
        let spec = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../openapi/crossborder.yaml"),
        )
        .unwrap();
        let mutated: Value = serde_yaml_ng::from_str(&rename(&spec).unwrap()).unwrap();
        let original: Value = serde_yaml_ng::from_str(&spec).unwrap();
        let props = |doc: &Value| doc["components"]["schemas"][SCHEMA]["properties"].clone();
        assert!(props(&mutated).get(FIELD).is_none());
        assert_eq!(props(&mutated)[RENAMED], props(&original)[FIELD]);
        let count = |doc: &Value| props(doc).as_mapping().unwrap().len();
        assert_eq!(count(&mutated), count(&original));
        assert_eq!(mutated["paths"], original["paths"]);
    }

    #[test]
    fn a_passing_run_or_a_failure_for_another_reason_fails_the_self_test() {
        let err = expect_failure("Python", true, "", PY_NAMES).unwrap_err();
        assert!(
            err.to_string().contains("could not catch a broken spec"),
            "{err}"
        );
        let err = expect_failure("Python", false, "ConnectionRefused", PY_NAMES).unwrap_err();
        assert!(err.to_string().contains("for another reason"), "{err}");
        expect_failure("Python", false, "no attribute 'paid_amount'", PY_NAMES).unwrap();
        expect_failure("Python", false, "KeyError: 'amountPaid'", PY_NAMES).unwrap();
    }
}
