//! Fuzz target: the sandbox's body readers, through its public surface
//! (HTTP on 127.0.0.1; its router is not public, and widening it for a
//! test is not worth it: a keep-alive connection costs about a millisecond
//! a case).
//!
//! For every operation that takes a body (the nine JSON ones and the
//! multipart upload): arbitrary JSON (weird numbers, deep nesting, repeated
//! keys), valid bodies with fields replaced, removed, repeated or renamed
//! and then bytes mutated, arbitrary bytes, and other content types. The
//! sandbox never answers 5xx; a 4xx is in the API's error shape with the
//! request's method and URL; a 2xx is a JSON object with a `message`.

use std::time::Duration;

use crossborder_hostile_tests::fuzz;
use crossborder_hostile_tests::sandbox::{
    multipart_body, Input, Operation, Target, BOUNDARY, KEY, PDF,
};
use proptest::prelude::*;
use proptest::test_runner::{TestCaseError, TestRunner};
use serde_json::{json, Value};

/// Cases per run (see `crossborder_hostile_tests::fuzz`).
const CASES: u32 = 1500;

/// One request to one body-taking operation.
#[derive(Debug, Clone)]
struct Sent {
    /// Index into the body-taking operations.
    op: usize,
    content_type: Option<String>,
    body: Vec<u8>,
}

/// The operations that take a body, in a fixed order.
fn body_operations(target: &Target) -> Vec<Operation> {
    target
        .operations()
        .into_iter()
        .filter(|op| op.input != Input::Path)
        .collect()
}

/// Raw JSON number texts, ordinary and not.
fn number_text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<i64>().prop_map(|n| n.to_string()),
        "-?[0-9]{1,40}(\\.[0-9]{1,40})?([eE][+-]?[0-9]{1,12})?",
        proptest::sample::select(vec![
            "1e999999999",
            "-1e999999999",
            "1e-999999999",
            "-0",
            "0e0",
            "1.0000000000000000000000000000001e0",
            "79228162514264337593543950336",
            "0.00000000000000000000000000001",
            "1E+28",
        ])
        .prop_map(str::to_owned),
    ]
}

/// Arbitrary JSON as text (so numbers keep any form and keys may repeat),
/// with keys drawn from `names` and elsewhere.
fn json_text(names: Vec<String>) -> impl Strategy<Value = String> {
    let key = prop_oneof![
        3 => proptest::sample::select(names),
        1 => "\\PC{0,12}",
    ];
    let leaf = prop_oneof![
        Just("null".to_owned()),
        any::<bool>().prop_map(|b| b.to_string()),
        number_text(),
        "\\PC{0,30}".prop_map(|text| Value::String(text).to_string()),
        Just("\"\\ud800\"".to_owned()),
        Just("\"\\u0000\"".to_owned()),
    ];
    leaf.prop_recursive(6, 48, 6, move |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..6)
                .prop_map(|items| format!("[{}]", items.join(","))),
            proptest::collection::vec((key.clone(), inner), 0..6).prop_map(|members| {
                let members: Vec<String> = members
                    .into_iter()
                    .map(|(key, value)| format!("{}:{value}", Value::String(key)))
                    .collect();
                format!("{{{}}}", members.join(","))
            }),
        ]
    })
}

/// The wire names a valid body of `op` uses, and a few more.
fn names_of(op: &Operation) -> Vec<String> {
    let mut names: Vec<String> = match op.valid_body() {
        Some(Value::Object(members)) => members.keys().cloned().collect(),
        _ => Vec::new(),
    };
    names.extend(["amount", "documents", "address", "city", "url", "key"].map(str::to_owned));
    names
}

