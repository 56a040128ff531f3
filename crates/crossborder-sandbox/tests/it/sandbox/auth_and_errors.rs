//! Authentication rows and the error shape for every kind of bad request.

use crossborder_sandbox::{NO_ACCESS_KEY, PRODUCTION_KEY, STAGING_KEY};
use reqwest::Method;
use serde_json::json;

use crate::sandbox::common::{assert_error, post_ok, refused, refused_field, Api};

#[tokio::test]
async fn every_authentication_row() {
    let api = Api::start().await;
    let cases = [
        (Method::GET, "/api/balance/NGN", None),
        (Method::POST, "/api/payout", Some(json!({}))),
        (Method::GET, "/api/qoutes/USD/NGN/100", None),
    ];
    for (method, path, body) in &cases {
        let name = method.as_str();
        let missing = api.raw(method.clone(), path, None, body.as_ref()).await;
        assert_error(&missing, 403, "API key header needed", name, path);
        let empty = api.raw(method.clone(), path, Some(""), body.as_ref()).await;
        assert_error(&empty, 403, "API key header needed", name, path);
        let unknown = api
            .raw(method.clone(), path, Some("test_unknown"), body.as_ref())
            .await;
        assert_error(&unknown, 401, "Invalid api key", name, path);
        let blocked = api
            .raw(method.clone(), path, Some(NO_ACCESS_KEY), body.as_ref())
            .await;
        assert_error(
            &blocked,
            401,
            "not allowed to access this resource; contact support",
            name,
            path,
        );
    }
    for key in [STAGING_KEY, PRODUCTION_KEY] {
        let ok = api
            .raw(Method::GET, "/api/balance/NGN", Some(key), None)
            .await;
        assert_eq!(ok.status, 200, "{}", ok.text);
    }
}

#[tokio::test]
async fn authentication_comes_before_body_checks() {
    let api = Api::start().await;
    let reply = api
        .http
        .post(api.url("/api/payout"))
        .body("{not json")
        .send()
        .await
        .unwrap();
    let reply = crate::sandbox::common::reply(reply).await;
    assert_error(&reply, 403, "API key header needed", "POST", "/api/payout");
}

/// Every place a currency code is read, in paths and bodies: a code that is
/// not one of the supported ones, exactly as written (uppercase), is 400
/// `Invalid currency: <code>`.
#[tokio::test]
async fn invalid_currency_in_paths_and_bodies() {
    let api = Api::start().await;
    let mut payout = crate::sandbox::common::ngn_payout("s-abc", "100");
    payout["toCurrency"] = json!("ABC");
    let cases = [
        ("balance", "/api/balance/ABC", None, "ABC"),
        ("lowercase balance", "/api/balance/ngn", None, "ngn"),
        ("quote source", "/api/qoutes/ABC/NGN/100", None, "ABC"),
        ("quote destination", "/api/qoutes/USD/ABC/100", None, "ABC"),
        ("bank list", "/api/bank-list/USD/XYZ", None, "XYZ"),
        ("payout", "/api/payout", Some(&payout), "ABC"),
    ];
    for (case, path, body, code) in cases {
        let message = format!("Invalid currency: {code}");
        refused(&api, case, path, body, 400, &message).await;
    }

    // A body's refusal names the field in `errors` too.
    let body = json!({"amount": 100, "fromCurrency": "ABC", "toCurrency": "NGN", "paymentReference": "r1"});
    let message = "Invalid currency: ABC";
    let collection = refused(
        &api,
        "collection",
        "/api/initiate-payment",
        Some(&body),
        400,
        message,
    )
    .await;
    assert_eq!(
        collection.body["errors"],
        json!([{"field": "fromCurrency", "message": "Invalid currency: ABC"}])
    );
}

#[tokio::test]
async fn malformed_bodies_missing_and_wrong_typed_fields() {
    let api = Api::start().await;
    let malformed = api.post_bytes("/api/payout", "{\"amount\": ").await;
    assert_eq!(malformed.status, 400);
    let message = malformed.body["message"].as_str().unwrap();
    assert!(message.starts_with("Malformed JSON body: "), "{message}");

    for raw in ["", "[]", "42", "null"] {
        let reply = api.post_bytes("/api/payout", raw).await;
        assert_error(
            &reply,
            400,
            "Request body must be a JSON object",
            "POST",
            "/api/payout",
        );
    }

    let mut body = crate::sandbox::common::ngn_payout("s-missing", "100");
    body.as_object_mut().unwrap().remove("amount");
    refused_field(&api, "/api/payout", &body, "amount", "is required").await;

    let mut number = crate::sandbox::common::ngn_payout("s-typed", "100");
    number["amount"] = json!(100);
    // No field is nullable: null is a value of the wrong type.
    let mut null = crate::sandbox::common::ngn_payout("s-null", "100");
    null["narration"] = json!(null);
    let cases = [
        (
            "payout amount as a number",
            "/api/payout",
            number,
            "amount: must be a string",
        ),
        (
            "collection amount as a string, no reference",
            "/api/initiate-payment",
            json!({"amount": "100", "fromCurrency": "NGN", "toCurrency": "NGN"}),
            "amount: must be a number; paymentReference: is required",
        ),
        (
            "null narration",
            "/api/payout",
            null,
            "narration: must be a string",
        ),
    ];
    for (case, path, body, message) in cases {
        refused(&api, case, path, Some(&body), 400, message).await;
    }

    // Unknown fields are ignored.
    let mut body = crate::sandbox::common::ngn_payout("s-extra", "100");
    body["somethingElse"] = json!({"deep": [1, 2, 3]});
    post_ok(&api, "/api/payout", &body).await;
}

