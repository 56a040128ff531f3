//! In-memory adjustments of the OpenAPI document before progenitor sees it.
//!
//! The spec file is never changed: each adjustment works around a limit of
//! progenitor/typify and is reported on stdout so nothing happens silently.

use std::collections::BTreeMap;

use heck::ToSnakeCase;
use openapiv3::{OpenAPI, Operation, PathItem, ReferenceOr, RequestBody, Schema, SchemaKind, Type};

/// A property renamed in the generator input, to be renamed back in the
/// generated code (`postprocess`) so the wire key stays as the spec spells
/// it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WireRename {
    /// The placeholder property name given to typify (e.g. `TIN_UPPERCASE`).
    pub sentinel: String,
    /// The real wire key (e.g. `TIN`).
    pub wire: String,
}

/// What preprocessing did, for reporting and for post-processing.
#[derive(Debug, Default)]
pub struct Report {
    /// Human-readable notes, one per adjustment.
    pub notes: Vec<String>,
    /// Renames to undo in the generated code.
    pub renames: Vec<WireRename>,
}

/// Applies every adjustment to `spec`.
pub fn preprocess(spec: &mut OpenAPI) -> Report {
    let mut report = Report::default();
    skip_multipart_operations(spec, &mut report);
    drop_error_responses(spec, &mut report);
    disambiguate_case_collisions(spec, &mut report);
    note_callbacks(spec, &mut report);
    open_enums_as_strings(spec, &mut report);
    report
}

fn operations_mut(item: &mut PathItem) -> [(&'static str, &mut Option<Operation>); 8] {
    [
        ("get", &mut item.get),
        ("put", &mut item.put),
        ("post", &mut item.post),
        ("delete", &mut item.delete),
        ("options", &mut item.options),
        ("head", &mut item.head),
        ("patch", &mut item.patch),
        ("trace", &mut item.trace),
    ]
}

/// Whether a request body offers only `multipart/*` content, which progenitor
/// cannot express.
pub fn is_multipart_only(body: &RequestBody) -> bool {
    !body.content.is_empty()
        && body
            .content
            .keys()
            .all(|ct| ct.trim().to_ascii_lowercase().starts_with("multipart/"))
}

fn resolve_request_body<'a>(
    spec_bodies: Option<&'a openapiv3::Components>,
    body: &'a ReferenceOr<RequestBody>,
) -> Option<&'a RequestBody> {
    match body {
        ReferenceOr::Item(body) => Some(body),
        ReferenceOr::Reference { reference } => {
            let name = reference.strip_prefix("#/components/requestBodies/")?;
            match spec_bodies?.request_bodies.get(name)? {
                ReferenceOr::Item(body) => Some(body),
                ReferenceOr::Reference { .. } => None,
            }
        }
    }
}

/// (a) Removes every operation whose request body is multipart-only.
fn skip_multipart_operations(spec: &mut OpenAPI, report: &mut Report) {
    let components = spec.components.clone();
    for (path, item) in spec.paths.paths.iter_mut() {
        let ReferenceOr::Item(item) = item else {
            continue;
        };
        for (method, slot) in operations_mut(item) {
            let multipart = slot
                .as_ref()
                .and_then(|op| op.request_body.as_ref())
                .and_then(|body| resolve_request_body(components.as_ref(), body))
                .is_some_and(is_multipart_only);
            if multipart {
                let id = slot
                    .as_ref()
                    .and_then(|op| op.operation_id.clone())
                    .unwrap_or_else(|| format!("{} {path}", method.to_uppercase()));
                report.notes.push(format!(
                    "skipping {id} ({} {path}): multipart/form-data is not supported by progenitor; the SDK hand-writes it",
                    method.to_uppercase()
                ));
                *slot = None;
            }
        }
    }
}

/// Whether a response key of an operation is an error status (`4XX`,
/// `5XX`, or a code from 400 to 599). `default` is not: progenitor also
/// treats it as a success.
fn is_error_status(key: &openapiv3::StatusCode) -> bool {
    match key {
        openapiv3::StatusCode::Code(code) => (400..=599).contains(code),
        openapiv3::StatusCode::Range(range) => matches!(range, 4 | 5),
    }
}

