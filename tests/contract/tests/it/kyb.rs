//! Business onboarding (KYB) through the SDK: upload, create, director,
//! UBO, status decisions, update; and the KYB error answers.

use crossborder::{
    types::{Address, Business, BusinessStatus, BusinessType, PersonRole, UpdateBusinessRequest},
    Client, Error,
};
use crossborder_contract_tests::{
    assert_error_body, assert_same_violations, business_json, business_request, fixtures,
    person_request, reply, sdk_client, staging, upload, upload_pdf, Env, Proxy, Reply, Rewrite,
    GIF, PDF, PRODUCTION_KEY, STAGING_KEY,
};
use crossborder_sandbox::REJECTION_REASON;
use serde_json::json;

/// The fields the SDK submits for [`business_request`], each reviewed on
/// its own: everything sent but `name` and `registrationNumber` (the SDK
/// sends the TIN under both spellings).
const REVIEWED_FIELDS: [&str; 10] = [
    "TIN",
    "businessAddress",
    "businessDescription",
    "businessType",
    "documents",
    "email",
    "natureOfBusiness",
    "phoneNumber",
    "proofOfAddress",
    "tin",
];

/// Every reviewed field, and only those, has status `expected`.
/// `POST /api/upload-document` of `form` with the staging key, as reqwest
/// writes it.
async fn upload_form(env: &Env, form: reqwest::multipart::Form) -> Reply {
    let request = env
        .http
        .post(env.url("/api/upload-document"))
        .header("x-api-key", STAGING_KEY)
        .multipart(form);
    reply(request.send().await.expect("the sandbox answers")).await
}

/// Business `id` once decided, waited for with `options`.
async fn decision(client: &Client, id: &str, options: crossborder::WaitOptions) -> Business {
    match client.businesses().wait_for_decision(id, options).await {
        Ok(business) => business,
        Err(error) => panic!("no decision on {id}: {error}"),
    }
}

/// Asserts that `business` shows `field` with `expected`.
fn assert_field_status(business: &Business, field: &str, expected: BusinessStatus) {
    assert_eq!(
        business.field_statuses.get(field),
        Some(&expected),
        "{field}: {:?}",
        business.field_statuses
    );
}

fn assert_field_statuses(business: &Business, expected: &BusinessStatus) {
    let fields: Vec<&str> = business.field_statuses.keys().map(String::as_str).collect();
    assert_eq!(fields, REVIEWED_FIELDS);
    for (field, status) in &business.field_statuses {
        assert_eq!(status, expected, "{field}: {:?}", business.field_statuses);
    }
}

/// Uploads a PDF and creates the business with `registration_number`
/// around it; returns the business and the PDF's link.
async fn created_business(client: &Client, registration_number: &str) -> (Business, String) {
    let link = upload_pdf(client, "cac.pdf").await;
    let request = business_request(registration_number, &link);
    match client.businesses().create(&request).await {
        Ok(business) => (business, link),
        Err(error) => panic!("{registration_number} is not created: {error}"),
    }
}

/// Creates a business with `registration_number`, adds a director and a
/// UBO, and returns its id.
async fn submitted_business(client: &Client, registration_number: &str) -> String {
    let (business, link) = created_business(client, registration_number).await;
    let person = person_request(&link);
    client
        .businesses()
        .add_director(&business.id, &person)
        .await
        .unwrap();
    let ubo = client
        .businesses()
        .add_ubo(&business.id, &person)
        .await
        .unwrap();
    assert_eq!(ubo.submitted, Some(true));
    business.id
}

