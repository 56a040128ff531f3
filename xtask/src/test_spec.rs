//! The spec as the codegen tests read it, and the edit they make to it.

/// The API's spec, as committed.
pub(crate) fn spec() -> String {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    std::fs::read_to_string(root.join(crate::SPEC_PATH)).unwrap()
}

/// The spec with a new plain text field, `purposeCode`, in the payout
/// request just before `recipientName`: what adding a field to the spec
/// looks like, for the tests that follow it into the generated files.
pub(crate) fn spec_with_purpose_code() -> String {
    spec().replacen(
        "        recipientName:\n",
        "        purposeCode:\n          type: string\n        recipientName:\n",
        1,
    )
}

/// The spec `text` as the generators read it.
pub(crate) fn model(text: &str) -> openapiv3::OpenAPI {
    crate::spec_model::parse(text, "the spec").unwrap()
}
