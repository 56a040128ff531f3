//! Business onboarding: create, directors and UBOs, decisions, updates.

use crossborder_sandbox::{PRODUCTION_KEY, STAGING_KEY};
use reqwest::Method;
use serde_json::{json, Value};

use crossborder_testkit::fixtures::{business_json, documents_json, person_json};

use crate::sandbox::common::{assert_error, refused, Api};

/// Where the fixtures' documents point.
const LINK: &str = "https://files.example/doc.pdf";

/// The test kit's business with its TIN under both spellings.
pub(crate) fn business(registration_number: &str) -> Value {
    let mut body = business_json(registration_number, LINK, documents_json(LINK));
    body["TIN"] = json!("12345678-0001");
    body["tin"] = json!("12345678-0001");
    body
}

/// The test kit's director or UBO, with a share of the business.
fn person() -> Value {
    let mut body = person_json(LINK);
    body["ownershipPercentage"] = json!("60");
    body
}

pub(crate) async fn create(api: &Api, registration_number: &str) -> String {
    let reply = api
        .post("/api/business", &business(registration_number))
        .await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    reply.body["data"]["id"].as_str().unwrap().to_owned()
}

async fn submit(api: &Api, id: &str) {
    let director = api
        .post(&format!("/api/business/{id}/director"), &person())
        .await;
    assert_eq!(director.status, 200, "{}", director.text);
    let ubo = api
        .post(&format!("/api/business/{id}/ubo"), &person())
        .await;
    assert_eq!(ubo.status, 200, "{}", ubo.text);
}

#[tokio::test]
async fn business_flow_to_approved_and_back_through_an_update() {
    let api = Api::start().await;
    let created = api.post("/api/business", &business("RC1234567")).await;
    assert_eq!(created.status, 200, "{}", created.text);
    let data = &created.body["data"];
    let id = data["id"].as_str().unwrap();
    assert!(id.starts_with("biz_"), "{id}");
    assert_eq!(
        created.body,
        json!({
            "message": "Business created successfully",
            "error": false,
            "data": {
                "id": id,
                "name": "Lagos Trading Ltd",
                "businessType": "LLC",
                "registrationNumber": "RC1234567",
                "country": "NG",
                "status": "PENDING",
                "directorCount": 0,
                "uboCount": 0,
                "fieldStatuses": {
                    "businessType": "PENDING",
                    "email": "PENDING",
                    "phoneNumber": "PENDING",
                    "natureOfBusiness": "PENDING",
                    "businessAddress": "PENDING",
                    "proofOfAddress": "PENDING",
                    "documents": "PENDING",
                    "TIN": "PENDING",
                    "tin": "PENDING"
                },
                "createdAt": "2026-11-21T12:00:00.000Z",
                "updatedAt": "2026-11-21T12:00:00.000Z"
            }
        })
    );

    let director = api
        .post(&format!("/api/business/{id}/director"), &person())
        .await;
    let person_id = director.body["data"]["id"].as_str().unwrap();
    assert!(person_id.starts_with("per_"));
    assert_eq!(
        director.body,
        json!({"message": "Director added successfully", "error": false,
               "data": {"id": person_id, "businessId": id, "role": "DIRECTOR", "firstName": "Adaeze",
                        "lastName": "Okafor", "businessStatus": "PENDING", "submitted": false}})
    );
    let ubo = api
        .post(&format!("/api/business/{id}/ubo"), &person())
        .await;
    assert_eq!(ubo.body["message"], "UBO added successfully");
    assert_eq!(ubo.body["data"]["role"], "UBO");
    assert_eq!(ubo.body["data"]["businessStatus"], "SUBMITTED");
    assert_eq!(ubo.body["data"]["submitted"], true);

    let decided = api.get(&format!("/api/business/{id}")).await;
    assert_eq!(decided.body["message"], "Business retrieved successfully");
    let data = &decided.body["data"];
    assert_eq!(data["status"], "APPROVED");
    assert_eq!(data["directorCount"], 1);
    assert_eq!(data["uboCount"], 1);
    assert_eq!(data["submittedAt"], "2026-11-21T12:00:00.000Z");
    assert_eq!(data["fieldStatuses"]["documents"], "APPROVED");
    assert!(data.get("rejectionReason").is_none());

    let patch = api
        .raw(
            Method::PATCH,
            &format!("/api/business/{id}"),
            Some(STAGING_KEY),
            Some(
                &json!({"businessAddress": {"houseNumber": "4B", "street": "Awolowo Road",
                          "city": "Ikoyi", "state": "Lagos", "zipCode": "101233"}}),
            ),
        )
        .await;
    assert_eq!(patch.status, 200, "{}", patch.text);
    assert_eq!(patch.body["message"], "Business updated successfully");
    assert_eq!(patch.body["data"]["status"], "PENDING");
    assert_eq!(
        patch.body["data"]["fieldStatuses"]["businessAddress"],
        "PENDING"
    );
    assert_eq!(patch.body["data"]["fieldStatuses"]["documents"], "APPROVED");

    let again = api.get(&format!("/api/business/{id}")).await;
    assert_eq!(again.body["data"]["status"], "APPROVED");
    assert_eq!(
        again.body["data"]["fieldStatuses"]["businessAddress"],
        "APPROVED"
    );

    let rename = api
        .raw(
            Method::PATCH,
            &format!("/api/business/{id}"),
            Some(STAGING_KEY),
            Some(&json!({"name": "Other", "registrationNumber": "RC1"})),
        )
        .await;
    let url = format!("/api/business/{id}");
    assert_error(
        &rename,
        400,
        "name: cannot be changed after creation; registrationNumber: cannot be changed after creation",
        "PATCH",
        &url,
    );

    // Other businesses cannot see it.
    let foreign = api.raw(Method::GET, &url, Some(PRODUCTION_KEY), None).await;
    assert_error(
        &foreign,
        404,
        &format!("Business not found: {id}"),
        "GET",
        &url,
    );
}

