//! The spec's schemas that the generated client holds as hand-written
//! types: read by the client's generation (`codegen`) and by the SDK's
//! records (`sdk_records`), which hold those fields as the same types.

/// Spec schemas replaced by hand-written types. The decimal newtypes keep
/// money out of `f64`; the closed enums are `crossborder-core`'s own, so their
/// wire spellings are written once and no crate maps one copy to another.
pub const REPLACEMENTS: &[(&str, &str)] = &[
    ("Amount", "crate::decimal::Amount"),
    // Same wire form as Amount; the bound is checked by crossborder-core's rules.
    ("PositiveAmount", "crate::decimal::Amount"),
    ("DecimalString", "crate::decimal::DecimalString"),
    ("Timestamp", "crate::timestamp::Timestamp"),
    ("Currency", "crossborder_core::Currency"),
    ("Rail", "crossborder_core::Rail"),
    ("BusinessType", "crossborder_core::kyb::BusinessType"),
    (
        "ProofOfAddressType",
        "crossborder_core::kyb::ProofOfAddressType",
    ),
    ("IdType", "crossborder_core::kyb::IdType"),
];
