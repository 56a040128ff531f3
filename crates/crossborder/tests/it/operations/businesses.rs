//! Businesses: create (typed and JSON), document keys, people, reads, updates, decisions, a resumed onboarding.

use crossborder_testkit::fixtures;

use super::*;

/// Where the fixtures' documents point.
const LINK: &str = "https://files.crossborder.invalid/kyb/doc.pdf";

/// Where the uploaded document `id` is.
fn document_url(id: &str) -> String {
    format!("https://files.crossborder.invalid/kyb/{id}.pdf")
}

/// The uploaded document `id`.
fn document(id: &str) -> DocumentLink {
    DocumentLink::new(document_url(id), id)
}

/// [`document`] as the API's JSON.
fn document_json(id: &str) -> Value {
    json!({"url": document_url(id), "key": id})
}

/// The test kit's business, with the optional fields that have rules.
fn example_business() -> CreateBusinessRequest {
    let mut request = fixtures::business_request("RC1234567", LINK);
    request.details.monthly_transaction_volume = Some(MonthlyTransactionVolume {
        currency: Currency::Usd,
        amount: dec("250000"),
    });
    request.details.has_website = Some(true);
    request.details.business_website = Some("https://lagostrading.ng".into());
    request
}

fn business_json(status: &str) -> Value {
    json!({
        "message": "Business created successfully",
        "data": {
            "id": "biz_3M8QK2",
            "name": "Lagos Trading Ltd",
            "businessType": "LLC",
            "registrationNumber": "RC1234567",
            "country": "NG",
            "status": status,
            "rejectionReason": if status == "REJECTED" { json!("The bank statement covers fewer than six months.") } else { Value::Null },
            "directorCount": 1,
            "uboCount": 1,
            "fieldStatuses": {"businessAddress": "PENDING", "documents": "REJECTED", "website": "IN_REVIEW"},
            "createdAt": "2026-11-21T12:00:00Z",
            "updatedAt": "2026-11-21T12:30:00Z"
        },
        "error": false
    })
}

/// [`example_business`] as the SDK must send it.
fn expected_create_body() -> Value {
    let mut body = fixtures::business_json("RC1234567", LINK, fixtures::documents_json(LINK));
    // Not an alias the spec names: sent as the type's name, which the
    // service's uppercased fallback matches.
    let documents = body["documents"].as_object_mut().unwrap();
    let letter = documents.remove("application_letter").unwrap();
    documents.insert("APPLICATION_LETTER".into(), letter);
    let optional = json!({
        "businessDescription": "Imports and distributes consumer electronics.",
        "monthlyTransactionVolume": {"currency": "USD", "amount": "250000"},
        "hasWebsite": true,
        "businessWebsite": "https://lagostrading.ng",
        "TIN": "12345678-0001",
        "tin": "12345678-0001"
    });
    for (name, value) in optional.as_object().unwrap() {
        body[name] = value.clone();
    }
    body
}

/// A server that accepts exactly one business create, and a client for it.
async fn accepting_one_create() -> (wiremock::MockServer, crossborder::Client) {
    let (server, client) = setup().await;
    mock::create_business()
        .answers_once(&server, ok(business_json("PENDING")))
        .await;
    (server, client)
}

/// Asserts that `server` received one request (`why` says why only one),
/// whose `count` documents include `key` as `expected`.
async fn assert_documents_sent(
    server: &wiremock::MockServer,
    why: &str,
    count: usize,
    key: &str,
    expected: &Value,
) {
    let requests = server.received_requests().await.unwrap();
    assert_eq!(requests.len(), 1, "{why}");
    let body: Value = serde_json::from_slice(&requests[0].body).unwrap();
    assert_eq!(&body["documents"][key], expected);
    assert_eq!(body["documents"].as_object().unwrap().len(), count);
}

