//! The one reading of an OpenAPI document that every generator shares: the
//! typed model of `openapiv3` (the one progenitor reads), parsed once by
//! `codegen`, and the questions the generators that follow its schemas
//! property by property (`views`, `enums`, `sdk_records`, `control_views`)
//! ask of it.

use anyhow::{bail, Context, Result};
use openapiv3::{
    AdditionalProperties, OpenAPI, ReferenceOr, Schema, SchemaKind, Type, VariantOrUnknownOrEmpty,
};

/// The document `text`; `document` names it in an error.
pub fn parse(text: &str, document: &str) -> Result<OpenAPI> {
    serde_yaml_ng::from_str(text)
        .with_context(|| format!("{document} is not a valid OpenAPI 3.0 document"))
}

/// A property, an array's items or a map's values: a `$ref` or a schema.
#[derive(Clone, Copy)]
pub enum Prop<'s> {
    Ref(&'s str),
    Inline(&'s Schema),
}

impl<'s> From<&'s ReferenceOr<Box<Schema>>> for Prop<'s> {
    fn from(value: &'s ReferenceOr<Box<Schema>>) -> Self {
        match value {
            ReferenceOr::Reference { reference } => Prop::Ref(reference),
            ReferenceOr::Item(schema) => Prop::Inline(schema),
        }
    }
}

impl<'s> From<&'s ReferenceOr<Schema>> for Prop<'s> {
    fn from(value: &'s ReferenceOr<Schema>) -> Self {
        match value {
            ReferenceOr::Reference { reference } => Prop::Ref(reference),
            ReferenceOr::Item(schema) => Prop::Inline(schema),
        }
    }
}

impl<'s> Prop<'s> {
    /// The component this names by `$ref`, or by a one-element `allOf`
    /// (how a `$ref` carries a description in OpenAPI 3.0).
    pub fn reference(self) -> Option<String> {
        let reference = match self {
            Prop::Ref(reference) => reference,
            Prop::Inline(schema) => match &schema.schema_kind {
                SchemaKind::AllOf { all_of } => match all_of.as_slice() {
                    [ReferenceOr::Reference { reference }] => reference,
                    _ => return None,
                },
                _ => return None,
            },
        };
        reference
            .strip_prefix("#/components/schemas/")
            .map(str::to_owned)
    }

    /// The component a bare `$ref` names (not one inside `allOf`).
    pub fn bare_reference(self) -> Option<String> {
        match self {
            Prop::Ref(_) => self.reference(),
            Prop::Inline(_) => None,
        }
    }

    /// The schema written in place, if not a bare `$ref`.
    pub fn inline(self) -> Option<&'s Schema> {
        match self {
            Prop::Inline(schema) => Some(schema),
            Prop::Ref(_) => None,
        }
    }
}

/// The component schema `name`, or an error naming it.
pub fn schema<'s>(spec: &'s OpenAPI, name: &str) -> Result<&'s Schema> {
    match spec.components.as_ref().and_then(|c| c.schemas.get(name)) {
        Some(ReferenceOr::Item(schema)) => Ok(schema),
        Some(ReferenceOr::Reference { .. }) => bail!("component schema `{name}` is a `$ref`"),
        None => bail!("component schema `{name}` not found"),
    }
}

/// The names of the component schemas, in the document's order.
pub fn schema_names(spec: &OpenAPI) -> Vec<&str> {
    spec.components
        .iter()
        .flat_map(|c| c.schemas.keys())
        .map(String::as_str)
        .collect()
}

/// The `type` of a schema (`string`, `object`...), if it says one.
pub fn type_name(schema: &Schema) -> Option<&str> {
    match &schema.schema_kind {
        SchemaKind::Type(Type::String(_)) => Some("string"),
        SchemaKind::Type(Type::Number(_)) => Some("number"),
        SchemaKind::Type(Type::Integer(_)) => Some("integer"),
        SchemaKind::Type(Type::Boolean(_)) => Some("boolean"),
        SchemaKind::Type(Type::Object(_)) => Some("object"),
        SchemaKind::Type(Type::Array(_)) => Some("array"),
        SchemaKind::Any(any) => any.typ.as_deref(),
        _ => None,
    }
}

/// The `type` of what `prop` holds in place (`None` for a `$ref`).
pub fn prop_type(prop: Prop<'_>) -> Option<&str> {
    prop.inline().and_then(type_name)
}

/// The properties of the object schema `name`, in the document's order.
pub fn properties<'s>(schema: &'s Schema, name: &str) -> Result<Vec<(&'s str, Prop<'s>)>> {
    let properties = match &schema.schema_kind {
        SchemaKind::Type(Type::Object(object)) => &object.properties,
        SchemaKind::Any(any) => &any.properties,
        _ => bail!("`{name}` has no properties"),
    };
    if properties.is_empty() {
        bail!("`{name}` has no properties");
    }
    Ok(properties
        .iter()
        .map(|(key, value)| (key.as_str(), value.into()))
        .collect())
}

/// Whether the schema is an object with properties.
pub fn is_object(schema: &Schema) -> bool {
    matches!(&schema.schema_kind, SchemaKind::Type(Type::Object(o)) if !o.properties.is_empty())
}

/// The names in a schema's `required`.
pub fn required(schema: &Schema) -> Vec<&str> {
    let required = match &schema.schema_kind {
        SchemaKind::Type(Type::Object(object)) => &object.required,
        SchemaKind::Any(any) => &any.required,
        _ => return Vec::new(),
    };
    required.iter().map(String::as_str).collect()
}

