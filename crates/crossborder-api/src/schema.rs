//! The JSON Schema of the hand-written wire scalars ([`Amount`],
//! [`DecimalString`], [`Timestamp`]), which carry the spec's `format`
//! rather than a Rust type's shape.
//!
//! [`Amount`]: crate::decimal::Amount
//! [`DecimalString`]: crate::decimal::DecimalString
//! [`Timestamp`]: crate::timestamp::Timestamp

use schemars::schema::{InstanceType, Metadata, Schema, SchemaObject, StringValidation};

/// A scalar of `instance_type` with the spec's `format`, and its `pattern`
/// and `description` where it has them.
pub(crate) fn scalar(
    instance_type: InstanceType,
    format: &str,
    pattern: Option<&str>,
    description: Option<&str>,
) -> Schema {
    SchemaObject {
        instance_type: Some(instance_type.into()),
        format: Some(format.to_string()),
        string: pattern.map(|pattern| {
            Box::new(StringValidation {
                pattern: Some(pattern.to_string()),
                ..Default::default()
            })
        }),
        metadata: description.map(|description| {
            Box::new(Metadata {
                description: Some(description.to_string()),
                ..Default::default()
            })
        }),
        ..Default::default()
    }
    .into()
}