/// (a2) Removes the 4xx/5xx responses of every operation given to
/// progenitor. For a declared error status, progenitor decodes the body as
/// the declared schema and, when that fails, returns
/// `Error::InvalidResponsePayload(bytes, _)`, which has no status and no
/// headers: a plain-text 429 would lose its status and `Retry-After`, and a
/// body that differs slightly from `ErrorResponse` would not be mapped.
/// With only 2xx responses declared, the generated error type is `()` and
/// every error status arrives as `Error::UnexpectedResponse(response)`, with
/// status, headers and raw body, which the SDK maps tolerantly. The spec
/// itself keeps its documented error responses.
fn drop_error_responses(spec: &mut OpenAPI, report: &mut Report) {
    for (path, item) in spec.paths.paths.iter_mut() {
        let ReferenceOr::Item(item) = item else {
            continue;
        };
        for (method, slot) in operations_mut(item) {
            let Some(op) = slot.as_mut() else { continue };
            let dropped: Vec<String> = op
                .responses
                .responses
                .keys()
                .filter(|key| is_error_status(key))
                .map(ToString::to_string)
                .collect();
            if dropped.is_empty() {
                continue;
            }
            op.responses
                .responses
                .retain(|key, _| !is_error_status(key));
            let id = op
                .operation_id
                .clone()
                .unwrap_or_else(|| format!("{} {path}", method.to_uppercase()));
            report.notes.push(format!(
                "{id} ({} {path}): error responses {} not given to progenitor, so every error status arrives as Error::UnexpectedResponse with its status, headers and raw body (the SDK maps it)",
                method.to_uppercase(),
                dropped.join(", ")
            ));
        }
    }
}

/// (b) typify names a field after the snake case of its property, so `TIN`
/// and `tin` in one object both become `tin` and collide. Every property but
/// one in such a group is renamed to a sentinel (`TIN` -> `TIN_UPPERCASE`);
/// the generated serde renames are mapped back to the wire key afterwards.
fn disambiguate_case_collisions(spec: &mut OpenAPI, report: &mut Report) {
    let mut renames = Vec::new();
    if let Some(components) = spec.components.as_mut() {
        for (name, schema) in components.schemas.iter_mut() {
            if let ReferenceOr::Item(schema) = schema {
                visit_schema(
                    schema,
                    &format!("#/components/schemas/{name}"),
                    &mut |at, props, required| fix_object(at, props, required, &mut renames),
                );
            }
        }
        for (name, body) in components.request_bodies.iter_mut() {
            if let ReferenceOr::Item(body) = body {
                for (ct, media) in body.content.iter_mut() {
                    if let Some(ReferenceOr::Item(schema)) = media.schema.as_mut() {
                        let at = format!("#/components/requestBodies/{name}/{ct}");
                        visit_schema(schema, &at, &mut |at, props, required| {
                            fix_object(at, props, required, &mut renames)
                        });
                    }
                }
            }
        }
    }
    for (path, item) in spec.paths.paths.iter_mut() {
        let ReferenceOr::Item(item) = item else {
            continue;
        };
        for (method, slot) in operations_mut(item) {
            let Some(op) = slot.as_mut() else { continue };
            let media = op
                .request_body
                .iter_mut()
                .filter_map(item_mut)
                .flat_map(|b| b.content.iter_mut())
                .chain(
                    op.responses
                        .responses
                        .values_mut()
                        .filter_map(item_mut)
                        .flat_map(|r| r.content.iter_mut()),
                );
            for (ct, media) in media {
                if let Some(ReferenceOr::Item(schema)) = media.schema.as_mut() {
                    let at = format!("{method} {path} {ct}");
                    visit_schema(schema, &at, &mut |at, props, required| {
                        fix_object(at, props, required, &mut renames)
                    });
                }
            }
        }
    }
    for (at, rename) in renames {
        report.notes.push(format!(
            "{at}: property `{}` collides with another property after snake_case; generating it as `{}` (Rust field `{}`) and mapping the serde name back to \"{}\"",
            rename.wire,
            rename.sentinel,
            rename.sentinel.to_snake_case(),
            rename.wire
        ));
        if !report.renames.contains(&rename) {
            report.renames.push(rename);
        }
    }
}

/// The property map of an `openapiv3` object schema.
type Props = indexmap::IndexMap<String, ReferenceOr<Box<Schema>>>;

