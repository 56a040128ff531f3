//! Hostile servers to the SDK (issue #13, item 4, second direction): every
//! SDK operation, pointed at a local server that answers HTML, random
//! bytes, partial JSON, JSON of the wrong shape, a wrong content type, a
//! body nested 100,000 levels, a body cut short, an endless slow drip, a
//! silent close or a connection reset, ends in the `crossborder::Error`
//! variant that says what happened (`Decode` with the HTTP status,
//! `Transport`, `Timeout`), never a panic and never a hang: a drip is
//! bounded by the client's timeout.

use std::collections::BTreeMap;
use std::time::Duration;

use crossborder::RetryPolicy;
use crossborder_hostile_tests::garbage::{nested_arrays, noise, HTML_PAGE};
use crossborder_hostile_tests::sdk::{
    client, operations, resource_operations_in_source, Failure, SdkOperation,
};
use crossborder_hostile_tests::server::{Answer, HostileServer};
use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use tokio::task::JoinSet;

/// The client timeout for answers that should come at once (generous: the
/// machine may be loaded; a hang would show as a wrong variant).
const PROMPT: Duration = Duration::from_secs(10);
/// The client timeout for the drips.
const SHORT: Duration = Duration::from_secs(1);
/// No call may take longer than this, whatever the server does.
const BOUND: Duration = Duration::from_secs(60);

/// What an operation must end with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expected {
    /// `Error::Decode` with this HTTP status.
    Decode(u16),
    /// `Error::Decode` with this HTTP status, except for the two operations
    /// whose answer is only `{message}` ([`ACKNOWLEDGED`]): the body has a
    /// string `message`, and unknown fields are ignored, so they succeed.
    DecodeUnlessAcknowledged(u16),
    /// `Error::Transport`.
    Transport,
    /// `Error::Timeout`.
    Timeout,
}

/// How a call ended, for comparison with [`Expected`].
fn ended(outcome: &Result<(), Failure>) -> String {
    match outcome {
        Ok(()) => "Ok".to_owned(),
        Err(Failure::Sdk(crossborder::Error::Decode { status, .. })) => {
            format!("Decode({})", status.map_or(0, |s| s))
        }
        Err(Failure::Sdk(crossborder::Error::Transport(_))) => "Transport".to_owned(),
        Err(Failure::Sdk(crossborder::Error::Timeout(_))) => "Timeout".to_owned(),
        Err(Failure::Sdk(other)) => format!("other variant: {other:?}"),
        Err(Failure::Other(text)) => format!("not an SDK error: {text}"),
    }
}

/// The operations whose answer is the API's `{message}` acknowledgement.
const ACKNOWLEDGED: [&str; 2] = ["webhooks.set_url", "sandbox.simulate_funding"];

fn expected_text(expected: Expected, op: &SdkOperation) -> String {
    match expected {
        Expected::DecodeUnlessAcknowledged(_) if ACKNOWLEDGED.contains(&op.name) => "Ok".to_owned(),
        Expected::Decode(status) | Expected::DecodeUnlessAcknowledged(status) => {
            format!("Decode({status})")
        }
        Expected::Transport => "Transport".to_owned(),
        Expected::Timeout => "Timeout".to_owned(),
    }
}

fn full(status: u16, content_type: &'static str, body: &[u8]) -> Answer {
    Answer::Full {
        status,
        content_type: Some(content_type),
        body: body.to_vec(),
    }
}

const JSON: &str = "application/json";

