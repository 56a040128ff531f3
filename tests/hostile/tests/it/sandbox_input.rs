//! Hostile input to the sandbox (issue #13, item 4, first direction), over
//! raw HTTP/1.1 on 127.0.0.1: for every operation that takes a body,
//! truncated and random bodies, wrong content types, huge headers, deep
//! nesting, bodies over the limit (ASSUMPTIONS B4), invalid UTF-8,
//! repeated keys and numbers with huge exponents; for every other
//! operation, garbage paths, parameters and methods.
//!
//! Every answer is a 4xx in the API's error shape (`statusCode`, `message`,
//! `timestamp`, `path`, `request {method, url}`), never a 5xx, within a
//! bound; the state (every wallet, a stored collection, a business) is the
//! same afterwards, and the references the refused bodies named were never
//! created. The two limits of the HTTP layer itself (a request head over
//! about 400 kB or with more than 100 headers, and bytes that are not
//! HTTP) are answered by hyper before any route exists, with a bare status
//! (see the sandbox README); those tests prove the sandbox survives them.

use std::time::Duration;

use crossborder_hostile_tests::garbage::{nested_arrays, nested_objects, noise};
use crossborder_hostile_tests::raw::{exchange, request, RawRequest};
use crossborder_hostile_tests::sandbox::{
    assert_error_shape, business_body, multipart_body, shorten, Input, Operation, Target, BOUNDARY,
    KEY, NEW_REGISTRATION, PDF,
};
use crossborder_sandbox::SandboxConfig;
use serde_json::{Map, Value};

/// The JSON body limit (ASSUMPTIONS B4).
const LIMIT: usize = 1024 * 1024;

/// What a hostile request must be answered with.
#[derive(Debug, Clone)]
enum Expect {
    /// This status and exactly this message.
    Exact(u16, String),
    /// This status and a message starting with this.
    Prefix(u16, String),
    /// 400 naming this field first (`field: ...`).
    Field(String),
    /// This status, any message.
    Status(u16),
    /// Any 4xx (the error shape is checked for every case).
    ClientError,
}

/// One hostile request to one operation.
struct Case {
    what: String,
    request: RawRequest,
    expect: Expect,
}

/// The cases collected for one operation.
#[derive(Default)]
struct Cases(Vec<Case>);

impl Cases {
    /// Adds the case `what`: `request`, answered as `expect` says.
    fn add(&mut self, what: String, request: RawRequest, expect: Expect) {
        self.0.push(Case {
            what,
            request,
            expect,
        });
    }
}

/// The sandbox's answer to a request head over 16 KiB (ASSUMPTIONS B52).
const HEAD_TOO_LARGE: &str =
    "Request header fields too large: the request head is over 16384 bytes";

fn exact(status: u16, message: &str) -> Expect {
    Expect::Exact(status, message.to_owned())
}

fn prefix(status: u16, message: &str) -> Expect {
    Expect::Prefix(status, message.to_owned())
}

/// Headers with the key and a content type.
fn json_headers(content_type: &[u8]) -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("x-api-key", KEY.as_bytes().to_vec()),
        ("Content-Type", content_type.to_vec()),
    ]
}

/// `headers` and one more, `name: value`.
fn and_header<'a>(
    headers: &[(&'a str, Vec<u8>)],
    name: &'a str,
    value: Vec<u8>,
) -> Vec<(&'a str, Vec<u8>)> {
    let mut more = headers.to_vec();
    more.push((name, value));
    more
}

/// `headers` and a 20 kB header: a head too large to read.
fn with_padding<'a>(headers: &[(&'a str, Vec<u8>)]) -> Vec<(&'a str, Vec<u8>)> {
    and_header(headers, "X-Padding", vec![b'p'; 20 * 1024])
}

fn build(op: &Operation, headers: &[(&str, Vec<u8>)], body: &[u8]) -> RawRequest {
    let borrowed: Vec<(&str, &[u8])> = headers
        .iter()
        .map(|(name, value)| (*name, value.as_slice()))
        .collect();
    request(op.method, &op.target(), &borrowed, body)
}

