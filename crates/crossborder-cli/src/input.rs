//! Request bodies given on the command line: the API's own JSON, from a
//! file or `-` for stdin.

use std::io::Read;
use std::path::Path;

use serde_json::Value;

use crate::failure::Failure;

/// Reads `path` (`-` is stdin) as JSON.
pub fn read_json(path: &Path) -> Result<Value, Failure> {
    let text = if path == Path::new("-") {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| Failure::usage(format!("cannot read stdin: {e}")))?;
        text
    } else {
        std::fs::read_to_string(path)
            .map_err(|e| Failure::usage(format!("cannot read {}: {e}", path.display())))?
    };
    serde_json::from_str(&text).map_err(|e| {
        Failure::usage(format!(
            "{} is not JSON: {e}",
            if path == Path::new("-") {
                "stdin".to_owned()
            } else {
                path.display().to_string()
            }
        ))
    })
}