#[tokio::test]
async fn unknown_routes_wrong_methods_and_oversized_bodies() {
    let api = Api::start().await;
    api.get_refused("/api/nothing-here", 404, "Cannot GET /v1/api/nothing-here")
        .await;
    let outside = api
        .http
        .get(format!("http://{}/elsewhere?x=1", api.sandbox.local_addr()))
        .send()
        .await
        .unwrap();
    assert_eq!(outside.status(), 404);
    let body: serde_json::Value = outside.json().await.unwrap();
    assert_eq!(body["request"]["url"], "/elsewhere?x=1");

    let response = api
        .http
        .delete(api.url("/api/payout"))
        .header("x-api-key", STAGING_KEY)
        .send()
        .await
        .unwrap();
    assert_eq!(response.headers()["allow"], "POST");
    let wrong_method = crate::sandbox::common::reply(response).await;
    assert_error(
        &wrong_method,
        405,
        "Method not allowed",
        "DELETE",
        "/api/payout",
    );

    let big = format!("{{\"narration\": \"{}\"}}", "x".repeat(1024 * 1024));
    let too_large = api.post_bytes("/api/payout", big).await;
    assert_error(
        &too_large,
        413,
        "Request body is larger than 1048576 bytes",
        "POST",
        "/api/payout",
    );

    // Without Content-Length (a chunked body), the limit still holds.
    let head = streamed_post_status(&api, 40, 32 * 1024).await;
    assert!(head.starts_with("HTTP/1.1 413"), "{head}");
}

/// POSTs `chunks` chunks of `size` spaces with chunked encoding over a raw
/// socket and returns the response's status line.
async fn streamed_post_status(api: &Api, chunks: usize, size: usize) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut socket = tokio::net::TcpStream::connect(api.sandbox.local_addr())
        .await
        .unwrap();
    let head = format!(
        "POST /v1/api/payout HTTP/1.1\r\nHost: localhost\r\nx-api-key: {STAGING_KEY}\r\n\
         Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
    );
    socket.write_all(head.as_bytes()).await.unwrap();
    let chunk = format!("{size:x}\r\n{}\r\n", " ".repeat(size));
    for _ in 0..chunks {
        // The server may answer and close before everything is sent.
        if socket.write_all(chunk.as_bytes()).await.is_err() {
            break;
        }
    }
    let _ = socket.write_all(b"0\r\n\r\n").await;
    let mut response = Vec::new();
    let _ = tokio::time::timeout(
        std::time::Duration::from_secs(10),
        socket.read_to_end(&mut response),
    )
    .await;
    String::from_utf8_lossy(&response)
        .lines()
        .next()
        .unwrap_or_default()
        .to_owned()
}

/// ASSUMPTIONS A7: a refused body lists every violation in `errors`, and
/// its `message` joins them with `; `, unless one is an unsupported
/// currency or an unrecognised document key: then `message` is that
/// violation's own (the API's words) and `errors` still lists them all. A
/// refusal that is not about fields (an unreadable body, an insufficient
/// balance) carries no `errors`.
#[tokio::test]
async fn a_refused_body_lists_every_violation_and_its_message_joins_them() {
    let api = Api::start().await;
    let mut payout = crate::sandbox::common::ngn_payout("s-two", "100");
    payout.as_object_mut().unwrap().remove("amount");
    payout.as_object_mut().unwrap().remove("sessionId");
    let joined = "amount: is required; sessionId: is required";
    let reply = refused(
        &api,
        "two missing",
        "/api/payout",
        Some(&payout),
        400,
        joined,
    )
    .await;
    assert_eq!(
        reply.body["errors"],
        json!([
            {"field": "amount", "message": "is required"},
            {"field": "sessionId", "message": "is required"},
        ])
    );

    let mut business = crate::sandbox::kyb::business("RC-A7");
    business["documents"]["foo"] = json!({"key": "foo", "url": "https://files.example/doc.pdf"});
    business["email"] = json!("not an email");
    let message = "Unrecognized document key: foo";
    let reply = refused(
        &api,
        "document key",
        "/api/business",
        Some(&business),
        400,
        message,
    )
    .await;
    let errors = reply.body["errors"].as_array().unwrap();
    let fields: Vec<&str> = errors
        .iter()
        .map(|e| e["field"].as_str().unwrap())
        .collect();
    assert!(fields.contains(&"documents.foo"), "{}", reply.text);
    assert!(fields.contains(&"email"), "{}", reply.text);

    let malformed = api.post_bytes("/api/payout", "{\"amount\": ").await;
    assert_eq!(malformed.status, 400);
    assert!(malformed.body.get("errors").is_none(), "{}", malformed.text);
    let big = crate::sandbox::common::ngn_payout("s-big", "99999999");
    let poor = api.post("/api/payout", &big).await;
    assert_eq!(poor.status, 400, "{}", poor.text);
    assert!(
        poor.body["message"]
            .as_str()
            .unwrap()
            .starts_with("Insufficient balance: "),
        "{}",
        poor.text
    );
    assert!(poor.body.get("errors").is_none(), "{}", poor.text);
}