#[tokio::test]
async fn upload_accepts_pdf_and_refuses_other_types() {
    let (env, client) = staging().await;
    let link = upload_pdf(&client, "cac.pdf").await;
    let prefix = format!("{}/documents/doc_", env.base_url());
    assert!(
        link.starts_with(&prefix) && link.ends_with(".pdf"),
        "{link}"
    );
    // The link serves the bytes back to the uploading business's key
    // only (ASSUMPTIONS B55): without a key it is 403, and another
    // business gets the 404 of an unknown link.
    let own = env.fetch(&link, Some(STAGING_KEY)).await;
    assert_eq!(own.status, 200);
    assert_eq!(own.bytes, PDF);
    assert_eq!(env.fetch(&link, None).await.status, 403);
    let other = env.fetch(&link, Some(PRODUCTION_KEY)).await;
    assert_eq!(other.status, 404);
    let id = link.rsplit('/').next().unwrap();
    assert_eq!(other.body["message"], format!("Document not found: {id}"));

    // PNG and JPEG are accepted too, told by content.
    let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    let png_link = upload(&client, png, "logo.png").await;
    assert!(png_link.ends_with(".png"), "{png_link}");
    let jpeg = b"\xFF\xD8\xFF\xE0\0\x10JFIF\0".to_vec();
    let jpeg_link = upload(&client, jpeg, "id.jpg").await;
    assert!(
        jpeg_link.ends_with(".jpg") || jpeg_link.ends_with(".jpeg"),
        "{jpeg_link}"
    );

    // The SDK refuses a GIF without sending it.
    let proxy = Proxy::start(env.base_url(), Rewrite::default()).await;
    let via_proxy = sdk_client(proxy.base_url(), STAGING_KEY);
    let error = via_proxy
        .businesses()
        .upload_document(GIF.to_vec(), "logo.gif")
        .await
        .unwrap_err();
    assert_eq!(
        error.violations().expect("a validation error").to_string(),
        "file: Unsupported file type: only JPEG, PNG and PDF are accepted"
    );
    assert_eq!(proxy.requests_seen(), 0);

    // The sandbox refuses it too: 415, with the same rule's message.
    let form = reqwest::multipart::Form::new().part(
        "file",
        reqwest::multipart::Part::bytes(GIF.to_vec()).file_name("logo.gif"),
    );
    let raw = upload_form(&env, form).await;
    assert_error_body(
        &raw,
        415,
        "Unsupported file type: only JPEG, PNG and PDF are accepted",
        "POST",
        "/api/upload-document",
    );

    // A form without `file`.
    let form = reqwest::multipart::Form::new().text("other", "x");
    let raw = upload_form(&env, form).await;
    assert_error_body(
        &raw,
        400,
        "file: is required",
        "POST",
        "/api/upload-document",
    );
}

#[tokio::test]
async fn onboarding_is_approved_and_an_update_is_reviewed_again() {
    let (_env, client) = staging().await;
    let businesses = client.businesses();
    let (created, link) = created_business(&client, "RC1234567").await;
    assert!(
        created.id.len() == 14
            && created.id.starts_with("biz_")
            && created.id[4..].chars().all(|c| c.is_ascii_alphanumeric()),
        "{}",
        created.id
    );
    assert_eq!(created.status, BusinessStatus::Pending);
    assert_eq!(created.name.as_deref(), Some("Lagos Trading Ltd"));
    assert_eq!(created.business_type, Some(BusinessType::Llc));
    assert_eq!(created.registration_number.as_deref(), Some("RC1234567"));
    assert_eq!(created.country.as_deref(), Some("NG"));
    assert_eq!(created.rejection_reason, None);
    assert_eq!(created.submitted_at, None);
    assert_eq!(created.director_count, Some(0));
    assert_eq!(created.ubo_count, Some(0));
    assert_field_statuses(&created, &BusinessStatus::Pending);

    // A director alone does not submit the business.
    let person = person_request(&link);
    let director = businesses.add_director(&created.id, &person).await.unwrap();
    assert_eq!(director.role, PersonRole::Director);
    assert_eq!(director.business_id, created.id);
    assert_eq!(director.first_name.as_deref(), Some("Adaeze"));
    assert_eq!(director.submitted, Some(false));
    assert_eq!(director.business_status, Some(BusinessStatus::Pending));

    // The same person as UBO completes the pair: submitted.
    let ubo = businesses.add_ubo(&created.id, &person).await.unwrap();
    assert_eq!(ubo.role, PersonRole::Ubo);
    assert_eq!(ubo.business_id, created.id);
    assert_ne!(ubo.id, director.id);
    assert_eq!(ubo.submitted, Some(true));
    assert_eq!(ubo.business_status, Some(BusinessStatus::Submitted));

    // The first read after submission decides: approved.
    let approved = businesses.get(&created.id).await.unwrap();
    assert_eq!(approved.status, BusinessStatus::Approved);
    assert_eq!(approved.rejection_reason, None);
    assert_eq!(approved.director_count, Some(1));
    assert_eq!(approved.ubo_count, Some(1));
    assert!(approved.submitted_at.is_some());
    assert_field_statuses(&approved, &BusinessStatus::Approved);

    // An update resets the updated field (only it) and the business to
    // PENDING; it is decided again on the next read.
    let changes = UpdateBusinessRequest {
        email: Some("kyc@lagostrading.ng".into()),
        ..UpdateBusinessRequest::default()
    };
    let update = businesses.update(&created.id, &changes).await.unwrap();
    // The result names what went back to review, as the record shows it.
    assert_eq!(update.under_review, ["email"]);
    let updated = update.business;
    assert_eq!(updated.status, BusinessStatus::Pending);
    assert_field_status(&updated, "email", BusinessStatus::Pending);
    assert_field_status(&updated, "businessAddress", BusinessStatus::Approved);
    let again = businesses.get(&created.id).await.unwrap();
    assert_eq!(again.status, BusinessStatus::Approved);
    assert_field_statuses(&again, &BusinessStatus::Approved);
}

