//! KYB documents are private (ASSUMPTIONS B55): reading one needs the key
//! of the business that uploaded it, while the sandbox itself still
//! resolves the links a business sends.

use crossborder_sandbox::{DocumentContent, NO_ACCESS_KEY, PRODUCTION_KEY, STAGING_KEY};
use crossborder_testkit::fixtures::business_json;
use reqwest::Method;
use serde_json::json;

use crate::described::support::{assert_error, post_ok, Api};

const PDF: &[u8] = b"%PDF-1.7\nprivate statement\n";

#[tokio::test]
async fn reading_a_document_needs_the_uploaders_key() {
    let api = Api::start().await;
    let link = api.upload_link(STAGING_KEY, PDF).await;
    let id = link.rsplit('/').next().expect("an id").to_owned();
    let path = format!("/documents/{id}");
    // No key: the description's missing-header answer, in its error shape;
    // another business's key: the answer of an unknown document; keys are
    // checked as on every endpoint.
    let unknown = format!("Document not found: {id}");
    for (key, status, message) in [
        (None, 403, "API key header needed"),
        (Some(PRODUCTION_KEY), 404, unknown.as_str()),
        (Some("test_not_a_key"), 401, "Invalid api key"),
        (
            Some(NO_ACCESS_KEY),
            401,
            "not allowed to access this resource; contact support",
        ),
    ] {
        assert_error(&api.fetch(&link, key).await, status, message, "GET", &path);
    }
    // The uploader's key reads it.
    let read = api.fetch(&link, Some(STAGING_KEY)).await;
    assert_eq!(read.status, 200);
    assert_eq!(
        read.headers["content-type"].to_str().ok(),
        Some("application/pdf")
    );
    assert_eq!(read.bytes, PDF);
}

#[tokio::test]
async fn the_sandbox_resolves_the_links_a_business_sends() {
    let api = Api::start().await;
    let own = api.upload_link(STAGING_KEY, PDF).await;
    let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    let own_png = api.upload_link(STAGING_KEY, &png).await;
    let theirs = api.upload_link(PRODUCTION_KEY, b"%PDF-1.4\ntheirs\n").await;
    let elsewhere = "https://files.example/letter.pdf";
    let documents = json!({
        "cac_document": {"url": own, "key": "cac"},
        "bank_statement": {"url": theirs, "key": "statement"},
        "application_letter": {"url": elsewhere, "key": "letter"},
        "cac_status_report": {"url": own, "key": "status"}
    });
    let mut body = business_json("RC-DOCS-1", &own_png, documents);
    body["sourceOfFund"] = json!({"url": own, "type": "Revenue"});
    let created = post_ok(&api, "/api/business", &body).await;
    let business = created.body["data"]["id"].as_str().expect("an id");

    let pdf = Some(DocumentContent {
        media_type: "application/pdf",
        bytes: PDF.to_vec(),
    });
    let resolved: Vec<_> = api
        .sandbox
        .business_documents(business)
        .expect("the business is known")
        .into_iter()
        .map(|linked| (linked.field, linked.url, linked.content))
        .collect();
    assert_eq!(
        resolved,
        [
            (
                "documents.application_letter".to_owned(),
                elsewhere.to_owned(),
                None
            ),
            // Another account's upload is not this business's document.
            ("documents.bank_statement".to_owned(), theirs.clone(), None),
            (
                "documents.cac_document".to_owned(),
                own.clone(),
                pdf.clone()
            ),
            (
                "documents.cac_status_report".to_owned(),
                own.clone(),
                pdf.clone()
            ),
            (
                "proofOfAddress".to_owned(),
                own_png.clone(),
                Some(DocumentContent {
                    media_type: "image/png",
                    bytes: png.clone(),
                }),
            ),
            ("sourceOfFund".to_owned(), own.clone(), pdf.clone()),
        ]
    );

    // An update's links replace the earlier ones, and resolve the same way.
    let updated = api
        .raw(
            Method::PATCH,
            &format!("/api/business/{business}"),
            Some(STAGING_KEY),
            Some(&json!({"sourceOfFund": {"url": own_png, "type": "Savings"}})),
        )
        .await;
    assert_eq!(updated.status, 200, "{}", updated.text);
    let source = api
        .sandbox
        .business_documents(business)
        .expect("the business is known")
        .into_iter()
        .find(|linked| linked.field == "sourceOfFund")
        .expect("a source of funds");
    assert_eq!(source.url, own_png);
    assert_eq!(source.content.map(|content| content.bytes), Some(png));
    assert!(api.sandbox.business_documents("biz_unknown").is_none());
}