fn fix_object(
    at: &str,
    properties: &mut Props,
    required: &mut [String],
    renames: &mut Vec<(String, WireRename)>,
) {
    let mut groups: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for key in properties.keys() {
        groups
            .entry(key.to_snake_case())
            .or_default()
            .push(key.clone());
    }
    let mut plan: Vec<(String, String)> = Vec::new();
    for (snake, names) in groups.into_iter().filter(|(_, n)| n.len() > 1) {
        // Keep the property already spelled in snake case (or the first one).
        let keep = names.iter().position(|n| *n == snake).unwrap_or_default();
        for (i, name) in names.iter().enumerate().filter(|(i, _)| *i != keep) {
            let base = if name.chars().any(|c| c.is_ascii_lowercase()) {
                format!("{name}_VARIANT{i}")
            } else {
                format!("{name}_UPPERCASE")
            };
            let mut sentinel = base.clone();
            let mut n = 2;
            while properties.contains_key(&sentinel) || plan.iter().any(|(_, s)| *s == sentinel) {
                sentinel = format!("{base}{n}");
                n += 1;
            }
            plan.push((name.clone(), sentinel));
        }
    }
    if plan.is_empty() {
        return;
    }
    let old = std::mem::take(properties);
    *properties = old
        .into_iter()
        .map(|(k, v)| match plan.iter().find(|(from, _)| *from == k) {
            Some((_, to)) => (to.clone(), v),
            None => (k, v),
        })
        .collect();
    for r in required.iter_mut() {
        if let Some((_, to)) = plan.iter().find(|(from, _)| from == r) {
            *r = to.clone();
        }
    }
    for (wire, sentinel) in plan {
        renames.push((at.to_string(), WireRename { sentinel, wire }));
    }
}

/// The item of a `ReferenceOr`, if it is not a reference.
fn item_mut<T>(r: &mut ReferenceOr<T>) -> Option<&mut T> {
    match r {
        ReferenceOr::Item(t) => Some(t),
        ReferenceOr::Reference { .. } => None,
    }
}

/// Calls `f` on every object (properties + required) reachable inline from
/// `schema`; `$ref`s are not followed (each component is visited on its own).
fn visit_schema(schema: &mut Schema, at: &str, f: &mut dyn FnMut(&str, &mut Props, &mut [String])) {
    match &mut schema.schema_kind {
        SchemaKind::Type(Type::Object(obj)) => {
            f(at, &mut obj.properties, &mut obj.required);
            for (name, prop) in obj.properties.iter_mut() {
                if let ReferenceOr::Item(prop) = prop {
                    visit_schema(prop, &format!("{at}/properties/{name}"), f);
                }
            }
            if let Some(openapiv3::AdditionalProperties::Schema(s)) =
                obj.additional_properties.as_mut()
            {
                if let ReferenceOr::Item(s) = s.as_mut() {
                    visit_schema(s, &format!("{at}/additionalProperties"), f);
                }
            }
        }
        SchemaKind::Type(Type::Array(arr)) => {
            if let Some(ReferenceOr::Item(items)) = arr.items.as_mut() {
                visit_schema(items, &format!("{at}/items"), f);
            }
        }
        SchemaKind::Type(_) => {}
        SchemaKind::OneOf { one_of: list }
        | SchemaKind::AllOf { all_of: list }
        | SchemaKind::AnyOf { any_of: list } => {
            for (i, s) in list.iter_mut().enumerate() {
                if let ReferenceOr::Item(s) = s {
                    visit_schema(s, &format!("{at}/{i}"), f);
                }
            }
        }
        SchemaKind::Not { not } => {
            if let ReferenceOr::Item(s) = not.as_mut() {
                visit_schema(s, &format!("{at}/not"), f);
            }
        }
        SchemaKind::Any(any) => {
            f(at, &mut any.properties, &mut any.required);
            for (name, prop) in any.properties.iter_mut() {
                if let ReferenceOr::Item(prop) = prop {
                    visit_schema(prop, &format!("{at}/properties/{name}"), f);
                }
            }
            if let Some(ReferenceOr::Item(items)) = any.items.as_mut() {
                visit_schema(items, &format!("{at}/items"), f);
            }
            for (i, s) in any
                .one_of
                .iter_mut()
                .chain(any.all_of.iter_mut())
                .chain(any.any_of.iter_mut())
                .enumerate()
            {
                if let ReferenceOr::Item(s) = s {
                    visit_schema(s, &format!("{at}/{i}"), f);
                }
            }
        }
    }
}