/// The schema of a map's values (`additionalProperties`), if it has one.
pub fn map_values(schema: &Schema) -> Option<Prop<'_>> {
    let additional = match &schema.schema_kind {
        SchemaKind::Type(Type::Object(object)) => object.additional_properties.as_ref(),
        SchemaKind::Any(any) => any.additional_properties.as_ref(),
        _ => None,
    }?;
    match additional {
        AdditionalProperties::Schema(values) => Some(values.as_ref().into()),
        AdditionalProperties::Any(_) => None,
    }
}

/// An array's `items`.
pub fn items(schema: &Schema) -> Option<Prop<'_>> {
    match &schema.schema_kind {
        SchemaKind::Type(Type::Array(array)) => array.items.as_ref().map(Into::into),
        SchemaKind::Any(any) => any.items.as_ref().map(Into::into),
        _ => None,
    }
}

/// Whether a string schema constrains its text: an `enum`, `pattern`,
/// `minLength`, `maxLength` or `format`.
pub fn constrained_string(schema: &Schema) -> bool {
    match &schema.schema_kind {
        SchemaKind::Type(Type::String(s)) => {
            !s.enumeration.is_empty()
                || s.pattern.is_some()
                || s.min_length.is_some()
                || s.max_length.is_some()
                || !matches!(s.format, VariantOrUnknownOrEmpty::Empty)
        }
        SchemaKind::Any(any) => {
            !any.enumeration.is_empty()
                || any.pattern.is_some()
                || any.min_length.is_some()
                || any.max_length.is_some()
                || any.format.is_some()
        }
        _ => false,
    }
}

/// An integer schema's `minimum`.
pub fn minimum(schema: &Schema) -> Option<i64> {
    match &schema.schema_kind {
        SchemaKind::Type(Type::Integer(integer)) => integer.minimum,
        _ => None,
    }
}

/// A string schema's `enum` values, if it lists any.
pub fn enum_values<'s>(schema: &'s Schema, name: &str) -> Result<Option<Vec<&'s str>>> {
    match &schema.schema_kind {
        SchemaKind::Type(Type::String(s)) if !s.enumeration.is_empty() => s
            .enumeration
            .iter()
            .map(|value| {
                value
                    .as_deref()
                    .with_context(|| format!("`{name}`: a value is not a string"))
            })
            .collect::<Result<_>>()
            .map(Some),
        SchemaKind::Any(any) if !any.enumeration.is_empty() => {
            bail!("`{name}`: only string enumerations are generated")
        }
        _ => Ok(None),
    }
}

/// The extension `key` (`x-rust-type`) of a schema.
pub fn extension<'s>(schema: &'s Schema, key: &str) -> Option<&'s serde_json::Value> {
    schema.schema_data.extensions.get(key)
}

/// The text of the extension `key` of a schema, or an error if it is not
/// text.
pub fn extension_text<'s>(schema: &'s Schema, key: &str, at: &str) -> Result<Option<&'s str>> {
    extension(schema, key)
        .map(|value| {
            value
                .as_str()
                .with_context(|| format!("`{at}`: `{key}` is not a string"))
        })
        .transpose()
}

/// A schema's `description`, on one line.
pub fn description(schema: &Schema) -> Option<String> {
    let text = schema.schema_data.description.as_deref()?;
    Some(text.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// The `description` written beside a property (none for a bare `$ref`).
pub fn prop_description(prop: Prop<'_>) -> Option<String> {
    prop.inline().and_then(description)
}

/// The schema of an open enumeration's known values: a string schema
/// written `anyOf: [{$ref: '#/components/schemas/Known<Name>'}, {type:
/// string}]`, so other languages' generators name the known values and
/// still accept any other string (ASSUMPTIONS G1). `Known<Name>` is a
/// string `enum` with its `x-enum-descriptions`. `None` for any other
/// schema.
pub fn open_enum_known<'s>(
    spec: &'s OpenAPI,
    name: &str,
    schema: &Schema,
) -> Result<Option<&'s Schema>> {
    let branches = match &schema.schema_kind {
        SchemaKind::AnyOf { any_of } => any_of,
        SchemaKind::Any(any) if !any.any_of.is_empty() => &any.any_of,
        _ => return Ok(None),
    };
    let known = format!("Known{name}");
    let is_plain_string = |branch: &ReferenceOr<Schema>| match branch {
        ReferenceOr::Item(s) => {
            matches!(&s.schema_kind, SchemaKind::Type(Type::String(string))
                if string.enumeration.is_empty()
                    && string.pattern.is_none()
                    && string.min_length.is_none()
                    && string.max_length.is_none()
                    && matches!(string.format, VariantOrUnknownOrEmpty::Empty))
                && s.schema_data.description.is_none()
                && s.schema_data.extensions.is_empty()
        }
        ReferenceOr::Reference { .. } => false,
    };
    match branches.as_slice() {
        [first, any]
            if Prop::from(first).reference().as_deref() == Some(known.as_str())
                && is_plain_string(any) =>
        {
            let target = self::schema(spec, &known)?;
            if enum_values(target, &known)?.is_none() {
                bail!("`{known}` has no `enum`");
            }
            Ok(Some(target))
        }
        _ => bail!(
            "`{name}`: an `anyOf` is only an open enumeration, \
             `[{{$ref: '#/components/schemas/{known}'}}, {{type: string}}]`"
        ),
    }
}
