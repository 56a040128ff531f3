//! Reading an OpenAPI document as YAML values, for the generators that
//! follow its schemas property by property (`views`, `enums`,
//! `sdk_records`, `control_views`).

use anyhow::{bail, Context, Result};
use serde_yaml_ng::{Mapping, Value};

/// The document's `components.schemas`; `document` names it in an error.
pub fn component_schemas(text: &str, document: &str) -> Result<Mapping> {
    let spec: Value =
        serde_yaml_ng::from_str(text).with_context(|| format!("{document} is not valid YAML"))?;
    spec.get("components")
        .and_then(|c| c.get("schemas"))
        .and_then(Value::as_mapping)
        .cloned()
        .with_context(|| format!("{document} has no components.schemas"))
}

/// The component schema `name`, or an error naming it.
pub fn schema<'s>(schemas: &'s Mapping, name: &str) -> Result<&'s Value> {
    schemas
        .get(name)
        .with_context(|| format!("component schema `{name}` not found"))
}

/// The properties of the object schema `name`, in the document's order.
pub fn properties<'s>(schema: &'s Value, name: &str) -> Result<Vec<(&'s str, &'s Value)>> {
    schema
        .get("properties")
        .and_then(Value::as_mapping)
        .with_context(|| format!("`{name}` has no properties"))?
        .iter()
        .map(|(key, value)| {
            Ok((
                key.as_str().context("a property name is not a string")?,
                value,
            ))
        })
        .collect()
}

/// The names in a schema's `required`.
pub fn required(schema: &Value) -> Vec<&str> {
    schema
        .get("required")
        .and_then(Value::as_sequence)
        .map(|list| list.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// The schema of an open enumeration's known values: a string schema
/// written `anyOf: [{$ref: '#/components/schemas/Known<Name>'}, {type:
/// string}]`, so other languages' generators name the known values and
/// still accept any other string (ASSUMPTIONS G1). `Known<Name>` is a
/// string `enum` with its `x-enum-descriptions`. `None` for any other
/// schema.
pub fn open_enum_known<'s>(
    schemas: &'s Mapping,
    name: &str,
    schema: &Value,
) -> Result<Option<&'s Value>> {
    let Some(branches) = schema.get("anyOf") else {
        return Ok(None);
    };
    let known = format!("Known{name}");
    match branches.as_sequence().map(Vec::as_slice) {
        Some([first, any])
            if reference(first).as_deref() == Some(known.as_str())
                && any.get("type").and_then(Value::as_str) == Some("string")
                && any.as_mapping().is_some_and(|m| m.len() == 1) =>
        {
            let target = self::schema(schemas, &known)?;
            if target.get("enum").is_none() {
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

/// A `description`, on one line.
pub fn description(value: &Value) -> Option<String> {
    let text = value.get("description").and_then(Value::as_str)?;
    Some(text.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// The component a property names by `$ref`, or by a one-element `allOf`
/// (how a `$ref` carries a description in OpenAPI 3.0).
pub fn reference(property: &Value) -> Option<String> {
    let text = property.get("$ref").and_then(Value::as_str).or_else(|| {
        match property
            .get("allOf")
            .and_then(Value::as_sequence)?
            .as_slice()
        {
            [only] => only.get("$ref").and_then(Value::as_str),
            _ => None,
        }
    })?;
    text.strip_prefix("#/components/schemas/")
        .map(str::to_owned)
}