/// The document keys of a business `body`, sorted.
fn document_keys_sent(body: &Value) -> Vec<&str> {
    let mut keys: Vec<&str> = body["documents"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    keys
}

#[tokio::test]
async fn create_business_sends_the_documented_body() {
    let (server, client) = setup().await;
    mock::create_business()
        .and(body_json(expected_create_body()))
        .answers_once(&server, ok(business_json("PENDING")))
        .await;
    let business = client
        .businesses()
        .create(&example_business())
        .await
        .unwrap();
    assert_eq!(business.id, "biz_3M8QK2");
    assert_eq!(business.status, BusinessStatus::Pending);
    assert_eq!(business.business_type, Some(BusinessType::Llc));
    assert_eq!(business.rejection_reason, None);
    assert_eq!(
        business.field_statuses["documents"],
        BusinessStatus::Rejected
    );
    assert_eq!(
        business.field_statuses["website"],
        BusinessStatus::Unknown("IN_REVIEW".into())
    );
}

/// Keys written loosely are sent as the service knows them (ASSUMPTIONS
/// B10): the spec's alias for the type wherever the spec names one
/// (`incorporation_certificate` as `cac_document`, `bn1` as `bn_form_1`,
/// `form_2` as `cac_form_2`, `status_report` as `cac_status_report`), the
/// type's name otherwise; `document_keys()` shows each mapping, and it is
/// exactly what goes out.
#[tokio::test]
async fn document_keys_are_sent_canonically() {
    let (server, client) = accepting_one_create().await;
    let mut request = example_business();
    request.documents.clear();
    // Each key as given, the document it names, and the key and type it
    // is sent as.
    let documents = [
        (
            " Bank-Statement ",
            "statement",
            "bank_statement",
            DocumentType::BankStatement,
        ),
        (
            "application_letter",
            "letter",
            "APPLICATION_LETTER",
            DocumentType::ApplicationLetter,
        ),
        ("bn1", "bn1", "bn_form_1", DocumentType::BnForm1),
        ("form_2", "form-2", "cac_form_2", DocumentType::CacForm2),
        (
            "incorporation_certificate",
            "certificate",
            "cac_document",
            DocumentType::CertificateOfIncorporation,
        ),
        (
            "memart",
            "memart",
            "MEMORANDUM_AND_ARTICLES_OF_ASSOCIATION",
            DocumentType::MemorandumAndArticles,
        ),
        (
            "status_report",
            "status",
            "cac_status_report",
            DocumentType::CacStatusReport,
        ),
    ];
    for (given, id, _, _) in &documents {
        request.documents.insert((*given).into(), document(id));
    }
    let mappings: Vec<(String, Option<String>, Option<DocumentType>)> = request
        .document_keys()
        .into_iter()
        .map(|m| (m.given, m.sent, m.document_type))
        .collect();
    let expected = documents.map(|(given, _, sent, document)| {
        (given.to_owned(), Some(sent.to_owned()), Some(document))
    });
    assert_eq!(mappings, expected);
    client.businesses().create(&request).await.unwrap();

    let body = first_body(&server).await;
    let mut sent_keys: Vec<&str> = documents.iter().map(|(_, _, sent, _)| *sent).collect();
    sent_keys.sort_unstable();
    assert_eq!(document_keys_sent(&body), sent_keys);
    for (_, id, sent, _) in &documents {
        assert_eq!(body["documents"][sent], document_json(id), "{sent}");
    }
}

/// A status the SDK does not know is never taken for a decision.
#[tokio::test]
async fn wait_for_decision_waits_through_unknown_statuses() {
    let (server, client) = setup().await;
    mock::business("biz_3M8QK2")
        .answers_first(2, &server, ok(business_json("IN_REVIEW")))
        .await;
    mock::business("biz_3M8QK2")
        .answers(&server, ok(business_json("APPROVED")))
        .await;
    let options = polling(
        std::time::Duration::from_secs(5),
        std::time::Duration::from_millis(10),
    );
    let business = client
        .businesses()
        .wait_for_decision("biz_3M8QK2", options)
        .await
        .unwrap();
    assert_eq!(business.status, BusinessStatus::Approved);
    assert_eq!(requests_received(&server).await, 3);
}

#[tokio::test]
async fn invalid_business_is_not_sent() {
    let (server, client) = setup().await;
    let mut request = example_business();
    request.email = "not-an-email".into();
    request.documents.remove("bank_statement");
    request.documents.insert(
        "selfie".into(),
        DocumentLink::new("https://x.invalid/s.png", "s"),
    );
    let error = client.businesses().create(&request).await.unwrap_err();
    let violations = error.violations().unwrap();
    let fields: Vec<&str> = violations.fields().collect();
    assert!(fields.contains(&"email"), "{fields:?}");
    assert!(fields.contains(&"documents.selfie"), "{fields:?}");
    assert!(fields.contains(&"documents"), "{fields:?}");
    assert_nothing_sent(&server).await;
}

/// The rules of `monthlyTransactionVolume` and `sourceOfFund` are core's
/// (they were the sandbox's alone), so the SDK refuses before sending, on
/// create and on update alike.
#[tokio::test]
async fn volume_and_source_of_fund_rules_apply_before_sending() {
    let (server, client) = setup().await;
    let mut request = example_business();
    request.details.monthly_transaction_volume = Some(MonthlyTransactionVolume {
        currency: Currency::Ngn,
        amount: dec("-5"),
    });
    request.details.source_of_fund = Some(SourceOfFund {
        url: Some("https://files.crossborder.invalid/kyb/sof.pdf".into()),
        kind: " ".into(),
        name: None,
    });
    let expected = [
        "monthlyTransactionVolume.amount: must be a decimal number such as 1500.50",
        "sourceOfFund.type: is required",
    ];
    let error = client.businesses().create(&request).await.unwrap_err();
    assert_eq!(violation_messages(&error), expected);

    let changes = UpdateBusinessRequest {
        details: request.details.clone(),
        ..UpdateBusinessRequest::default()
    };
    let error = update_example(&client, &changes).await.unwrap_err();
    assert_eq!(violation_messages(&error), expected);
    assert_nothing_sent(&server).await;
}

/// Sends `changes` to the business of [`business_json`].
async fn update_example(
    client: &crossborder::Client,
    changes: &UpdateBusinessRequest,
) -> crossborder::Result<crossborder::types::BusinessUpdate> {
    client.businesses().update("biz_3M8QK2", changes).await
}

fn example_person() -> PersonRequest {
    fixtures::person_request(LINK)
}

fn person_body() -> Value {
    fixtures::person_json(LINK)
}

#[tokio::test]
async fn add_director_and_ubo() {
    let (server, client) = setup().await;
    mock::person("biz_3M8QK2", "director")
        .and(body_json(person_body()))
        .answers_once(&server, ok(json!({
            "message": "Director added successfully",
            "data": {"id": "per_8XK2P1", "businessId": "biz_3M8QK2", "role": "DIRECTOR",
                     "firstName": "Adaeze", "lastName": "Okafor", "businessStatus": "PENDING", "submitted": false},
            "error": false
        }))).await;
    let mut ubo_body = person_body();
    ubo_body["ownershipPercentage"] = json!("60.5");
    mock::person("biz_3M8QK2", "ubo")
        .and(body_json(ubo_body))
        .answers_once(
            &server,
            ok(json!({
                "message": "UBO added successfully",
                "data": {"id": "per_8XK2P2", "businessId": "biz_3M8QK2", "role": "UBO",
                         "businessStatus": "SUBMITTED", "submitted": true},
                "error": false
            })),
        )
        .await;

    let director = client
        .businesses()
        .add_director("biz_3M8QK2", &example_person())
        .await
        .unwrap();
    assert_eq!(director.role, PersonRole::Director);
    assert_eq!(director.business_status, Some(BusinessStatus::Pending));
    assert_eq!(director.submitted, Some(false));

    let mut ubo = example_person();
    ubo.details.ownership_percentage = Some(dec("60.5"));
    let ubo = client
        .businesses()
        .add_ubo("biz_3M8QK2", &ubo)
        .await
        .unwrap();
    assert_eq!(ubo.role, PersonRole::Ubo);
    assert_eq!(ubo.business_status, Some(BusinessStatus::Submitted));
    assert_eq!(ubo.submitted, Some(true));
}

/// Timestamps are text (ASSUMPTIONS B6): one written in another format
/// leaves the record readable and is kept as sent.
#[tokio::test]
async fn a_timestamp_in_another_format_is_kept_as_text() {
    let (server, client) = setup().await;
    let mut body = business_json("SUBMITTED");
    body["data"]["createdAt"] = json!("21/11/2026 12:00");
    body["data"]["updatedAt"] = json!("1795262400");
    body["data"]["submittedAt"] = json!("2026-11-21 13:30:00+01");
    mock::business("biz_3M8QK2")
        .answers_once(&server, ok(body))
        .await;
    let business = client.businesses().get("biz_3M8QK2").await.unwrap();
    assert_eq!(business.status, BusinessStatus::Submitted);
    assert_eq!(
        (
            business.created_at.as_deref(),
            business.updated_at.as_deref(),
            business.submitted_at.as_deref()
        ),
        (
            Some("21/11/2026 12:00"),
            Some("1795262400"),
            Some("2026-11-21 13:30:00+01")
        )
    );
}

#[tokio::test]
async fn get_and_update_business() {
    let (server, client) = setup().await;
    mock::business("biz_3M8QK2")
        .answers_once(&server, ok(business_json("REJECTED")))
        .await;
    mock::update_business("biz_3M8QK2")
        .and(body_json(json!({
            "businessAddress": {"houseNumber": "4B", "street": "Awolowo Road", "city": "Ikoyi", "state": "Lagos", "zipCode": "101233"},
            "TIN": "T-99",
            "tin": "T-99"
        })))
        .answers_once(&server, ok(business_json("PENDING"))).await;

    let business = client.businesses().get("biz_3M8QK2").await.unwrap();
    assert_eq!(business.status, BusinessStatus::Rejected);
    assert!(business.status.is_decided());
    assert_eq!(
        business.rejection_reason.as_deref(),
        Some("The bank statement covers fewer than six months.")
    );

    let changes = UpdateBusinessRequest {
        business_address: Some(crossborder_testkit::fixtures::new_office_address()),
        details: BusinessDetails {
            tin: Some("T-99".into()),
            ..BusinessDetails::default()
        },
        ..UpdateBusinessRequest::default()
    };
    let update = update_example(&client, &changes).await.unwrap();
    assert_eq!(update.business.status, BusinessStatus::Pending);
    assert_eq!(update.under_review, ["TIN", "businessAddress", "tin"]);
}

/// A key the SDK does not know is refused with the nearest known key, or,
/// marked unlisted, sent exactly as given (ASSUMPTIONS A22, B15).
#[tokio::test]
async fn an_unknown_document_key_is_refused_or_sent_as_given_when_unlisted() {
    let (server, client) = accepting_one_create().await;
    let scuml = document("scuml");

    let mut typo = example_business();
    typo.documents.insert("bank_statment".into(), scuml.clone());
    assert_invalid(
        client.businesses().create(&typo).await,
        "documents.bank_statment: Unrecognized document key: bank_statment (did you mean bank_statement?)",
    );

    let mut blank = example_business();
    blank.documents.insert(
        "SCUML_CERTIFICATE".into(),
        DocumentLink::new("", "scuml").unlisted(),
    );
    assert_invalid(
        client.businesses().create(&blank).await,
        "documents.SCUML_CERTIFICATE.url: is required",
    );

    let mut unlisted = example_business();
    unlisted
        .documents
        .insert("SCUML_CERTIFICATE".into(), scuml.unlisted());
    client.businesses().create(&unlisted).await.unwrap();
    assert_documents_sent(
        &server,
        "the refused requests sent nothing",
        5,
        "SCUML_CERTIFICATE",
        &document_json("scuml"),
    )
    .await;
}

/// `DocumentLink::unlisted` only matters for a key the SDK does not know: a
/// known key marked unlisted is checked, counted and sent canonically like
/// any other, so it can never go out next to the same key written another
/// way and replace that document on the wire.
#[tokio::test]
async fn an_unlisted_mark_on_a_known_key_is_ignored() {
    let (server, client) = accepting_one_create().await;
    // Both go out as `bank_statement`: refused as duplicates, nothing sent.
    let mut clash = example_business();
    clash
        .documents
        .insert("Bank-Statement".into(), document("statement-2").unlisted());
    assert_invalid(
        client.businesses().create(&clash).await,
        "documents.bank_statement: Duplicate document: Bank-Statement and bank_statement both map to BANK_STATEMENT",
    );

    // Alone, it is the bank statement: it satisfies the requirement and is
    // sent as `bank_statement`.
    let mut alone = example_business();
    alone.documents.remove("bank_statement");
    alone
        .documents
        .insert("Bank-Statement".into(), document("statement-2").unlisted());
    let mapping = alone
        .document_keys()
        .into_iter()
        .find(|m| m.given == "Bank-Statement")
        .unwrap();
    assert_eq!(mapping.sent.as_deref(), Some("bank_statement"));
    assert_eq!(mapping.document_type, Some(DocumentType::BankStatement));
    client.businesses().create(&alone).await.unwrap();
    assert_documents_sent(
        &server,
        "the clash sent nothing",
        4,
        "bank_statement",
        &document_json("statement-2"),
    )
    .await;
}

/// A complete business as the API's JSON, documents keyed as given.
fn business_wire_json() -> Value {
    fixtures::business_json(
        "RC1234567",
        LINK,
        json!({"CAC": document_json("cac"), "Bank-Statement": document_json("statement"),
               "application_letter": document_json("letter"), "bn1": document_json("bn1")}),
    )
}

/// ASSUMPTIONS C17: a field the request does not have is refused before
/// sending, naming the nearest field it has, at any depth; the rest of the
/// body is still checked.
#[tokio::test]
async fn json_requests_refuse_unknown_fields_with_the_nearest_one() {
    let (server, client) = setup().await;
    let businesses = client.businesses();

    let mut create = business_wire_json();
    create["businessWebiste"] = json!("https://lagostrading.ng");
    create["businessAddress"]["stret"] = json!("Admiralty Way");
    create["documents"]["CAC"]["kye"] = json!("cac");
    create["colour"] = json!("blue");
    create["email"] = json!("not-an-email");
    match businesses.create_json(&create).await.unwrap_err() {
        Error::Validation(violations) => assert_eq!(
            violations
                .iter()
                .map(|v| (v.field.to_string(), v.rule, v.message.clone()))
                .collect::<Vec<_>>(),
            [
                (
                    "businessAddress.stret".to_owned(),
                    Rule::UnknownField,
                    "is not a field of this request (did you mean street?)".to_owned()
                ),
                (
                    "documents.CAC.kye".to_owned(),
                    Rule::UnknownField,
                    "is not a field of this request (did you mean key?)".to_owned()
                ),
                (
                    "businessWebiste".to_owned(),
                    Rule::UnknownField,
                    "is not a field of this request (did you mean businessWebsite?)".to_owned()
                ),
                (
                    "colour".to_owned(),
                    Rule::UnknownField,
                    "is not a field of this request".to_owned()
                ),
                (
                    "email".to_owned(),
                    Rule::InvalidFormat,
                    "must be an email address such as name@example.com".to_owned()
                ),
            ]
        ),
        other => panic!("{other:?}"),
    }

    let mut update = json!({"businessWebiste": "https://lagostrading.ng"});
    assert_invalid(
        businesses.update_json("biz_3M8QK2", &update).await,
        "businessWebiste: is not a field of this request (did you mean businessWebsite?); \
         body: an update must change at least one field",
    );
    update["hasWebsite"] = json!(true);
    assert_invalid(
        businesses.update_json("biz_3M8QK2", &update).await,
        "businessWebiste: is not a field of this request (did you mean businessWebsite?)",
    );

    let mut director = person_body();
    director["firstNme"] = director["firstName"].take();
    director.as_object_mut().unwrap().remove("firstName");
    director["address"]["zip"] = json!("101233");
    assert_invalid(
        businesses.add_director_json("biz_3M8QK2", &director).await,
        "address.zip: is not a field of this request; \
         firstNme: is not a field of this request (did you mean firstName?); \
         firstName: is required",
    );
    let mut ubo = person_body();
    ubo["ownershipPercentge"] = json!("60");
    assert_invalid(
        businesses.add_ubo_json("biz_3M8QK2", &ubo).await,
        "ownershipPercentge: is not a field of this request (did you mean ownershipPercentage?)",
    );
    assert_nothing_sent(&server).await;
}

/// ASSUMPTIONS C18: an update that changes nothing is refused, typed or as
/// JSON (nulls are not changes), and nothing is sent.
#[tokio::test]
async fn an_update_that_changes_nothing_is_refused() {
    let (server, client) = setup().await;
    let businesses = client.businesses();
    let refused = "body: an update must change at least one field";
    let error = businesses
        .update("biz_3M8QK2", &UpdateBusinessRequest::default())
        .await
        .unwrap_err();
    assert_eq!(error.violations().unwrap().to_string(), refused);
    assert_eq!(error.violations().unwrap()[0].rule, Rule::NothingToUpdate);
    for body in [json!({}), json!({"email": null, "tin": null})] {
        let error = businesses
            .update_json("biz_3M8QK2", &body)
            .await
            .unwrap_err();
        assert_eq!(error.violations().unwrap().to_string(), refused, "{body}");
    }
    assert_nothing_sent(&server).await;
}

/// A JSON create goes out with canonical keys, exactly as
/// `check_business_json` reports them in `document_keys`.
#[tokio::test]
async fn create_json_sends_the_keys_the_verdict_shows() {
    let (server, client) = accepting_one_create().await;
    let body = business_wire_json();
    let verdict = crossborder::json::check_business_json(
        &body,
        crossborder::json::BusinessRequestKind::Create,
    );
    assert!(verdict.valid, "{:?}", verdict.violations);
    assert_eq!(
        serde_json::to_value(&verdict).unwrap()["document_keys"],
        json!([
            {"given": "Bank-Statement", "sent": "bank_statement", "type": "BANK_STATEMENT"},
            {"given": "CAC", "sent": "cac", "type": "CERTIFICATE_OF_INCORPORATION"},
            {"given": "application_letter", "sent": "APPLICATION_LETTER", "type": "APPLICATION_LETTER"},
            {"given": "bn1", "sent": "bn_form_1", "type": "BN_FORM_1"},
        ])
    );
    client.businesses().create_json(&body).await.unwrap();
    let sent = first_body(&server).await;
    let keys = document_keys_sent(&sent);
    let mut shown: Vec<&str> = verdict
        .document_keys
        .iter()
        .filter_map(|m| m.sent.as_deref())
        .collect();
    shown.sort_unstable();
    assert_eq!(keys, shown);
}

/// ASSUMPTIONS B23: a resumed onboarding reads the business before adding
/// people; a service that sends no `directorCount` or `uboCount` leaves the
/// progress as it is, so every person not in it is added.
#[tokio::test]
async fn a_resumed_onboarding_without_counts_adds_the_people_left() {
    let (server, client) = setup().await;
    mock::business("biz_3M8QK2")
        .respond_with(ResponseTemplate::new(200).set_body_json(
            json!({"message": "ok", "data": {"id": "biz_3M8QK2", "status": "PENDING"}}),
        ))
        .expect(2)
        .mount(&server)
        .await;
    for role in ["director", "ubo"] {
        mock::person("biz_3M8QK2", role)
            .answers_once(
                &server,
                ok(json!({
                    "message": "ok",
                    "data": {"id": "per_1", "businessId": "biz_3M8QK2", "role": role.to_uppercase()}
                })),
            )
            .await;
    }
    let application = crossborder::onboard::Application {
        business: Some(example_business()),
        directors: vec![example_person()],
        ubos: vec![example_person()],
        files: Default::default(),
    };
    let progress = crossborder::onboard::Progress {
        business_id: Some("biz_3M8QK2".into()),
        ..Default::default()
    };
    let onboarded = client
        .businesses()
        .onboard(&application, progress, |_, _| {})
        .await
        .unwrap();
    assert_eq!(onboarded.business.id, "biz_3M8QK2");
}

/// ASSUMPTIONS D44: every link of a KYB request is an absolute http(s) URL,
/// checked before sending with the message the sandbox gives: the
/// documents map (an unlisted key's too), the proof of address, the source
/// of funds, and a person's ID document, document and second document.
#[tokio::test]
async fn every_link_is_an_absolute_http_url() {
    let (server, client) = setup().await;
    let mut request = example_business();
    request.proof_of_address.url = "not a url".into();
    request.documents.insert(
        "bank_statement".into(),
        DocumentLink::new("/uploads/statement.pdf", "statement"),
    );
    request.documents.insert(
        "SCUML_CERTIFICATE".into(),
        DocumentLink::new("files.example/scuml.pdf", "scuml").unlisted(),
    );
    request.details.source_of_fund = Some(SourceOfFund {
        url: Some("ftp://files.example/sof.pdf".into()),
        kind: "Revenue".into(),
        name: None,
    });
    let error = client.businesses().create(&request).await.unwrap_err();
    assert_eq!(
        violation_messages(&error),
        [
            "proofOfAddress.url: must be an absolute http or https URL",
            "documents.bank_statement.url: must be an absolute http or https URL",
            "sourceOfFund.url: must be an absolute http or https URL",
            "documents.SCUML_CERTIFICATE.url: must be an absolute http or https URL",
        ]
    );

    let mut person = example_person();
    person.id_document_url = "passport.pdf".into();
    person.document.url = "https://".into();
    person.details.additional_document =
        Some(DocumentLink::new("https://files.example/a b.pdf", "b"));
    let error = client
        .businesses()
        .add_director("biz_3M8QK2", &person)
        .await
        .unwrap_err();
    assert_eq!(
        violation_messages(&error),
        [
            "idDocumentUrl: must be an absolute http or https URL",
            "document.url: must be an absolute http or https URL",
            "additionalDocument.url: must be an absolute http or https URL",
        ]
    );
    assert_nothing_sent(&server).await;
}