/// The valid body with its first key's value (in serialised order) written
/// as `raw` bytes, and that key.
fn with_first_value(body: &Value, raw: &[u8]) -> (String, Vec<u8>) {
    let object = body.as_object().expect("an object body");
    let (key, _) = object.iter().next().expect("a field");
    let mut replaced: Map<String, Value> = object.clone();
    let marker = "\u{1}HOSTILE\u{1}";
    replaced.insert(key.clone(), Value::String(marker.to_owned()));
    let text = Value::Object(replaced).to_string();
    let quoted = serde_json::to_string(marker).expect("a string serialises");
    let at = text.find(&quoted).expect("the marker is in the text");
    let mut bytes = text.as_bytes()[..at].to_vec();
    bytes.extend_from_slice(raw);
    bytes.extend_from_slice(&text.as_bytes()[at + quoted.len()..]);
    (key.clone(), bytes)
}

/// Every hostile case for a JSON operation whose valid body is `body`.
fn json_cases(op: &Operation, body: &Value) -> Vec<Case> {
    let valid = body.to_string().into_bytes();
    let json = json_headers(b"application/json");
    let mut cases = Cases::default();

    // Truncated bodies (the declared length is what was sent).
    for cut in [1, valid.len() / 2, valid.len() - 1] {
        cases.add(
            format!("the body cut at byte {cut}"),
            build(op, &json, &valid[..cut]),
            prefix(400, "Malformed JSON body: EOF while parsing"),
        );
    }
    // A body shorter than its declared length, then the end of the stream.
    let declared = and_header(
        &json,
        "Content-Length",
        valid.len().to_string().into_bytes(),
    );
    cases.add(
        "half the declared length, then the stream ends".into(),
        build(op, &declared, &valid[..valid.len() / 2]).half_closed(),
        prefix(400, "Could not read the request body"),
    );

    // Random bytes.
    for seed in 1..=6u64 {
        let len = 1 + (seed as usize * 997) % 3000;
        cases.add(
            format!("{len} random bytes (seed {seed})"),
            build(op, &json, &noise(seed, len)),
            Expect::Status(400),
        );
    }

    // Not an object, or more than one value.
    for (what, text) in [
        ("an empty body", String::new()),
        ("only whitespace", " \r\n\t ".to_owned()),
        ("null", "null".to_owned()),
        ("the body in an array", format!("[{body}]")),
        (
            "a string of the body",
            Value::String(body.to_string()).to_string(),
        ),
    ] {
        cases.add(
            what.into(),
            build(op, &json, text.as_bytes()),
            exact(400, "Request body must be a JSON object"),
        );
    }
    for (what, tail) in [("trailing text", "x"), ("a second object", "{}")] {
        let mut bytes = valid.clone();
        bytes.extend_from_slice(tail.as_bytes());
        cases.add(
            format!("the body and {what}"),
            build(op, &json, &bytes),
            prefix(400, "Malformed JSON body: trailing characters"),
        );
    }

    // Wrong content types, with the valid body: nothing may be created.
    let mut no_type = json.clone();
    no_type.retain(|(name, _)| *name != "Content-Type");
    cases.add(
        "the valid body without a Content-Type".into(),
        build(op, &no_type, &valid),
        exact(400, "Content-Type must be application/json; none was sent"),
    );
    for content_type in [
        "text/plain",
        "text/plain; charset=utf-8",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "application/xml",
        "text/json",
        "application/jsonp",
        "application/octet-stream",
    ] {
        let media = content_type.split(';').next().unwrap_or_default();
        cases.add(
            format!("the valid body as {content_type}"),
            build(op, &json_headers(content_type.as_bytes()), &valid),
            Expect::Exact(
                400,
                format!("Content-Type must be application/json; got {media}"),
            ),
        );
    }
    let long_type = format!("text/{}", "x".repeat(8 * 1024));
    cases.add(
        "the valid body with an 8 kB Content-Type".into(),
        build(op, &json_headers(long_type.as_bytes()), &valid),
        prefix(400, "Content-Type must be application/json; got text/xxx"),
    );
    cases.add(
        "the valid body with a Content-Type of invalid UTF-8".into(),
        build(op, &json_headers(b"application/\xff\xfejson"), &valid),
        prefix(
            400,
            "Content-Type must be application/json; got application/",
        ),
    );

    // A head over 16 KiB is refused before its body is read
    // (ASSUMPTIONS B52).
    let padded = with_padding(&json);
    cases.add(
        "a 20 kB header".into(),
        build(op, &padded, b"[]"),
        exact(431, HEAD_TOO_LARGE),
    );
    let mut many = json.clone();
    let names: Vec<String> = (0..90).map(|i| format!("X-Filler-{i}")).collect();
    for name in &names {
        many.push((name.as_str(), vec![b'f'; 1024]));
    }
    cases.add(
        "90 headers of 1 kB".into(),
        build(op, &many, b"[]"),
        Expect::Status(431),
    );
    let mut long_key = json.clone();
    long_key[0].1 = format!("test_{}", "k".repeat(10 * 1024)).into_bytes();
    cases.add(
        "a 10 kB x-api-key and the valid body".into(),
        build(op, &long_key, &valid),
        exact(401, "Invalid api key"),
    );

    // Deep nesting.
    let deep = "Request body is nested deeper than 32 levels";
    let (first, shallow) = with_first_value(body, nested_arrays(31).as_bytes());
    cases.add(
        format!("`{first}` nested 31 arrays deep (32 levels)"),
        build(op, &json, &shallow),
        Expect::Field(first.clone()),
    );
    for (what, value) in [
        ("32 arrays", nested_arrays(32)),
        ("200,000 arrays", nested_arrays(200_000)),
        ("100,000 objects", nested_objects(100_000)),
    ] {
        let (_, bytes) = with_first_value(body, value.as_bytes());
        cases.add(
            format!("`{first}` nested {what} deep"),
            build(op, &json, &bytes),
            exact(400, deep),
        );
    }
    cases.add(
        "a body of 500,000 nested arrays".into(),
        build(op, &json, nested_arrays(500_000).as_bytes()),
        exact(400, deep),
    );

    // Sizes around the limit.
    let mut at_limit = b"{".to_vec();
    at_limit.resize(LIMIT, b' ');
    cases.add(
        "an unfinished object of exactly 1 MiB (read, not refused for size)".into(),
        build(op, &json, &at_limit),
        prefix(400, "Malformed JSON body: EOF while parsing"),
    );
    let mut over = valid.clone();
    over.resize(LIMIT + 1, b' ');
    cases.add(
        "the valid body padded to 1 MiB + 1 byte".into(),
        build(op, &json, &over),
        exact(413, "Request body is larger than 1048576 bytes"),
    );
    let chunked_headers = and_header(&json, "Transfer-Encoding", b"chunked".to_vec());
    let mut chunked = Vec::new();
    for piece in over.chunks(64 * 1024) {
        chunked.extend_from_slice(format!("{:x}\r\n", piece.len()).as_bytes());
        chunked.extend_from_slice(piece);
        chunked.extend_from_slice(b"\r\n");
    }
    chunked.extend_from_slice(b"0\r\n\r\n");
    cases.add(
        "the valid body padded to 1 MiB + 1 byte, chunked".into(),
        build(op, &chunked_headers, &chunked),
        exact(413, "Request body is larger than 1048576 bytes"),
    );

    // Invalid UTF-8 and broken escapes.
    for (what, raw) in [
        ("bytes FF FE in a string", &b"\"\xff\xfe\""[..]),
        ("an overlong encoding in a string", b"\"\xc0\xaf\""),
        ("an encoded surrogate in a string", b"\"\xed\xa0\x80\""),
        ("a lone surrogate escape", b"\"\\ud800\""),
        ("an unfinished escape", b"\"\\u12\""),
        ("a bare FF byte as a value", b"\xff"),
    ] {
        let (_, bytes) = with_first_value(body, raw);
        cases.add(
            format!("`{first}` as {what}"),
            build(op, &json, &bytes),
            prefix(400, "Malformed JSON body: "),
        );
    }
    let mut bad_key = b"{\"\xff\xfe\": 1, ".to_vec();
    bad_key.extend_from_slice(&valid[1..]);
    cases.add(
        "a key of invalid UTF-8".into(),
        build(op, &json, &bad_key),
        prefix(400, "Malformed JSON body: "),
    );
    let mut bom = b"\xef\xbb\xbf".to_vec();
    bom.extend_from_slice(&valid);
    cases.add(
        "the valid body after a byte-order mark".into(),
        build(op, &json, &bom),
        prefix(400, "Malformed JSON body: "),
    );
    let utf16: Vec<u8> = body
        .to_string()
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    cases.add(
        "the valid body in UTF-16".into(),
        build(op, &json, &utf16),
        prefix(400, "Malformed JSON body: "),
    );

    // Repeated keys: whichever value a parser keeps, the request is refused.
    for (what, value) in [
        ("another value", "\"another\"".to_owned()),
        ("the same value", body[first.as_str()].to_string()),
    ] {
        let mut bytes = format!("{{\"{first}\": {value}, ").into_bytes();
        bytes.extend_from_slice(&valid[1..]);
        cases.add(
            format!("`{first}` twice, with {what}"),
            build(op, &json, &bytes),
            Expect::Exact(400, format!("{first}: must appear only once")),
        );
    }

    // Numbers no decimal can hold, where the first field is.
    for number in [
        "1e999999999",
        "-1e999999999",
        "1e-999999999",
        "1E+400",
        "9e99999999999999999999999999",
        "123456789012345678901234567890123456789",
        "0.00000000000000000000000000000000001",
        "1.0000000000000000000000000000001e0",
        "-0",
    ] {
        let (_, bytes) = with_first_value(body, number.as_bytes());
        cases.add(
            format!("`{first}` = {number}"),
            build(op, &json, &bytes),
            Expect::Field(first.clone()),
        );
    }
    cases.0
}

