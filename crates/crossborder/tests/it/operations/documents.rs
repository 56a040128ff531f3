//! KYB document uploads: multipart, every answer shape, the file checked by content and size.

use super::*;
use crossborder::{types::UploadedDocument, Client};

/// Uploads `bytes` as `name` with `client`.
async fn upload(
    client: &Client,
    bytes: Vec<u8>,
    name: &str,
) -> crossborder::Result<UploadedDocument> {
    client.businesses().upload_document(bytes, name).await
}

#[tokio::test]
async fn upload_document_is_multipart() {
    let (server, client) = setup().await;
    mock::upload_document()
        .answers_once(
            &server,
            ok(json!({
                "message": "Document uploaded successfully",
                "data": {"link": "https://files.crossborder.invalid/kyb/doc_5f1c2a.pdf"},
                "error": false
            })),
        )
        .await;
    let pdf = b"%PDF-1.7\nhello\n%%EOF".to_vec();
    let document = upload(&client, pdf, "cac.pdf").await.unwrap();
    assert_eq!(
        document.link,
        "https://files.crossborder.invalid/kyb/doc_5f1c2a.pdf"
    );
    assert_eq!(
        document.reference("cac-cert"),
        DocumentLink::new(
            "https://files.crossborder.invalid/kyb/doc_5f1c2a.pdf",
            "cac-cert"
        )
    );

    let requests = server.received_requests().await.unwrap();
    let content_type = requests[0].headers["content-type"].to_str().unwrap();
    assert!(
        content_type.starts_with("multipart/form-data; boundary="),
        "{content_type}"
    );
    let body = String::from_utf8_lossy(&requests[0].body);
    assert!(
        body.contains(r#"name="file"; filename="cac.pdf""#),
        "{body}"
    );
    assert!(body.contains("Content-Type: application/pdf"), "{body}");
    assert!(body.contains("%PDF-1.7\nhello\n%%EOF"), "{body}");
}

/// ASSUMPTIONS A16: the upload's answer may carry the link as `data.link`,
/// as `data` itself, or as a top-level `link`.
#[tokio::test]
async fn upload_reads_every_answer_shape() {
    let link = "https://files.crossborder.invalid/kyb/doc_9a.pdf";
    for answer in [
        json!({"message": "ok", "data": {"link": link}}),
        json!({"message": "ok", "data": link}),
        json!({"link": link}),
    ] {
        let (server, client) = setup().await;
        mock::upload_document()
            .answers_once(&server, ok(answer.clone()))
            .await;
        let document = upload(&client, b"%PDF-1.7\n%%EOF".to_vec(), "cac.pdf")
            .await
            .unwrap();
        assert_eq!(document.link, link, "{answer}");
    }
    let (server, client) = setup().await;
    mock::upload_document()
        .answers(&server, ok(json!({"message": "ok"})))
        .await;
    let error = upload(&client, b"%PDF-1.7\n%%EOF".to_vec(), "cac.pdf")
        .await
        .unwrap_err();
    assert!(
        error
            .to_string()
            .contains("the upload answer has no link (expected data.link, data or link)"),
        "{error}"
    );
}

#[tokio::test]
async fn upload_refuses_other_file_types_without_sending() {
    let (server, client) = setup().await;
    let gif = b"GIF89a....".to_vec();
    assert_invalid(
        upload(&client, gif, "logo.gif").await,
        "file: Unsupported file type: only JPEG, PNG and PDF are accepted",
    );
    assert_nothing_sent(&server).await;
}

/// The file is judged by its content and size before any byte is sent: a
/// file over 20,000,000 bytes and text named `.pdf` are refused, PNG bytes
/// named `.pdf` are uploaded (as PNG).
#[tokio::test]
async fn upload_checks_size_and_content_not_the_name() {
    let (server, client) = setup().await;
    mock::upload_document()
        .answers_once(&server, ok(json!({"message": "ok", "data": {"link": "https://files.example/doc.png"}, "error": false}),)).await;
    let mut too_big = b"%PDF-1.4\n".to_vec();
    too_big.resize(20_000_001, b' ');
    for (bytes, message) in [
        (too_big, "file: File is larger than 20 MB (20000000 bytes)"),
        (
            b"just some text".to_vec(),
            "file: Unsupported file type: only JPEG, PNG and PDF are accepted",
        ),
    ] {
        let error = upload(&client, bytes, "statement.pdf").await.unwrap_err();
        assert_eq!(error.violations().unwrap().to_string(), message);
    }
    assert_nothing_sent(&server).await;

    let png = b"\x89PNG\r\n\x1a\n0000".to_vec();
    let uploaded = upload(&client, png, "statement.pdf").await.unwrap();
    assert_eq!(uploaded.link, "https://files.example/doc.png");
    let requests = server.received_requests().await.unwrap();
    let body = String::from_utf8_lossy(&requests[0].body);
    assert!(body.contains("Content-Type: image/png"), "{body}");
}

/// ASSUMPTIONS B2: any 2xx answer to the upload is success.
#[tokio::test]
async fn upload_accepts_any_2xx() {
    let (server, client) = setup().await;
    mock::upload_document()
        .answers_once(&server, ResponseTemplate::new(201).set_body_json(
            json!({"message": "Created", "data": {"link": "https://files.example/doc_201.pdf"}}),
        )).await;
    let uploaded = upload(&client, b"%PDF-1.7\n%%EOF".to_vec(), "cac.pdf")
        .await
        .unwrap();
    assert_eq!(uploaded.link, "https://files.example/doc_201.pdf");
}