/// A valid body with its members changed: replaced by arbitrary JSON,
/// removed, repeated or renamed, before it is written out.
fn edited(op: &Operation) -> impl Strategy<Value = String> {
    let valid = op.valid_body().cloned().unwrap_or_else(|| json!({}));
    let members: Vec<(String, Value)> = valid
        .as_object()
        .map(|object| object.clone().into_iter().collect())
        .unwrap_or_default();
    let count = members.len().max(1);
    let edits = proptest::collection::vec((0..4u8, 0..count, json_text(names_of(op))), 0..4);
    edits.prop_map(move |edits| {
        let mut written: Vec<(String, String)> = members
            .iter()
            .map(|(key, value)| (key.clone(), value.to_string()))
            .collect();
        for (kind, at, replacement) in edits {
            if written.is_empty() {
                break;
            }
            let at = at % written.len();
            match kind {
                0 => written[at].1 = replacement,
                1 => {
                    written.remove(at);
                }
                2 => {
                    let copy = (written[at].0.clone(), replacement);
                    written.push(copy);
                }
                _ => written[at].0 = written[at].0.to_uppercase(),
            }
        }
        let members: Vec<String> = written
            .into_iter()
            .map(|(key, value)| format!("{}:{value}", Value::String(key)))
            .collect();
        format!("{{{}}}", members.join(","))
    })
}

/// Up to three byte edits of `bytes`.
fn mutate_bytes(bytes: Vec<u8>) -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec((0..4u8, any::<prop::sample::Index>(), any::<u8>()), 0..4).prop_map(
        move |edits| {
            let mut bytes = bytes.clone();
            for (kind, at, byte) in edits {
                if bytes.is_empty() {
                    break;
                }
                let i = at.index(bytes.len());
                match kind {
                    0 => bytes[i] = byte,
                    1 => bytes.insert(i, byte),
                    2 => {
                        bytes.remove(i);
                    }
                    _ => bytes.truncate(i),
                }
            }
            bytes
        },
    )
}

/// A multipart body: parts with arbitrary names, file names, types and
/// contents, or the valid one mutated.
fn multipart() -> impl Strategy<Value = Vec<u8>> {
    let part = (
        prop_oneof![3 => Just("file".to_owned()), 1 => "\\PC{0,8}"],
        proptest::option::of("[^\"\r\n]{0,12}"),
        proptest::collection::vec(any::<u8>(), 0..64),
        proptest::sample::select(vec![
            &b"%PDF-1.7\n"[..],
            b"\x89PNG\r\n\x1a\n",
            b"\xff\xd8\xff\xe0",
            b"GIF89a",
            b"",
        ]),
    );
    prop_oneof![
        proptest::collection::vec(part, 0..4).prop_map(|parts| {
            let mut body = Vec::new();
            for (name, file_name, content, magic) in parts {
                body.extend_from_slice(
                    format!("--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{name}\"")
                        .as_bytes(),
                );
                if let Some(file_name) = file_name {
                    body.extend_from_slice(format!("; filename=\"{file_name}\"").as_bytes());
                }
                body.extend_from_slice(b"\r\n\r\n");
                body.extend_from_slice(magic);
                body.extend_from_slice(&content);
                body.extend_from_slice(b"\r\n");
            }
            body.extend_from_slice(format!("--{BOUNDARY}--\r\n").as_bytes());
            body
        }),
        mutate_bytes(multipart_body(PDF)),
    ]
}

fn content_type(json: bool) -> impl Strategy<Value = Option<String>> {
    let usual = if json {
        "application/json".to_owned()
    } else {
        format!("multipart/form-data; boundary={BOUNDARY}")
    };
    prop_oneof![
        8 => Just(Some(usual)),
        1 => Just(None),
        1 => proptest::sample::select(vec![
            "text/plain", "application/json; charset=utf-16", "multipart/form-data",
            "application/x-www-form-urlencoded", "application/problem+json",
        ])
        .prop_map(|text| Some(text.to_owned())),
    ]
}

