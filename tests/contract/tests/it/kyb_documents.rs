//! The documents map against the sandbox: the keys the sandbox received
//! (ASSUMPTIONS B10: each sent as the spec knows it, whatever the caller
//! wrote), and the required documents of each business type, refused by
//! the SDK before sending and by the sandbox with the same violations.

use crossborder::{
    json::BusinessRequestKind,
    types::{
        BusinessType, CreateBusinessRequest, DocumentKeyMapping, DocumentLink, Documents,
        UpdateBusinessRequest,
    },
    Error,
};
use crossborder_contract_tests::{
    assert_same_violations, business_json, business_request, sdk_client, staging, upload_pdf, Env,
    Proxy, Rewrite, STAGING_KEY,
};
use crossborder_sandbox::StoredDocument;
use serde_json::{json, Map, Value};

/// The documents map as the API's JSON.
fn documents_json(documents: &Documents) -> Value {
    let map: Map<String, Value> = documents
        .iter()
        .map(|(key, link)| (key.clone(), json!({"url": link.url, "key": link.key})))
        .collect();
    Value::Object(map)
}

/// The keys of the business's documents map as the sandbox stored them.
fn stored_keys(env: &Env, business_id: &str) -> Vec<String> {
    env.sandbox
        .business(business_id)
        .expect("the sandbox holds the business")
        .documents
        .into_keys()
        .collect()
}

/// Asserts that the sandbox stored exactly the keys `expected` for the
/// business, and that they are the keys its request said it would send
/// (`announced`).
fn assert_stored_as_announced(
    env: &Env,
    business_id: &str,
    announced: Vec<DocumentKeyMapping>,
    expected: &[&str],
) {
    let received = stored_keys(env, business_id);
    assert_eq!(received, expected);
    let mut sent: Vec<String> = announced
        .into_iter()
        .filter_map(|mapping| mapping.sent)
        .collect();
    sent.sort();
    assert_eq!(sent, received);
}

#[tokio::test]
async fn the_sandbox_receives_each_key_as_the_spec_knows_it() {
    let (env, client) = staging().await;
    let link = upload_pdf(&client, "document.pdf").await;

    // Typed create: keys written loosely, and this crate's own aliases.
    let mut request = business_request("RC8100001", &link);
    request.documents.clear();
    for (key, id) in [
        (" Bank-Statement ", "statement"),
        ("incorporation_certificate", "certificate"),
        ("bn1", "bn1"),
        ("form_2", "form-2"),
        ("application_letter", "letter"),
        ("memart", "memart"),
    ] {
        request
            .documents
            .insert(key.into(), DocumentLink::new(link.as_str(), id));
    }
    let created = client.businesses().create(&request).await.unwrap();
    assert_stored_as_announced(
        &env,
        &created.id,
        request.document_keys(),
        &[
            "APPLICATION_LETTER",
            "MEMORANDUM_AND_ARTICLES_OF_ASSOCIATION",
            "bank_statement",
            "bn_form_1",
            "cac_document",
            "cac_form_2",
        ],
    );
    let stored = env.sandbox.business(&created.id).unwrap();
    assert_eq!(
        stored.documents["bn_form_1"],
        StoredDocument {
            url: link.clone(),
            key: "bn1".into()
        }
    );

    // Typed update: `status_report` arrives as `cac_status_report`.
    let mut documents = Documents::new();
    documents.insert(
        "status_report".into(),
        DocumentLink::new(link.as_str(), "status"),
    );
    let update = UpdateBusinessRequest {
        documents: Some(documents),
        ..UpdateBusinessRequest::default()
    };
    client
        .businesses()
        .update(&created.id, &update)
        .await
        .unwrap();
    assert!(stored_keys(&env, &created.id).contains(&"cac_status_report".to_owned()));

    // JSON create: the spec's own aliases arrive as the spec writes them,
    // as the verdict said.
    let documents = json!({
        "CAC": {"url": link, "key": "cac"},
        "Bank-Statement": {"url": link, "key": "statement"},
        "application_letter": {"url": link, "key": "letter"},
        "cac-status-report": {"url": link, "key": "status"},
    });
    let body = business_json("RC8100002", &link, documents);
    let verdict = crossborder::json::check_business_json(&body, BusinessRequestKind::Create);
    let created = client.businesses().create_json(&body).await.unwrap();
    assert_stored_as_announced(
        &env,
        &created.id,
        verdict.document_keys,
        &[
            "APPLICATION_LETTER",
            "bank_statement",
            "cac",
            "cac_status_report",
        ],
    );

    // An unlisted key reaches the sandbox exactly as given; the sandbox
    // knows only the types of ASSUMPTIONS B15, so it answers as the service
    // would for a key it does not know.
    let mut unlisted = business_request("RC8100003", &link);
    unlisted.documents.insert(
        "SCUML_CERTIFICATE".into(),
        DocumentLink::new(link.as_str(), "scuml").unlisted(),
    );
    match client.businesses().create(&unlisted).await.unwrap_err() {
        Error::Api {
            status: 400,
            message,
            ..
        } => assert_eq!(message, "Unrecognized document key: SCUML_CERTIFICATE"),
        other => panic!("{other:?}"),
    }
}

