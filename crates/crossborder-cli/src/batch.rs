//! A data file checked or sent element by element: one JSON body, or an
//! array of them; the verdict's JSON shape and each line's `[index]`.

use serde::Serialize;
use serde_json::{json, Value};

/// Whether `json` is a batch (an array), and its elements.
pub fn elements(json: &Value) -> (bool, Vec<&Value>) {
    match json {
        Value::Array(items) => (true, items.iter().collect()),
        other => (false, vec![other]),
    }
}

/// The verdicts as JSON: the one verdict for a single body; for a batch
/// `{"valid", "items": [...]}`, each item the verdict with its `index`.
pub fn verdicts_json<V: Serialize>(batch: bool, verdicts: &[V], valid: bool) -> Value {
    let shown = |verdict: &V| serde_json::to_value(verdict).unwrap_or_default();
    if !batch {
        return verdicts.first().map(shown).unwrap_or_default();
    }
    json!({
        "valid": valid,
        "items": verdicts
            .iter()
            .enumerate()
            .map(|(index, verdict)| {
                let mut item = shown(verdict);
                item["index"] = json!(index);
                item
            })
            .collect::<Vec<_>>(),
    })
}

/// What starts each line about element `index`: `[index] ` in a batch.
pub fn prefix(batch: bool, index: usize) -> String {
    if batch {
        format!("[{index}] ")
    } else {
        String::new()
    }
}
