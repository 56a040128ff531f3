//! `openapi/sandbox-control.yaml` describes exactly the control API the
//! sandbox serves: every (method, path) of the document is in
//! `control::ROUTES` and answered by a route, and every route is in the
//! document.

use crossborder_sandbox::control::ROUTES;
use crossborder_testkit::{read_reply, TestSandbox, STAGING_KEY};

/// The `(METHOD, path)` pairs of the document's `paths`, in its order.
fn documented() -> Vec<(String, String)> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../openapi/sandbox-control.yaml"
    );
    let text = std::fs::read_to_string(path).expect("the control API's document");
    let mut pairs = Vec::new();
    let mut current = None;
    let mut in_paths = false;
    for line in text.lines() {
        if !line.starts_with(' ') {
            in_paths = line == "paths:";
            continue;
        }
        if !in_paths {
            continue;
        }
        if let Some(path) = line
            .strip_prefix("  /")
            .and_then(|rest| rest.strip_suffix(':'))
        {
            current = Some(format!("/{path}"));
        } else if let (Some(method), Some(path)) = (
            line.strip_prefix("    ")
                .and_then(|rest| rest.strip_suffix(':')),
            &current,
        ) {
            if ["get", "post", "put", "patch", "delete"].contains(&method) {
                pairs.push((method.to_ascii_uppercase(), path.clone()));
            }
        }
    }
    pairs
}

#[tokio::test]
async fn the_document_and_the_routes_are_the_same() {
    let mut documented = documented();
    let mut served: Vec<(String, String)> = ROUTES
        .iter()
        .map(|(method, path)| ((*method).to_owned(), (*path).to_owned()))
        .collect();
    assert_eq!(documented.len(), 12, "{documented:?}");
    documented.sort();
    served.sort();
    assert_eq!(documented, served);

    // Each is answered by its route, not by the router's 404 or 405.
    let api = TestSandbox::start().await;
    let root = api.base_url().trim_end_matches("/v1").to_owned();
    for (method, path) in &documented {
        let concrete = path.replace("{currency}", "NGN").replace(['{', '}'], "");
        let request = api
            .http
            .request(method.parse().unwrap(), format!("{root}{concrete}"))
            .header("x-api-key", STAGING_KEY);
        let reply = read_reply(request.send().await.unwrap()).await;
        let message = reply.body["message"].as_str().unwrap_or_default();
        assert!(
            reply.status != 405 && !message.starts_with("Cannot "),
            "{method} {concrete}: {}",
            reply.text
        );
        assert!(
            matches!(reply.status, 200 | 400 | 404),
            "{method} {concrete}: {}",
            reply.text
        );
    }
}