/// ASSUMPTIONS D42: the SDK reads `Bank Statement`, `application-letter`
/// and `bn1` loosely and sends them as `bank_statement`,
/// `APPLICATION_LETTER` and `bn_form_1`, which the sandbox accepts; the
/// same keys sent raw are refused by the sandbox as the description's rule
/// refuses them, each with the message of an unknown key.
#[tokio::test]
async fn loose_keys_pass_through_the_sdk_and_are_refused_raw() {
    let (env, client) = staging().await;
    let link = upload_pdf(&client, "document.pdf").await;
    let loose = [
        (
            "Bank Statement",
            "bank_statement",
            " (did you mean bank_statement?)",
        ),
        (
            "application-letter",
            "APPLICATION_LETTER",
            " (did you mean APPLICATION_LETTER?)",
        ),
        ("bn1", "bn_form_1", ""),
    ];

    let mut request = business_request("RC8300001", &link);
    request.documents.clear();
    request.documents.insert(
        "cac_document".into(),
        DocumentLink::new(link.as_str(), "certificate"),
    );
    for (key, _, _) in loose {
        request
            .documents
            .insert(key.into(), DocumentLink::new(link.as_str(), key));
    }
    let created = client.businesses().create(&request).await.unwrap();
    let mut expected: Vec<&str> = loose.iter().map(|(_, sent, _)| *sent).collect();
    expected.push("cac_document");
    expected.sort_unstable();
    assert_stored_as_announced(&env, &created.id, request.document_keys(), &expected);

    let mut raw = raw_body(&request, &link);
    raw["registrationNumber"] = json!("RC8300002");
    let reply = env.post("/api/business", &raw).await;
    assert_eq!(reply.status, 400, "{}", reply.text);
    for (key, _, suggestion) in loose {
        let field = format!("documents.{key}");
        let message = format!("Unrecognized document key: {key}{suggestion}");
        let refusal = reply.body["errors"]
            .as_array()
            .unwrap()
            .iter()
            .find(|error| error["field"] == json!(field))
            .unwrap_or_else(|| panic!("{key}: {}", reply.text));
        assert_eq!(refusal["message"], json!(message), "{key}");
    }
}

/// Each required document, and the message when it alone is missing.
const REQUIRED: [(&str, &str); 4] = [
    (
        "cac_document",
        "documents: missing a certificate of incorporation (cac_document, cac, \
         certificate_of_incorporation) or a business license (business_license)",
    ),
    (
        "bank_statement",
        "documents: missing a six-month bank statement (bank_statement)",
    ),
    (
        "application_letter",
        "documents: missing an application letter (application_letter)",
    ),
    (
        "cac_status_report",
        "documents: missing a CAC status report (cac_status_report) or a BN Form 1 (bn_form_1)",
    ),
];

/// The raw body of `request` for the sandbox.
fn raw_body(request: &CreateBusinessRequest, link: &str) -> Value {
    let mut body = business_json(
        &request.registration_number,
        link,
        documents_json(&request.documents),
    );
    body["businessType"] = json!(request.business_type.as_str());
    body
}

/// For each business type (the spec shows one set; LLP needs LLC's, and
/// this crate applies it to SoleProprietorship too): the complete set, with
/// `cac_document` as the certificate and no `cac`, is accepted by the SDK
/// and the sandbox; so are the alternatives (a business license, a BN Form
/// 1); and without any one required document the SDK refuses with the exact
/// message before sending, and the sandbox answers the same violations.
#[tokio::test]
async fn each_business_type_needs_every_required_document() {
    let (env, client) = staging().await;
    let link = upload_pdf(&client, "document.pdf").await;
    let proxy = Proxy::start(env.base_url(), Rewrite::default()).await;
    let counted = sdk_client(proxy.base_url(), STAGING_KEY);

    for (index, business_type) in BusinessType::ALL.into_iter().enumerate() {
        let number = |case: usize| format!("RC82{index}{case:04}");
        let mut complete = business_request(&number(0), &link);
        complete.business_type = business_type;
        let keys: Vec<&str> = complete.documents.keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            [
                "application_letter",
                "bank_statement",
                "cac_document",
                "cac_status_report"
            ]
        );
        let created = client.businesses().create(&complete).await.unwrap();
        assert_eq!(created.business_type, Some(business_type));
        assert_eq!(
            env.sandbox.business(&created.id).unwrap().documents.len(),
            4
        );

        for (case, (alternative_of, alternative)) in [
            ("cac_document", "business_license"),
            ("cac_status_report", "bn_form_1"),
        ]
        .into_iter()
        .enumerate()
        {
            let mut request = complete.clone();
            request.registration_number = number(10 + case);
            let link = request.documents.remove(alternative_of).unwrap();
            request.documents.insert(alternative.into(), link);
            client
                .businesses()
                .create(&request)
                .await
                .unwrap_or_else(|e| panic!("{business_type} with {alternative}: {e}"));
        }

        for (case, (removed, message)) in REQUIRED.into_iter().enumerate() {
            let mut request = complete.clone();
            request.registration_number = number(20 + case);
            request.documents.remove(removed);
            let seen = proxy.requests_seen();
            let error = counted.businesses().create(&request).await.unwrap_err();
            let violations = error.violations().expect("a validation error").clone();
            assert_eq!(
                violations.to_string(),
                message,
                "{business_type} without {removed}"
            );
            assert_eq!(proxy.requests_seen(), seen, "nothing was sent");

            let raw = env.post("/api/business", &raw_body(&request, &link)).await;
            assert_same_violations(&raw, &violations, "POST", "/api/business");
        }
    }
}
