//! Document upload: type by content, size limits, serving links back.

use crossborder_sandbox::{ApiKeySpec, SandboxConfig, PRODUCTION_KEY, STAGING_KEY};

use crossborder_testkit::multipart;

use crate::sandbox::common::{assert_error, reply, Api, Reply};

/// Uploads `body` with the staging key, which the sandbox must refuse
/// with `status` and `message` in the API's error shape.
async fn refused(api: &Api, body: Vec<u8>, status: u16, message: &str) -> Reply {
    let reply = api.upload(STAGING_KEY, body).await;
    assert_error(&reply, status, message, "POST", "/api/upload-document");
    reply
}

/// Asserts the file size limit: a PDF of `limit` bytes is stored, and one
/// a byte larger is refused 413 with `message`.
async fn assert_upload_limit(api: &Api, limit: usize, message: &str) {
    let mut file = b"%PDF-1.7\n".to_vec();
    file.resize(limit + 1, b'0');
    refused(api, multipart("file", "big.pdf", &file), 413, message).await;
    file.truncate(limit);
    let accepted = api
        .upload(STAGING_KEY, multipart("file", "big.pdf", &file))
        .await;
    assert_eq!(accepted.status, 200, "{}", accepted.text);
}

#[tokio::test]
async fn accepted_types_are_stored_and_served() {
    let api = Api::start().await;
    let pdf = b"%PDF-1.7\n1 0 obj\n<<>>\nendobj\n".to_vec();
    let stored = api
        .upload(STAGING_KEY, multipart("file", "cac.txt", &pdf))
        .await;
    assert_eq!(stored.status, 200, "{}", stored.text);
    assert_eq!(stored.body["message"], "Document uploaded successfully");
    assert_eq!(stored.body["error"], false);
    let link = stored.body["data"]["link"].as_str().unwrap();
    assert!(
        link.starts_with(&format!("{}/documents/doc_", api.sandbox.base_url())),
        "{link}"
    );
    assert!(link.ends_with(".pdf"), "{link}");
    let served = api.fetch(link, Some(STAGING_KEY)).await;
    assert_eq!(served.headers["content-type"], "application/pdf");
    assert_eq!(served.bytes, pdf);

    for (bytes, extension) in [
        (vec![0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10], ".jpg"),
        (b"\x89PNG\r\n\x1a\n....".to_vec(), ".png"),
    ] {
        let stored = api
            .upload(STAGING_KEY, multipart("file", "x.bin", &bytes))
            .await;
        assert_eq!(stored.status, 200, "{}", stored.text);
        assert!(stored.body["data"]["link"]
            .as_str()
            .unwrap()
            .ends_with(extension));
    }
}

#[tokio::test]
async fn other_types_missing_files_and_limits() {
    let api = Api::start().await;
    refused(
        &api,
        multipart("file", "a.pdf", b"GIF89a...."),
        415,
        "Unsupported file type: only JPEG, PNG and PDF are accepted",
    )
    .await;
    let missing = refused(
        &api,
        multipart("document", "a.pdf", b"%PDF-1.4"),
        400,
        "file: is required",
    )
    .await;
    assert_eq!(
        missing.body["errors"],
        serde_json::json!([{"field": "file", "message": "is required"}]),
        "{}",
        missing.text
    );
    refused(&api, multipart("file", "a.pdf", b""), 400, "File is empty").await;
    let not_multipart = api.post_bytes("/api/upload-document", "{}").await;
    assert_eq!(not_multipart.status, 400, "{}", not_multipart.text);

    // The default limit is 20 MB (decimal) for the file itself.
    assert_upload_limit(
        &api,
        20_000_000,
        "File is larger than 20 MB (20000000 bytes)",
    )
    .await;
}

#[tokio::test]
async fn the_upload_limit_is_configurable() {
    let api = Api::start_with(SandboxConfig::default().with_max_upload_bytes(1024)).await;
    assert_upload_limit(&api, 1024, "File is larger than 1024 bytes").await;
}

#[tokio::test]
async fn documents_belong_to_the_business_that_uploaded_them() {
    let second = "test_second_merchant";
    let api =
        Api::start_with(SandboxConfig::default().with_key(ApiKeySpec::new(second).unwrap())).await;
    let pdf = b"%PDF-1.7\nmine\n".to_vec();
    let stored = api
        .upload(STAGING_KEY, multipart("file", "cac.pdf", &pdf))
        .await;
    assert_eq!(stored.status, 200, "{}", stored.text);
    let link = stored.body["data"]["link"].as_str().unwrap().to_owned();
    let id = link.rsplit('/').next().unwrap().to_owned();
    // 128 unpredictable bits: `doc_` + 32 hex digits + the extension.
    let digits = id
        .strip_prefix("doc_")
        .and_then(|rest| rest.strip_suffix(".pdf"))
        .unwrap();
    assert_eq!(digits.len(), 32, "{id}");
    assert!(digits.bytes().all(|b| b.is_ascii_hexdigit()), "{id}");

    // The owner, with its key (without one it is 403: see
    // tests/documents_private.rs).
    let served = api.fetch(&link, Some(STAGING_KEY)).await;
    assert_eq!(served.status, 200, "{}", served.text);
    assert_eq!(served.text.as_bytes(), pdf.as_slice());
    // Another business, authenticated: as if the document did not exist.
    for key in [second, PRODUCTION_KEY] {
        let refused = api.fetch(&link, Some(key)).await;
        assert_error(
            &refused,
            404,
            &format!("Document not found: {id}"),
            "GET",
            &format!("/documents/{id}"),
        );
    }
    // A key is checked as on every other path.
    let unknown = api.fetch(&link, Some("test_not_a_key")).await;
    assert_error(
        &unknown,
        401,
        "Invalid api key",
        "GET",
        &format!("/documents/{id}"),
    );

    // Nothing lists documents.
    for path in ["/documents", "/documents/", "/api/documents"] {
        for key in [Some(STAGING_KEY), None] {
            let mut request = api.http.get(api.url(path));
            if let Some(key) = key {
                request = request.header("x-api-key", key);
            }
            let listed = reply(request.send().await.unwrap()).await;
            assert_eq!(listed.status, 404, "{path} {key:?}: {}", listed.text);
            assert!(!listed.text.contains(&id), "{path}: {}", listed.text);
        }
    }
}