/// A request to one of `operations`.
fn sent(operations: &[Operation]) -> impl Strategy<Value = Sent> {
    let strategies: Vec<BoxedStrategy<Sent>> = operations
        .iter()
        .enumerate()
        .map(|(index, op)| {
            if op.input == Input::Multipart {
                (multipart(), content_type(false))
                    .prop_map(move |(body, content_type)| Sent {
                        op: index,
                        content_type,
                        body,
                    })
                    .boxed()
            } else {
                let body = prop_oneof![
                    3 => edited(op).prop_flat_map(|text| mutate_bytes(text.into_bytes())),
                    2 => edited(op).prop_map(String::into_bytes),
                    2 => json_text(names_of(op)).prop_map(String::into_bytes),
                    1 => proptest::collection::vec(any::<u8>(), 0..200),
                ];
                (body, content_type(true))
                    .prop_map(move |(body, content_type)| Sent {
                        op: index,
                        content_type,
                        body,
                    })
                    .boxed()
            }
        })
        .collect();
    proptest::strategy::Union::new(strategies)
}

/// The property for one request.
async fn check(target: &Target, op: &Operation, sent: &Sent) -> Result<(), TestCaseError> {
    let mut request = target
        .http
        .request(op.method.parse().expect("a method"), target.url(&op.path))
        .header("x-api-key", KEY)
        .timeout(Duration::from_secs(30))
        .body(sent.body.clone());
    if let Some(content_type) = &sent.content_type {
        request = request.header("content-type", content_type);
    }
    let response = request
        .send()
        .await
        .map_err(|error| TestCaseError::fail(format!("{}: no answer: {error}", op.id)))?;
    let status = response.status().as_u16();
    let text = response
        .text()
        .await
        .map_err(|error| TestCaseError::fail(format!("{}: body: {error}", op.id)))?;
    let body: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
    let context = || format!("{} answered {status} {text}", op.id);
    prop_assert!(status < 500, "{}", context());
    if status >= 400 {
        prop_assert_eq!(&body["statusCode"], &json!(status), "{}", context());
        prop_assert!(
            body["message"].as_str().is_some_and(|m| !m.is_empty()),
            "{}",
            context()
        );
        prop_assert_eq!(&body["path"], &json!(op.target()), "{}", context());
        prop_assert_eq!(
            &body["request"]["method"],
            &json!(op.method),
            "{}",
            context()
        );
        prop_assert_eq!(
            &body["request"]["url"],
            &json!(op.target()),
            "{}",
            context()
        );
        prop_assert!(
            body["timestamp"]
                .as_str()
                .is_some_and(|t| t.len() == 24 && t.ends_with('Z')),
            "{}",
            context()
        );
    } else {
        prop_assert!(
            body.as_object()
                .is_some_and(|object| object.get("message").is_some_and(Value::is_string)),
            "{}",
            context()
        );
    }
    Ok(())
}

#[test]
fn sandbox_body_readers() {
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    let target = runtime.block_on(Target::start());
    let operations = body_operations(&target);
    assert_eq!(operations.len(), 10);
    let mut runner = TestRunner::new(fuzz::config(
        CASES,
        "proptest-regressions/sandbox_bodies.txt",
    ));
    let result = runner.run(&sent(&operations), |sent| {
        runtime.block_on(check(&target, &operations[sent.op], &sent))
    });
    if let Err(error) = result {
        panic!("{error}");
    }
}

/// Replays `corpus/sandbox_bodies/*`: a file named `multipart_*` is sent
/// to the upload as multipart, any other to every JSON operation as
/// `application/json`.
#[test]
fn sandbox_bodies_corpus() {
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    let target = runtime.block_on(Target::start());
    let operations = body_operations(&target);
    let mut sent_count = 0;
    for (name, body) in fuzz::corpus("sandbox_bodies") {
        for (index, op) in operations.iter().enumerate() {
            let multipart = op.input == Input::Multipart;
            if multipart != name.starts_with("multipart_") {
                continue;
            }
            let content_type = if multipart {
                format!("multipart/form-data; boundary={BOUNDARY}")
            } else {
                "application/json".to_owned()
            };
            let sent = Sent {
                op: index,
                content_type: Some(content_type),
                body: body.clone(),
            };
            runtime
                .block_on(check(&target, op, &sent))
                .unwrap_or_else(|error| panic!("{name}: {error}"));
            sent_count += 1;
        }
    }
    assert!(sent_count > 0);
}