/// Every hostile server, what each operation must end with, and the client
/// timeout to use.
fn scenarios() -> Vec<(&'static str, Answer, Expected, Duration)> {
    use Expected::*;
    let html = HTML_PAGE.as_bytes();
    vec![
        ("an HTML page, 200", full(200, "text/html", html), Decode(200), PROMPT),
        ("an HTML page, 502", full(502, "text/html", html), Decode(502), PROMPT),
        ("random bytes, 200", full(200, JSON, &noise(11, 4096)), Decode(200), PROMPT),
        ("random bytes, 500", full(500, JSON, &noise(12, 4096)), Decode(500), PROMPT),
        (
            "partial JSON, 200",
            full(200, JSON, br#"{"message":"Balance retrieved successfully","error":false,"data":{"bal"#),
            Decode(200),
            PROMPT,
        ),
        (
            "partial JSON, 400",
            full(400, JSON, br#"{"statusCode":400,"message":"amount: is requ"#),
            Decode(400),
            PROMPT,
        ),
        (
            "JSON of the wrong shape, 200",
            full(200, JSON, br#"{"message":7,"error":"no","data":[{"unexpected":true}]}"#),
            Decode(200),
            PROMPT,
        ),
        ("a JSON array, 200", full(200, JSON, br#"[{"data":{}}]"#), Decode(200), PROMPT),
        ("JSON null, 200", full(200, JSON, b"null"), Decode(200), PROMPT),
        (
            "an error body without a message, 404",
            full(404, JSON, br#"{"statusCode":404,"error":"Not Found"}"#),
            Decode(404),
            PROMPT,
        ),
        (
            "an error message of the wrong type, 400",
            full(400, JSON, br#"{"statusCode":400,"message":{"text":"no"}}"#),
            Decode(400),
            PROMPT,
        ),
        (
            "XML as application/xml, 200",
            full(200, "application/xml", b"<?xml version=\"1.0\"?><error>busy</error>"),
            Decode(200),
            PROMPT,
        ),
        (
            "HTML labelled application/json, 200",
            full(200, JSON, html),
            Decode(200),
            PROMPT,
        ),
        (
            "plain text without a Content-Type, 503",
            Answer::Full {
                status: 503,
                content_type: None,
                body: b"upstream connect error or disconnect/reset before headers".to_vec(),
            },
            Decode(503),
            PROMPT,
        ),
        ("an empty body, 200", full(200, JSON, b""), Decode(200), PROMPT),
        ("no content, 204", full(204, JSON, b""), Decode(204), PROMPT),
        (
            "JSON nested 100,000 levels, 200",
            full(200, JSON, nested_arrays(100_000).as_bytes()),
            Decode(200),
            PROMPT,
        ),
        (
            "a field nested 100,000 levels, 200",
            full(
                200,
                JSON,
                format!("{{\"message\":\"ok\",\"data\":{}}}", nested_arrays(100_000)).as_bytes(),
            ),
            DecodeUnlessAcknowledged(200),
            PROMPT,
        ),
        (
            "numbers no decimal holds, 200",
            full(
                200,
                JSON,
                br#"{"message":"ok","error":false,"data":{"balance":1e999999999,"rate":1e999999999,"amount":1e999999999,"link":1e999999999}}"#,
            ),
            DecodeUnlessAcknowledged(200),
            PROMPT,
        ),
        (
            "a body cut short, 200",
            Answer::Cut {
                status: 200,
                declared: 4096,
                body: br#"{"message":"ok","#.to_vec(),
            },
            Transport,
            PROMPT,
        ),
        ("a close without an answer", Answer::Close, Transport, PROMPT),
        ("a connection reset", Answer::Reset, Transport, PROMPT),
        (
            "an endless body, a byte every 50 ms",
            Answer::DripBody {
                every: Duration::from_millis(50),
            },
            Timeout,
            SHORT,
        ),
        (
            "an endless head, a byte every 50 ms",
            Answer::DripHead {
                every: Duration::from_millis(50),
            },
            Timeout,
            SHORT,
        ),
    ]
}

/// Runs every operation against every scenario's server, all at once, with
/// `retry`, fails listing every wrong ending, and returns how many calls
/// were made.
async fn run_all(
    scenarios: Vec<(&'static str, Answer, Expected, Duration)>,
    retry: RetryPolicy,
) -> usize {
    let mut servers = Vec::new();
    let mut calls = JoinSet::new();
    for (what, answer, expected, timeout) in scenarios {
        let server = HostileServer::start(answer).await;
        let shared = client(&server.base_url(), timeout, retry);
        for op in operations() {
            let client = shared.clone();
            calls.spawn(async move {
                let outcome = tokio::time::timeout(BOUND, (op.call)(client)).await;
                let ended = match outcome {
                    Ok(outcome) => ended(&outcome),
                    Err(_) => format!("no end within {BOUND:?}"),
                };
                (what, op, expected, ended)
            });
        }
        servers.push((what, server));
    }
    let mut wrong = Vec::new();
    let mut count = 0;
    while let Some(joined) = calls.join_next().await {
        count += 1;
        match joined {
            Ok((what, op, expected, ended)) => {
                let expected = expected_text(expected, &op);
                if ended != expected {
                    wrong.push(format!(
                        "{what}: {}: expected {expected}, ended {ended}",
                        op.name
                    ));
                }
            }
            Err(error) => wrong.push(format!("a call panicked: {error}")),
        }
    }
    // Every call reached its server: none was stopped by the SDK's own
    // checks before sending (the arguments are valid).
    let ops = operations().len();
    for (what, server) in &servers {
        let requests = server.recorded().len();
        if requests < ops {
            wrong.push(format!(
                "{what}: only {requests} requests for {ops} operations"
            ));
        }
    }
    wrong.sort();
    assert!(
        wrong.is_empty(),
        "{} wrong endings:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    count
}

#[test]
fn every_resource_operation_faces_the_hostile_servers() {
    let listed: Vec<&str> = operations().iter().map(|op| op.name).collect();
    let mut in_source = resource_operations_in_source();
    in_source.sort();
    let mut covered: Vec<&str> = listed
        .iter()
        .copied()
        .filter(|name| !name.starts_with("webhook."))
        .collect();
    covered.sort();
    assert_eq!(covered, in_source);
    assert_eq!(in_source.len(), 26);
    assert!(in_source.contains(&"businesses.upload_document".to_owned()));
    assert_eq!(listed.len(), 27);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_operation_ends_in_a_typed_error_against_every_hostile_server() {
    let scenarios = scenarios();
    let expected_calls = scenarios.len() * operations().len();
    let calls = run_all(scenarios, RetryPolicy::none()).await;
    assert_eq!(calls, expected_calls);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_default_retry_policy_ends_the_same_way_in_bounded_time() {
    // Reads are retried on 5xx (three attempts, backoff from 200 ms), never
    // past a Retry-After longer than the policy allows; a drip still ends
    // in a timeout.
    let scenarios = vec![
        (
            "an HTML page, 502",
            full(502, "text/html", HTML_PAGE.as_bytes()),
            Expected::Decode(502),
            PROMPT,
        ),
        (
            "503 with a Retry-After of 10^20 seconds",
            Answer::Raw(
                b"HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\n\
                  Retry-After: 100000000000000000000\r\nContent-Type: text/plain\r\n\
                  Content-Length: 4\r\n\r\nbusy"
                    .to_vec(),
            ),
            Expected::Decode(503),
            PROMPT,
        ),
        (
            "an endless body, a byte every 50 ms",
            Answer::DripBody {
                every: Duration::from_millis(50),
            },
            Expected::Timeout,
            SHORT,
        ),
    ];
    run_all(scenarios, RetryPolicy::default()).await;
}

/// The nesting depth of a JSON text and whether any object in it repeats a
/// key, read without collapsing repeats (as `serde_json::Value` would).
struct Shape {
    depth: usize,
    repeated_key: Option<String>,
}

impl<'de> Deserialize<'de> for Shape {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ShapeVisitor;
        impl<'de> Visitor<'de> for ShapeVisitor {
            type Value = Shape;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("JSON")
            }
            fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Shape, M::Error> {
                let mut keys = BTreeMap::new();
                let mut shape = Shape {
                    depth: 0,
                    repeated_key: None,
                };
                while let Some(key) = map.next_key::<String>()? {
                    let inner: Shape = map.next_value()?;
                    shape.depth = shape.depth.max(inner.depth);
                    shape.repeated_key = shape.repeated_key.or(inner.repeated_key);
                    if keys.insert(key.clone(), ()).is_some() {
                        shape.repeated_key.get_or_insert(key);
                    }
                }
                shape.depth += 1;
                Ok(shape)
            }
            fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<Shape, S::Error> {
                let mut shape = Shape {
                    depth: 0,
                    repeated_key: None,
                };
                while let Some(inner) = seq.next_element::<Shape>()? {
                    shape.depth = shape.depth.max(inner.depth);
                    shape.repeated_key = shape.repeated_key.or(inner.repeated_key);
                }
                shape.depth += 1;
                Ok(shape)
            }
            fn visit_bool<E>(self, _: bool) -> Result<Shape, E> {
                Ok(Shape::leaf())
            }
            fn visit_i64<E>(self, _: i64) -> Result<Shape, E> {
                Ok(Shape::leaf())
            }
            fn visit_u64<E>(self, _: u64) -> Result<Shape, E> {
                Ok(Shape::leaf())
            }
            fn visit_f64<E>(self, _: f64) -> Result<Shape, E> {
                Ok(Shape::leaf())
            }
            fn visit_str<E>(self, _: &str) -> Result<Shape, E> {
                Ok(Shape::leaf())
            }
            fn visit_unit<E>(self) -> Result<Shape, E> {
                Ok(Shape::leaf())
            }
        }
        deserializer.deserialize_any(ShapeVisitor)
    }
}

impl Shape {
    fn leaf() -> Shape {
        Shape {
            depth: 0,
            repeated_key: None,
        }
    }
}

/// ASSUMPTIONS B40: the sandbox refuses a JSON body that is not labelled
/// JSON, repeats a key or nests deeper than 32 levels; the SDK never sends
/// one. Every write, recorded by a server that answers HTML, is
/// `application/json` (the upload `multipart/form-data` with one `file`
/// part), keys once, at most 3 levels deep.
#[tokio::test]
async fn sdk_sends_bodies_the_sandbox_reads_one_way() {
    let server = HostileServer::start(full(200, "text/html", HTML_PAGE.as_bytes())).await;
    let writes: Vec<SdkOperation> = operations().into_iter().filter(|op| op.writes).collect();
    let client = client(&server.base_url(), PROMPT, RetryPolicy::none());
    for op in &writes {
        let _ = (op.call)(client.clone()).await;
    }
    let recorded = server.recorded();
    let with_body: Vec<_> = recorded.iter().filter(|r| r.method != "GET").collect();
    // onboard creates the business only: its answer is HTML.
    assert_eq!(with_body.len(), writes.len(), "{recorded:#?}");
    let mut deepest = 0;
    for request in with_body {
        let content_type = request.headers.get("content-type").unwrap_or_default();
        if request.target.ends_with("/api/upload-document") {
            assert!(content_type.starts_with("multipart/form-data; boundary="));
            let body = String::from_utf8_lossy(&request.body);
            assert_eq!(body.matches("name=\"file\"").count(), 1, "{body}");
            continue;
        }
        assert_eq!(content_type, "application/json", "{}", request.target);
        let shape: Shape = serde_json::from_slice(&request.body).expect("a JSON body");
        assert_eq!(shape.repeated_key, None, "{}", request.target);
        assert!(
            shape.depth <= 3,
            "{}: depth {}",
            request.target,
            shape.depth
        );
        deepest = deepest.max(shape.depth);
    }
    assert_eq!(deepest, 3, "the documents map nests three levels");
}

/// ASSUMPTIONS B41: the SDK reads a body as JSON whatever its
/// `Content-Type` says; only what the body holds decides.
#[tokio::test]
async fn a_documented_body_is_read_whatever_its_content_type() {
    let body = br#"{"message":"Balance retrieved successfully","error":false,"data":{"balance":5000000.25}}"#;
    for content_type in [Some("text/plain"), Some("text/html; charset=utf-8"), None] {
        let server = HostileServer::start(Answer::Full {
            status: 200,
            content_type,
            body: body.to_vec(),
        })
        .await;
        let client = client(&server.base_url(), PROMPT, RetryPolicy::none());
        let balance = client
            .wallet()
            .balance(crossborder::Currency::Ngn)
            .await
            .unwrap_or_else(|error| panic!("{content_type:?}: {error}"));
        assert_eq!(balance.amount.to_string(), "5000000.25", "{content_type:?}");
    }
}
