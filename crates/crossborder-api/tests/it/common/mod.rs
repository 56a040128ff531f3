//! Helpers shared by the integration tests: loading the spec.

#![allow(dead_code)]

use std::path::PathBuf;

/// Path of `openapi/crossborder.yaml` from this crate's manifest dir.
pub fn spec_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../openapi/crossborder.yaml")
}

/// The spec as a JSON value (YAML numbers become JSON numbers).
pub fn load_spec() -> serde_json::Value {
    let text = std::fs::read_to_string(spec_path()).expect("read openapi/crossborder.yaml");
    serde_yaml_ng::from_str(&text).expect("openapi/crossborder.yaml is valid YAML")
}

/// HTTP methods that can hold an operation in a path item.
pub const METHODS: [&str; 8] = [
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

/// Whether a request body offers only multipart content (the operations the
/// code generator skips; mirrors `xtask/src/preprocess.rs`).
pub fn is_multipart_only(operation: &serde_json::Value) -> bool {
    let Some(content) = operation
        .pointer("/requestBody/content")
        .and_then(|c| c.as_object())
    else {
        return false;
    };
    !content.is_empty()
        && content
            .keys()
            .all(|ct| ct.trim().to_ascii_lowercase().starts_with("multipart/"))
}