#[tokio::test]
async fn registration_number_drives_rejection_and_review() {
    let api = Api::start().await;
    let rejected = create(&api, "RC7654321REJECT").await;
    submit(&api, &rejected).await;
    let read = api.get(&format!("/api/business/{rejected}")).await;
    assert_eq!(read.body["data"]["status"], "REJECTED");
    assert_eq!(
        read.body["data"]["rejectionReason"],
        "Registration number could not be verified"
    );

    // An update sends it back to PENDING and clears the reason.
    let patch = api
        .raw(
            Method::PATCH,
            &format!("/api/business/{rejected}"),
            Some(STAGING_KEY),
            Some(&json!({"email": "new@lagostrading.ng"})),
        )
        .await;
    assert_eq!(patch.body["data"]["status"], "PENDING");
    assert!(patch.body["data"].get("rejectionReason").is_none());
    assert_eq!(patch.body["data"]["fieldStatuses"]["email"], "PENDING");

    let waiting = create(&api, "RC1111111PENDING").await;
    submit(&api, &waiting).await;
    for _ in 0..2 {
        let read = api.get(&format!("/api/business/{waiting}")).await;
        assert_eq!(read.body["data"]["status"], "SUBMITTED");
    }

    // Not submitted yet: stays PENDING.
    let fresh = create(&api, "RC2222222").await;
    let read = api.get(&format!("/api/business/{fresh}")).await;
    assert_eq!(read.body["data"]["status"], "PENDING");
}

/// Business and person bodies refused as a whole, each naming its first
/// field at fault in `errors` (none for a business that does not exist).
#[tokio::test]
async fn business_validation() {
    let api = Api::start().await;
    let mut unknown_key = business("RC1");
    unknown_key["documents"]["foo"] = json!({"url": "https://x.example/a.pdf", "key": "k"});
    let mut missing = business("RC2");
    missing["documents"]
        .as_object_mut()
        .unwrap()
        .remove("bank_statement");
    let mut wrong = business("RC3");
    wrong["businessAddress"]["city"] = json!(5);
    wrong["hasWebsite"] = json!("yes");
    let id = create(&api, "RC5").await;
    let mut bad_person = person();
    bad_person["dateOfBirth"] = json!("1990-02-30");
    bad_person.as_object_mut().unwrap().remove("idType");
    let cases = [
        (
            "unknown document key",
            "/api/business".to_owned(),
            unknown_key,
            400,
            "Unrecognized document key: foo",
            json!("documents.foo"),
        ),
        (
            "a document missing",
            "/api/business".to_owned(),
            missing,
            400,
            "documents: missing a six-month bank statement (bank_statement)",
            json!("documents"),
        ),
        (
            "wrong types",
            "/api/business".to_owned(),
            wrong,
            400,
            "businessAddress.city: must be a string; hasWebsite: must be a boolean",
            json!("businessAddress.city"),
        ),
        (
            "a director of no business",
            "/api/business/biz_NOPE/director".to_owned(),
            person(),
            404,
            "Business not found: biz_NOPE",
            Value::Null,
        ),
        (
            "an impossible birth date and no idType",
            format!("/api/business/{id}/ubo"),
            bad_person,
            400,
            "dateOfBirth: is not a real calendar date; idType: is required",
            json!("dateOfBirth"),
        ),
    ];
    for (case, path, body, status, message, field) in cases {
        let reply = refused(&api, case, &path, Some(&body), status, message).await;
        assert_eq!(reply.body["errors"][0]["field"], field, "case {case}");
    }
}