#[tokio::test]
async fn reject_marker_rejects_with_a_reason_and_update_clears_it() {
    let (_env, client) = staging().await;
    let id = submitted_business(&client, "RC7654321-reject").await;

    let rejected = client.businesses().get(&id).await.unwrap();
    assert_eq!(rejected.status, BusinessStatus::Rejected);
    assert_eq!(
        rejected.rejection_reason.as_deref(),
        Some("Registration number could not be verified")
    );
    assert_eq!(
        REJECTION_REASON,
        "Registration number could not be verified"
    );
    assert_field_statuses(&rejected, &BusinessStatus::Rejected);

    let changes = UpdateBusinessRequest {
        business_address: Some(crossborder_testkit::fixtures::new_office_address()),
        ..UpdateBusinessRequest::default()
    };
    let update = client.businesses().update(&id, &changes).await.unwrap();
    assert_eq!(update.under_review, ["businessAddress"]);
    let updated = update.business;
    assert_eq!(updated.status, BusinessStatus::Pending);
    assert_eq!(updated.rejection_reason, None);
    assert_field_status(&updated, "businessAddress", BusinessStatus::Pending);
    assert_field_status(&updated, "email", BusinessStatus::Rejected);

    // Decided again (the marker still says reject).
    let again = client.businesses().get(&id).await.unwrap();
    assert_eq!(again.status, BusinessStatus::Rejected);
    assert_eq!(
        again.rejection_reason.as_deref(),
        Some("Registration number could not be verified")
    );
}

#[tokio::test]
async fn pending_marker_stays_submitted() {
    let (_env, client) = staging().await;
    let id = submitted_business(&client, "RC5550001PENDING").await;
    for _ in 0..2 {
        let business = client.businesses().get(&id).await.unwrap();
        assert_eq!(business.status, BusinessStatus::Submitted);
        assert_eq!(business.rejection_reason, None);
    }
}