/// Hostile cases for the upload (`multipart/form-data`).
fn upload_cases(op: &Operation) -> Vec<Case> {
    let multipart = format!("multipart/form-data; boundary={BOUNDARY}");
    let headers = json_headers(multipart.as_bytes());
    let valid = multipart_body(PDF);
    let not_multipart = "Request body must be multipart/form-data with a field `file`";
    let mut cases = Cases::default();
    for content_type in [
        &b"application/json"[..],
        b"text/plain",
        b"multipart/form-data",
        b"multipart/mixed; boundary=hostile-boundary-7d1c",
    ] {
        cases.add(
            format!(
                "the valid body as {}",
                String::from_utf8_lossy(content_type)
            ),
            build(op, &json_headers(content_type), &valid),
            prefix(400, not_multipart),
        );
    }
    let mut no_type = headers.clone();
    no_type.retain(|(name, _)| *name != "Content-Type");
    cases.add(
        "the valid body without a Content-Type".into(),
        build(op, &no_type, &valid),
        prefix(400, not_multipart),
    );
    // The last cut is inside the closing delimiter (the CRLF after it is
    // optional, so only a cut before it truncates the body).
    for cut in [1, valid.len() / 2, valid.len() - 5] {
        cases.add(
            format!("the body cut at byte {cut}"),
            build(op, &headers, &valid[..cut]),
            Expect::Status(400),
        );
    }
    for seed in 1..=4u64 {
        cases.add(
            format!("2000 random bytes (seed {seed})"),
            build(op, &headers, &noise(seed, 2000)),
            Expect::Status(400),
        );
    }
    cases.add(
        "an empty body".into(),
        build(op, &headers, b""),
        Expect::Status(400),
    );
    let mut bad_name =
        format!("--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"").into_bytes();
    bad_name.extend_from_slice(b"\xff\xfe\"; filename=\"a.pdf\"\r\n\r\n%PDF-1.7\r\n");
    bad_name.extend_from_slice(format!("--{BOUNDARY}--\r\n").as_bytes());
    cases.add(
        "a part named in invalid UTF-8".into(),
        build(op, &headers, &bad_name),
        Expect::Status(400),
    );
    let mut twice = multipart_body(PDF);
    twice.truncate(twice.len() - format!("--{BOUNDARY}--\r\n").len());
    twice.extend_from_slice(&multipart_body(b"\x89PNG\r\n\x1a\nsecond"));
    cases.add(
        "two parts named `file`".into(),
        build(op, &headers, &twice),
        exact(400, "file: must appear only once"),
    );
    let declared = and_header(&headers, "Content-Length", b"20065537".to_vec());
    cases.add(
        "a declared length over 20 MB and the multipart overhead".into(),
        build(op, &declared, b""),
        exact(413, "File is larger than 20 MB (20000000 bytes)"),
    );
    let padded = with_padding(&headers);
    cases.add(
        "a 20 kB header and an empty body".into(),
        build(op, &padded, b""),
        exact(431, HEAD_TOO_LARGE),
    );
    cases.0
}

/// Garbage paths, parameters and methods for an operation that reads only
/// its path, and what each must be answered with.
fn path_cases(op: &Operation) -> Vec<Case> {
    let key = vec![("x-api-key", KEY.as_bytes().to_vec())];
    let (parent, _) = op.path.rsplit_once('/').expect("a path with a parameter");
    let mut cases = Vec::new();
    let long = "A".repeat(8000);
    for segment in [
        "%FF",
        "%ZZ",
        "%00",
        "%C0%AF",
        "%ED%A0%80",
        "..%2F..%2Fetc%2Fpasswd",
        "%E2%82%AC%F0%9F%92%A9",
        "1e999999999",
        "-0",
        long.as_str(),
    ] {
        let target = format!("/v1{parent}/{segment}");
        let borrowed: Vec<(&str, &[u8])> = key.iter().map(|(n, v)| (*n, v.as_slice())).collect();
        cases.push(Case {
            what: format!("the last segment {}", shorten(segment)),
            request: request("GET", &target, &borrowed, b""),
            expect: Expect::ClientError,
        });
    }
    let borrowed: Vec<(&str, &[u8])> = key.iter().map(|(n, v)| (*n, v.as_slice())).collect();
    let extra = format!("{}/extra", op.target());
    cases.push(Case {
        what: "an extra segment".into(),
        request: request("GET", &extra, &borrowed, b""),
        expect: Expect::Exact(404, format!("Cannot GET {extra}")),
    });
    for method in ["DELETE", "PUT", "FOO"] {
        cases.push(Case {
            what: format!("method {method}"),
            request: request(method, &op.target(), &borrowed, b"[]"),
            expect: exact(405, "Method not allowed"),
        });
    }
    let padded = with_padding(&key);
    let padded: Vec<(&str, &[u8])> = padded.iter().map(|(n, v)| (*n, v.as_slice())).collect();
    cases.push(Case {
        what: "a 20 kB header on a missing resource".into(),
        request: request("GET", &format!("/v1{parent}/%00"), &padded, b""),
        expect: Expect::ClientError,
    });
    cases
}

/// Sends `case` and checks the answer; returns a line describing it.
async fn check(target: &Target, op: &Operation, case: &Case) {
    let sent = &case.request;
    let line = String::from_utf8_lossy(
        &sent.bytes[..sent.bytes.iter().position(|b| *b == b'\r').unwrap_or(0)],
    )
    .into_owned();
    let mut parts = line.splitn(3, ' ');
    let method = parts.next().unwrap_or_default().to_owned();
    let url = parts.next().unwrap_or_default().to_owned();
    let what = format!("{} ({}): {}", op.id, method, case.what);
    let reply = exchange(target.addr(), sent)
        .await
        .unwrap_or_else(|error| panic!("{what}: {error}"));
    let message = assert_error_shape(&reply, &method, &url, &what);
    match &case.expect {
        Expect::Exact(status, expected) => {
            assert_eq!(reply.status, *status, "{what}: {message}");
            assert_eq!(&message, expected, "{what}");
        }
        Expect::Prefix(status, expected) => {
            assert_eq!(reply.status, *status, "{what}: {message}");
            assert!(message.starts_with(expected.as_str()), "{what}: {message}");
        }
        Expect::Field(field) => {
            assert_eq!(reply.status, 400, "{what}: {message}");
            assert!(
                message.starts_with(&format!("{field}: ")),
                "{what}: {message}"
            );
        }
        Expect::ClientError => {}
        Expect::Status(status) => assert_eq!(reply.status, *status, "{what}: {message}"),
    }
}

#[tokio::test]
async fn every_operation_refuses_hostile_input_in_the_error_shape_and_keeps_its_state() {
    let target = Target::start().await;
    let before = target.snapshot().await;
    assert!(
        before.unknown.iter().all(|(_, status)| *status == 404),
        "{:?}",
        before.unknown
    );
    let operations = target.operations();
    let mut sent = 0;
    let mut with_body = 0;
    for op in &operations {
        let cases = match &op.input {
            Input::Json(body) => json_cases(op, body),
            Input::Multipart => upload_cases(op),
            Input::Path => path_cases(op),
        };
        with_body += usize::from(op.input != Input::Path);
        for case in &cases {
            check(&target, op, case).await;
        }
        sent += cases.len();
    }
    assert_eq!(with_body, 10, "every operation that takes a body");
    assert_eq!(operations.len(), 16);
    eprintln!("{sent} hostile requests to {} operations", operations.len());

    let after = target.snapshot().await;
    assert_eq!(after, before, "state changed under hostile input");
    // The business the refused create bodies named was never created: a
    // clean create of its registration number is not a 409.
    target
        .post_json("/api/business", &business_body(NEW_REGISTRATION))
        .await;
}

#[tokio::test]
async fn garbage_query_parameters_are_ignored_or_refused_in_the_error_shape() {
    let target = Target::start().await;
    let before = target.snapshot().await;
    let key: (&str, &[u8]) = ("x-api-key", KEY.as_bytes());
    let long = format!("rail={}", "w".repeat(8000));
    let queries = [
        "%FF=%FF",
        "a=1&a=2&&=&",
        "rail=",
        "rail=%FF",
        "rail=swift&rail=ach",
        "rail=%00",
        long.as_str(),
        "%",
        "a[b][c]=1",
    ];
    let mut refused = Vec::new();
    for op in target.operations() {
        if op.input != Input::Path {
            continue;
        }
        let clean = exchange(target.addr(), &request("GET", &op.target(), &[key], b""))
            .await
            .unwrap_or_else(|error| panic!("{}: {error}", op.id));
        assert_eq!(clean.status, 200, "{}: {}", op.id, clean.text());
        for query in queries {
            let url = format!("{}?{query}", op.target());
            let what = format!("{} with ?{}", op.id, shorten(query));
            let reply = exchange(target.addr(), &request("GET", &url, &[key], b""))
                .await
                .unwrap_or_else(|error| panic!("{what}: {error}"));
            if reply.status == 200 {
                // Unknown parameters are ignored: the same answer as
                // without (each quote has its own rateKey).
                let answer = |mut body: Value| {
                    if let Some(data) = body["data"].as_object_mut() {
                        data.remove("rateKey");
                    }
                    body
                };
                assert_eq!(answer(reply.json()), answer(clean.json()), "{what}");
            } else {
                let message = assert_error_shape(&reply, "GET", &url, &what);
                assert_eq!(reply.status, 400, "{what}");
                refused.push(message);
            }
        }
    }
    // Only the quote reads a parameter (`rail`): its garbage values and a
    // repeated rail are refused, everything else is ignored.
    let expected = |rail: &str| {
        format!(
            "Invalid rail: {rail} (expected one of ach, iban, swift, wire, pix, ethereum, \
             bridge_wallet, nip)"
        )
    };
    assert_eq!(
        refused,
        [
            expected(""),
            expected("\u{FFFD}"),
            "rail: must appear only once".to_owned(),
            expected("\0"),
            expected(&"w".repeat(8000)),
        ]
    );
    assert_eq!(target.snapshot().await, before);
}

#[tokio::test]
async fn a_stalled_body_is_answered_408_without_holding_the_request() {
    assert_eq!(
        SandboxConfig::default().body_idle_timeout,
        Duration::from_secs(30)
    );
    let target = Target::start_with(
        SandboxConfig::default().with_body_idle_timeout(Duration::from_millis(300)),
    )
    .await;
    let before = target.snapshot().await;
    for op in target.operations() {
        let body = match &op.input {
            Input::Json(body) => body.to_string().into_bytes(),
            Input::Multipart => multipart_body(PDF),
            Input::Path => continue,
        };
        let content_type = match op.input {
            Input::Multipart => format!("multipart/form-data; boundary={BOUNDARY}"),
            _ => "application/json".to_owned(),
        };
        let declared = body.len().to_string();
        let headers: Vec<(&str, &[u8])> = vec![
            ("x-api-key", KEY.as_bytes()),
            ("Content-Type", content_type.as_bytes()),
            ("Content-Length", declared.as_bytes()),
        ];
        // Half the body, and the connection kept open.
        let stalled = request(op.method, &op.target(), &headers, &body[..body.len() / 2]);
        let reply = exchange(target.addr(), &stalled)
            .await
            .unwrap_or_else(|error| panic!("{}: {error}", op.id));
        let message = assert_error_shape(&reply, op.method, &op.target(), op.id);
        assert_eq!(reply.status, 408, "{}: {message}", op.id);
        assert_eq!(message, "Request body stalled: no data for 300 ms");
    }
    assert_eq!(target.snapshot().await, before);
}

#[tokio::test]
async fn what_the_http_layer_refuses_leaves_the_sandbox_serving() {
    let target = Target::start().await;
    let before = target.snapshot().await;
    let key: (&str, &[u8]) = ("x-api-key", KEY.as_bytes());
    let huge = vec![b'h'; 512 * 1024];
    let names: Vec<String> = (0..120).map(|i| format!("X-Filler-{i}")).collect();
    let mut many: Vec<(&str, &[u8])> = vec![key];
    many.extend(names.iter().map(|name| (name.as_str(), &b"f"[..])));
    let cases = [
        (
            "a 512 kB header",
            request("GET", "/v1/api/balance/NGN", &[key, ("X-Huge", &huge)], b""),
            431,
        ),
        (
            "120 headers",
            request("GET", "/v1/api/balance/NGN", &many, b""),
            431,
        ),
        (
            "a TLS ClientHello",
            RawRequest {
                bytes: b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03garbage\r\n\r\n".to_vec(),
                half_close: true,
            },
            400,
        ),
        (
            "random bytes",
            RawRequest {
                bytes: [noise(7, 4096), b"\r\n\r\n".to_vec()].concat(),
                half_close: true,
            },
            400,
        ),
        (
            "a request line without a version",
            RawRequest {
                bytes: b"GET /v1/api/balance/NGN\r\n\r\n".to_vec(),
                half_close: true,
            },
            400,
        ),
    ];
    for (what, sent, status) in cases {
        match exchange(target.addr(), &sent).await {
            Ok(reply) => assert_eq!(reply.status, status, "{what}: {}", reply.text()),
            // Closing (or resetting, with bytes left unread) without a
            // word is also an answer to what the HTTP layer cannot read;
            // hanging is not (exchange is bounded).
            Err(error) => assert!(
                error.contains("closed") || error.contains("reset"),
                "{what}: {error}"
            ),
        }
    }
    let (status, _) = target.get("/api/balance/NGN").await;
    assert_eq!(status, 200);
    assert_eq!(target.snapshot().await, before);
}