/// ASSUMPTIONS C7: two keys naming one document type are refused, since
/// the second document would replace the first; nothing is created.
#[tokio::test]
async fn two_keys_for_one_document_are_refused() {
    let api = Api::start().await;
    let mut body = business("RC8");
    body["documents"]["cac"] = json!({"url": LINK, "key": "second-cert"});
    crate::sandbox::common::refused_field(
        &api,
        "/api/business",
        &body,
        "documents.cac_document",
        "Duplicate document: cac and cac_document both map to CERTIFICATE_OF_INCORPORATION",
    )
    .await;
    // Without the second key, the same registration number is created.
    body["documents"].as_object_mut().unwrap().remove("cac");
    assert_eq!(api.post("/api/business", &body).await.status, 200);
}

/// ASSUMPTIONS D42: the sandbox reads document keys by the description's
/// rule only: its aliases as written, or an uppercased match against the
/// supported types. Keys the SDK reads loosely (case, `-`, spaces, its own
/// aliases) are refused with the message of an unknown key, on create and
/// on update.
#[tokio::test]
async fn document_keys_are_read_by_the_described_rule_only() {
    let api = Api::start().await;
    let id = create(&api, "RC6").await;
    let refused_keys = [
        ("Bank Statement", " (did you mean bank_statement?)"),
        ("application-letter", " (did you mean APPLICATION_LETTER?)"),
        ("BN-Form-1", " (did you mean bn_form_1?)"),
        ("CAC", " (did you mean cac?)"),
        (" cac_document", " (did you mean cac_document?)"),
        ("bn1", ""),
        ("memart", ""),
        ("form_2", ""),
        ("incorporation_certificate", ""),
    ];
    for (index, (key, suggestion)) in refused_keys.into_iter().enumerate() {
        let message = format!("Unrecognized document key: {key}{suggestion}");
        let mut body = business(&format!("RC7{index}"));
        body["documents"][key] = json!({"url": LINK, "key": "extra"});
        let reply = refused(&api, key, "/api/business", Some(&body), 400, &message).await;
        assert_eq!(
            reply.body["errors"][0]["field"],
            json!(format!("documents.{key}"))
        );
        let update = json!({"documents": {key: {"url": LINK, "key": "extra"}}});
        let path = format!("/api/business/{id}");
        let reply = api
            .raw(Method::PATCH, &path, Some(STAGING_KEY), Some(&update))
            .await;
        assert_eq!(reply.status, 400, "{key}: {}", reply.text);
        assert_eq!(reply.body["message"], json!(message), "{key}");
    }

    // The uppercased match: any case of a type's name, and the aliases.
    let mut body = business("RC80");
    let documents = body["documents"].as_object_mut().unwrap();
    let statement = documents.remove("bank_statement").unwrap();
    let letter = documents.remove("application_letter").unwrap();
    let certificate = documents.remove("cac_document").unwrap();
    documents.insert("BANK_STATEMENT".into(), statement);
    documents.insert("Application_Letter".into(), letter);
    documents.insert("business_license".into(), certificate);
    let reply = api.post("/api/business", &body).await;
    assert_eq!(reply.status, 200, "{}", reply.text);
}

/// ASSUMPTIONS D44: every link of a KYB request is an absolute http(s)
/// URL; the sandbox answers 400 naming each field that breaks the rule,
/// with the message the SDK gives before sending.
#[tokio::test]
async fn every_link_is_an_absolute_http_url() {
    let api = Api::start().await;
    let id = create(&api, "RC9").await;
    let rule = "must be an absolute http or https URL";

    let mut body = business("RC10");
    body["proofOfAddress"]["url"] = json!("not a url");
    body["documents"]["bank_statement"]["url"] = json!("/uploads/statement.pdf");
    body["sourceOfFund"] = json!({"type": "Revenue", "url": "ftp://files.example/sof.pdf"});
    let message = format!(
        "proofOfAddress.url: {rule}; documents.bank_statement.url: {rule}; sourceOfFund.url: {rule}"
    );
    let reply = refused(
        &api,
        "business",
        "/api/business",
        Some(&body),
        400,
        &message,
    )
    .await;
    assert_eq!(
        reply.body["errors"][0]["field"],
        json!("proofOfAddress.url")
    );

    let update = json!({"documents": {"cac_document": {"url": "files.example/c.pdf", "key": "c"}}});
    let path = format!("/api/business/{id}");
    let reply = api
        .raw(Method::PATCH, &path, Some(STAGING_KEY), Some(&update))
        .await;
    assert_eq!(reply.status, 400, "{}", reply.text);
    assert_eq!(
        reply.body["message"],
        json!(format!("documents.cac_document.url: {rule}"))
    );

    let mut person = person();
    person["idDocumentUrl"] = json!("passport.pdf");
    person["document"]["url"] = json!("https://");
    person["additionalDocument"] = json!({"url": "https://files.example/a b.pdf", "key": "b"});
    let message =
        format!("idDocumentUrl: {rule}; document.url: {rule}; additionalDocument.url: {rule}");
    refused(
        &api,
        "director",
        &format!("/api/business/{id}/director"),
        Some(&person),
        400,
        &message,
    )
    .await;
}