#[tokio::test]
async fn kyb_error_answers() {
    let (env, client) = staging().await;
    let (first, link) = created_business(&client, "RC9990001").await;

    // The same create again is a repeat (ASSUMPTIONS B22): the same
    // business, and the sandbox holds one.
    let repeat = client
        .businesses()
        .create(&business_request("RC9990001", &link))
        .await
        .unwrap();
    assert_eq!(repeat.id, first.id);
    let held: Vec<_> = env
        .sandbox
        .businesses()
        .into_iter()
        .filter(|b| b.registration_number == "RC9990001")
        .collect();
    assert_eq!(held.len(), 1);

    // The same registration number in another application.
    let mut other = business_request("RC9990001", &link);
    other.email = "other@lagostrading.ng".into();
    match client.businesses().create(&other).await {
        Err(Error::Api {
            status: 409,
            message,
            ..
        }) => assert_eq!(message, "registrationNumber already registered: RC9990001"),
        other => panic!("{other:?}"),
    }

    // Unknown business for every per-business operation.
    let person = person_request(&link);
    let expected = "Business not found: biz_0000000000";
    for result in [
        client
            .businesses()
            .add_director("biz_0000000000", &person)
            .await
            .map(|_| ()),
        client
            .businesses()
            .add_ubo("biz_0000000000", &person)
            .await
            .map(|_| ()),
        client.businesses().get("biz_0000000000").await.map(|_| ()),
        client
            .businesses()
            .update(
                "biz_0000000000",
                &UpdateBusinessRequest {
                    email: Some("a@b.ng".into()),
                    ..UpdateBusinessRequest::default()
                },
            )
            .await
            .map(|_| ()),
    ] {
        match result {
            Err(Error::Api {
                status: 404,
                message,
                ..
            }) => assert_eq!(message, expected),
            other => panic!("{other:?}"),
        }
    }

    // Missing required documents: refused by the SDK and by the sandbox
    // with the same violations.
    let mut request = business_request("RC9990002", &link);
    request.documents.remove("bank_statement");
    let violations = client
        .businesses()
        .create(&request)
        .await
        .unwrap_err()
        .violations()
        .expect("a validation error")
        .clone();
    let mut documents = fixtures::documents_json(&link);
    documents
        .as_object_mut()
        .expect("a map")
        .remove("bank_statement");
    let raw = env
        .post(
            "/api/business",
            &business_json("RC9990002", &link, documents),
        )
        .await;
    assert_same_violations(&raw, &violations, "POST", "/api/business");

    // The name cannot be changed (the SDK's update type cannot even carry it).
    let created = client
        .businesses()
        .create(&business_request("RC9990003", &link))
        .await
        .unwrap();
    let raw = env
        .raw(
            reqwest::Method::PATCH,
            &format!("/api/business/{}", created.id),
            Some(STAGING_KEY),
            Some(&json!({"name": "Other Name Ltd"})),
        )
        .await;
    assert_error_body(
        &raw,
        400,
        "name: cannot be changed after creation",
        "PATCH",
        &format!("/api/business/{}", created.id),
    );
}

/// `operatingAddress` (when sent) has the rules of `businessAddress`, and
/// every document needs its `url` and `key`: the SDK refuses such a request
/// before sending, and the sandbox answers it with the same violations.
#[tokio::test]
async fn operating_address_and_document_references_are_checked_by_both() {
    let env = Env::start().await;
    let link = "https://files.crossborder.invalid/kyb/doc.pdf";
    let mut request = business_request("RC7000002", link);
    request.details.operating_address = Some(Address {
        city: " ".into(),
        ..crossborder_contract_tests::lagos_address()
    });
    request.documents.insert(
        "bank_statement".into(),
        crossborder::types::DocumentLink::new("", "statement-6m"),
    );

    let proxy = Proxy::start(env.base_url(), Rewrite::default()).await;
    let client = sdk_client(proxy.base_url(), STAGING_KEY);
    let error = client.businesses().create(&request).await.unwrap_err();
    let violations = error.violations().expect("a validation error").clone();
    assert_eq!(
        violations.to_string(),
        "operatingAddress.city: is required; documents.bank_statement.url: is required"
    );
    assert_eq!(proxy.requests_seen(), 0);

    let documents = json!({
        "cac_document": {"url": link, "key": "cac-cert"},
        "bank_statement": {"url": "", "key": "statement-6m"},
        "application_letter": {"url": link, "key": "letter"},
        "cac_status_report": {"url": link, "key": "status-report"},
    });
    let mut body = business_json("RC7000002", link, documents);
    body["operatingAddress"] = json!({"houseNumber": "12", "street": "Admiralty Way",
        "city": " ", "state": "Lagos", "zipCode": "106104"});
    let raw = env.post("/api/business", &body).await;
    assert_same_violations(&raw, &violations, "POST", "/api/business");

    // Complete, both are accepted.
    body["operatingAddress"]["city"] = json!("Lekki");
    body["documents"]["bank_statement"]["url"] = json!(link);
    let raw = env.post("/api/business", &body).await;
    assert_eq!(raw.status, 200, "{}", raw.text);
}