/// (c) progenitor ignores `callbacks`; their payload schemas are still
/// generated when they are component schemas. Reported so it is visible.
fn note_callbacks(spec: &OpenAPI, report: &mut Report) {
    for (path, item) in spec.paths.iter() {
        let ReferenceOr::Item(item) = item else {
            continue;
        };
        for (method, op) in item.iter() {
            if !op.callbacks.is_empty() {
                let id = op.operation_id.as_deref().unwrap_or("?");
                let names: Vec<&str> = op.callbacks.keys().map(String::as_str).collect();
                report.notes.push(format!(
                    "{id} ({} {path}): callbacks {names:?} are ignored by progenitor (no client code); their component schemas are still generated",
                    method.to_uppercase()
                ));
            }
        }
    }
}

/// An open enumeration (`anyOf: [{$ref: Known<Name>}, {type: string}]`,
/// ASSUMPTIONS G1) is a plain string in the generated client, as it was
/// before the spec named its known values: each is replaced by a string
/// schema with its description, and `Known<Name>` is left out (the SDK
/// holds the status as core's open enum, which lists the known values).
fn open_enums_as_strings(spec: &mut OpenAPI, report: &mut Report) {
    let Some(components) = spec.components.as_mut() else {
        return;
    };
    let open: Vec<String> = components
        .schemas
        .keys()
        .filter_map(|name| name.strip_prefix("Known"))
        .filter(|open| components.schemas.contains_key(*open))
        .map(String::from)
        .collect();
    for name in open {
        components.schemas.shift_remove(&format!("Known{name}"));
        if let Some(ReferenceOr::Item(schema)) = components.schemas.get_mut(&name) {
            schema.schema_kind = SchemaKind::Type(Type::String(Default::default()));
        }
        report.notes.push(format!(
            "{name}: an open enumeration, generated as a string (Known{name} left out)"
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPEC: &str = r#"
openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /things/{id}:
    get:
      operationId: getThing
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {type: object, properties: {id: {type: string}}}
        '404': {$ref: '#/components/responses/NotFound'}
        '429':
          description: slow down
          content:
            application/json:
              schema: {$ref: '#/components/schemas/ErrorResponse'}
        5XX:
          description: server
components:
  responses:
    NotFound:
      description: not found
      content:
        application/json:
          schema: {$ref: '#/components/schemas/ErrorResponse'}
  schemas:
    ErrorResponse:
      type: object
      required: [message]
      properties: {message: {type: string}}
"#;

    #[test]
    fn error_responses_are_not_given_to_the_generator() {
        let mut spec: OpenAPI = serde_yaml_ng::from_str(SPEC).unwrap();
        let report = preprocess(&mut spec);
        let op = spec.paths.paths["/things/{id}"]
            .as_item()
            .and_then(|item| item.get.as_ref())
            .unwrap();
        let kept: Vec<String> = op
            .responses
            .responses
            .keys()
            .map(ToString::to_string)
            .collect();
        assert_eq!(kept, ["200"]);
        assert_eq!(report.notes.len(), 1, "{:?}", report.notes);
        assert!(
            report.notes[0]
                .starts_with("getThing (GET /things/{id}): error responses 404, 429, 5XX"),
            "{}",
            report.notes[0]
        );
        // The error schema is still a component, so its type is generated.
        assert!(spec
            .components
            .unwrap()
            .schemas
            .contains_key("ErrorResponse"));
    }

    /// The spec's open enumerations (`anyOf` of `Known<Name>` and a
    /// string) reach progenitor as plain strings, without their known
    /// values' schema: the generated client's types stay what they were
    /// before the spec named the known values (ASSUMPTIONS G1).
    #[test]
    fn open_enumerations_are_generated_as_strings() {
        let mut spec: OpenAPI = serde_yaml_ng::from_str(&crate::test_spec::spec()).unwrap();
        let report = preprocess(&mut spec);
        let schemas = &spec.components.as_ref().unwrap().schemas;
        for name in [
            "TransactionStatus",
            "TransactionType",
            "BusinessStatus",
            "PersonRole",
        ] {
            let Some(ReferenceOr::Item(schema)) = schemas.get(name) else {
                panic!("{name} is gone");
            };
            assert_eq!(
                schema.schema_kind,
                SchemaKind::Type(Type::String(Default::default())),
                "{name}"
            );
            assert!(!schemas.contains_key(&format!("Known{name}")), "{name}");
            assert!(report.notes.contains(&format!(
                "{name}: an open enumeration, generated as a string (Known{name} left out)"
            )));
        }
    }
}