/// ASSUMPTIONS B22: a business is created once per registration number,
/// and a repeat is recognised by what it says.
#[tokio::test]
async fn a_repeated_business_is_recognised_by_what_it_says() {
    let api = Api::start().await;
    // ASSUMPTIONS B22: the same body again is a repeat (its answer may have
    // been lost): the same business, nothing created. The same number with
    // another body is 409.
    let first = create(&api, "RC4").await;
    let repeat = api.post("/api/business", &business("RC4")).await;
    assert_eq!(repeat.status, 200, "{}", repeat.text);
    assert_eq!(repeat.body["data"]["id"], json!(first));
    assert_eq!(repeat.body["message"], "Business created successfully");
    let mut other = business("RC4");
    other["email"] = json!("other@lagostrading.ng");
    api.post_refused(
        "/api/business",
        &other,
        409,
        "registrationNumber already registered: RC4",
    )
    .await;

    // A repeat is recognised by what it says, however it is written: keys
    // in another order, other spacing, an escaped character, a number as
    // `10.00` where the first said `10`.
    let mut first_body = business("RC6");
    first_body["ignoredExtra"] = json!(10);
    let created = api.post("/api/business", &first_body).await;
    assert_eq!(created.status, 200, "{}", created.text);
    let mut members: Vec<(String, Value)> = first_body
        .as_object()
        .unwrap()
        .iter()
        .map(|(key, value)| (key.clone(), value.clone()))
        .collect();
    members.reverse();
    let rewritten = members
        .iter()
        .map(|(key, value)| match key.as_str() {
            "name" => "\n  \"name\" :  \"Lagos \\u0054rading Ltd\"".to_owned(),
            "ignoredExtra" => "\"ignoredExtra\": 10.00".to_owned(),
            _ => format!("{}: {value}", json!(key)),
        })
        .collect::<Vec<_>>()
        .join(" ,\n");
    let repeat = api
        .post_bytes("/api/business", format!("{{ {rewritten} }}"))
        .await;
    assert_eq!(repeat.status, 200, "{}", repeat.text);
    assert_eq!(repeat.body["data"]["id"], created.body["data"]["id"]);
    let mut changed = first_body.clone();
    changed["ignoredExtra"] = json!(11);
    let conflict = api.post("/api/business", &changed).await;
    assert_eq!(conflict.status, 409, "{}", conflict.text);
}

#[tokio::test]
async fn operating_address_and_document_references() {
    let api = Api::start().await;
    let mut body = business("RC6");
    body["operatingAddress"] = json!({"houseNumber": "3", "street": "Broad Street",
                                      "state": "Lagos", "zipCode": "102273"});
    body["documents"]["cac_document"] = json!({"url": "https://files.example/cac.pdf"});
    body["documents"]["application_letter"] = json!("https://files.example/letter.pdf");
    api.post_refused(
        "/api/business",
        &body,
        400,
        "documents.application_letter: must be an object; operatingAddress.city: is required; \
         documents.cac_document.key: is required",
    )
    .await;

    body["operatingAddress"]["city"] = json!("Lagos Island");
    body["documents"]["cac_document"]["key"] = json!("cac-cert");
    body["documents"]["application_letter"] =
        json!({"url": "https://files.example/letter.pdf", "key": "letter"});
    let created = api.post("/api/business", &body).await;
    assert_eq!(created.status, 200, "{}", created.text);
    assert_eq!(
        created.body["data"]["fieldStatuses"]["operatingAddress"],
        "PENDING"
    );

    // An update sends the object whole (ASSUMPTIONS C6).
    let id = created.body["data"]["id"].as_str().unwrap();
    let url = format!("/api/business/{id}");
    let reply = api
        .raw(
            reqwest::Method::PATCH,
            &url,
            Some(crossborder_sandbox::STAGING_KEY),
            Some(
                &json!({"operatingAddress": {"houseNumber": "3", "street": "Broad Street",
                                               "city": "Lagos Island", "state": "Lagos",
                                               "zipCode": " "}}),
            ),
        )
        .await;
    assert_error(
        &reply,
        400,
        "operatingAddress.zipCode: is required",
        "PATCH",
        &url,
    );
}
