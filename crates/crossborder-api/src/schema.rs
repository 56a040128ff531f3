//! The JSON Schema of the hand-written wire scalars ([`Amount`],
//! [`DecimalString`], [`Timestamp`]), which carry the spec's `format`
//! rather than a Rust type's shape: each type implements
//! `schemars::JsonSchema` with [`impl_scalar_schema!`] when the `schemars`
//! feature is on (without it the macro expands to nothing).
//!
//! [`Amount`]: crate::decimal::Amount
//! [`DecimalString`]: crate::decimal::DecimalString
//! [`Timestamp`]: crate::timestamp::Timestamp

#[cfg(feature = "schemars")]
use schemars::schema::{InstanceType, Metadata, Schema, SchemaObject, StringValidation};

/// A scalar of `instance_type` with the spec's `format`, and its `pattern`
/// and `description` where it has them.
#[cfg(feature = "schemars")]
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

/// Implements `schemars::JsonSchema` for the wire scalar `$ty`: a schema
/// named after the type, of JSON type `$instance_type`
/// (`schemars::schema::InstanceType`), with the spec's `format`, and its
/// `pattern` and `description` where given; nothing without the `schemars`
/// feature.
macro_rules! impl_scalar_schema {
    (
        $ty:ident,
        $instance_type:ident,
        format = $format:literal
        $(, pattern = $pattern:literal)?
        $(, description = $description:literal)?
        $(,)?
    ) => {
        #[cfg(feature = "schemars")]
        impl schemars::JsonSchema for $ty {
            fn schema_name() -> String {
                stringify!($ty).to_string()
            }

            fn json_schema(_gen: &mut schemars::gen::SchemaGenerator) -> schemars::schema::Schema {
                $crate::schema::scalar(
                    schemars::schema::InstanceType::$instance_type,
                    $format,
                    $crate::schema::impl_scalar_schema!(@option $($pattern)?),
                    $crate::schema::impl_scalar_schema!(@option $($description)?),
                )
            }
        }
    };
    (@option) => {
        None
    };
    (@option $value:literal) => {
        Some($value)
    };
}

pub(crate) use impl_scalar_schema;