/// `wait_for_decision` returns each decision, with the reason when
/// rejected, and gives up at its deadline on a business still under review
/// with the last state read.
#[tokio::test]
async fn wait_for_decision_reaches_each_decision_and_its_deadline() {
    use std::time::Duration;

    use crossborder::WaitOptions;

    let (_env, client) = staging().await;
    let fast = WaitOptions::default()
        .timeout(Duration::from_millis(300))
        .initial_interval(Duration::from_millis(20))
        .max_interval(Duration::from_millis(50));

    let approved = submitted_business(&client, "RC7770001").await;
    let business = decision(&client, &approved, fast).await;
    assert_eq!(business.status, BusinessStatus::Approved);
    assert_eq!(business.rejection_reason, None);

    let rejected = submitted_business(&client, "RC7770002REJECT").await;
    let business = decision(&client, &rejected, fast).await;
    assert_eq!(business.status, BusinessStatus::Rejected);
    assert_eq!(business.rejection_reason.as_deref(), Some(REJECTION_REASON));

    let pending = submitted_business(&client, "RC7770003PENDING").await;
    match client.businesses().wait_for_decision(&pending, fast).await {
        Err(Error::DecisionTimeout { last }) => {
            assert_eq!(last.id, pending);
            assert_eq!(last.status, BusinessStatus::Submitted);
        }
        other => panic!("expected DecisionTimeout, got {other:?}"),
    }

    // A business the account does not have is an error at once, not a wait.
    let error = client
        .businesses()
        .wait_for_decision("biz_UNKNOWN000", WaitOptions::default())
        .await
        .unwrap_err();
    assert_eq!(error.status(), Some(404));
}

/// ASSUMPTIONS C17 and C18 are the SDK's own rules: it refuses a JSON body
/// with a field the request does not have, and an update that changes
/// nothing, before sending; the sandbox, tolerant as a service may be,
/// ignores the unknown field and answers an empty update with the record
/// unchanged.
#[tokio::test]
async fn unknown_fields_and_empty_updates_are_refused_by_the_sdk_alone() {
    let env = Env::start().await;
    let proxy = Proxy::start(env.base_url(), Rewrite::default()).await;
    let client = sdk_client(proxy.base_url(), STAGING_KEY);
    let link = "https://files.crossborder.invalid/kyb/doc.pdf";
    let documents = json!({
        "cac_document": {"url": link, "key": "cac-cert"},
        "bank_statement": {"url": link, "key": "statement-6m"},
        "application_letter": {"url": link, "key": "letter"},
        "cac_status_report": {"url": link, "key": "status-report"},
    });
    let mut body = business_json("RC7000003", link, documents);
    body["hasWebsite"] = json!(true);
    body["businessWebsite"] = json!("https://lagostrading.ng");
    body["busnessDescription"] = json!("Electronics");

    let error = client.businesses().create_json(&body).await.unwrap_err();
    assert_eq!(
        error.violations().unwrap().to_string(),
        "busnessDescription: is not a field of this request (did you mean businessDescription?)"
    );
    let error = client
        .businesses()
        .update_json("biz_0000000000", &json!({}))
        .await
        .unwrap_err();
    assert_eq!(
        error.violations().unwrap().to_string(),
        "body: an update must change at least one field"
    );
    assert_eq!(proxy.requests_seen(), 0);

    let created = env.post("/api/business", &body).await;
    assert_eq!(created.status, 200, "{}", created.text);
    let id = created.body["data"]["id"].as_str().unwrap().to_owned();
    let unchanged = env
        .raw(
            reqwest::Method::PATCH,
            &format!("/api/business/{id}"),
            Some(STAGING_KEY),
            Some(&json!({})),
        )
        .await;
    assert_eq!(unchanged.status, 200, "{}", unchanged.text);
    assert_eq!(unchanged.body["data"], created.body["data"]);
}
