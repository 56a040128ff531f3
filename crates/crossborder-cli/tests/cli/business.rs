//! `business`: validate (files, stdin, batches), create, add-director,
//! add-ubo, update, status, and status --wait to a decision.

use serde_json::json;

use crate::{at, bare, business_body, cli, person_body, run, sandbox, with_stdin, Run};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn business_validate_reports_violations_and_document_keys() {
    let mut valid = bare();
    valid
        .args(["business", "validate", "-", "--json"])
        .write_stdin(business_body().to_string());
    let out = run(valid).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        out.json(),
        json!({"valid": true, "violations": [], "documents": {
            "Bank-Statement": "BANK_STATEMENT", "application_letter": "APPLICATION_LETTER",
            "bn_form_1": "BN_FORM_1", "cac": "CERTIFICATE_OF_INCORPORATION"},
            "document_keys": [
                {"given": "Bank-Statement", "sent": "bank_statement", "type": "BANK_STATEMENT"},
                {"given": "application_letter", "sent": "APPLICATION_LETTER", "type": "APPLICATION_LETTER"},
                {"given": "bn_form_1", "sent": "bn_form_1", "type": "BN_FORM_1"},
                {"given": "cac", "sent": "cac", "type": "CERTIFICATE_OF_INCORPORATION"}]})
    );

    // As a table: each key as written, its type and the key sent
    // (ASSUMPTIONS D42: the sandbox would refuse `Bank Statement` and
    // `bn1` as written; the SDK sends them as the description knows them).
    let mut loose = business_body();
    let documents = loose["documents"].as_object_mut().unwrap();
    let statement = documents.remove("Bank-Statement").unwrap();
    let form = documents.remove("bn_form_1").unwrap();
    documents.insert("Bank Statement".into(), statement);
    documents.insert("bn1".into(), form);
    let mut table = bare();
    table
        .args(["business", "validate", "-"])
        .write_stdin(loose.to_string());
    let out = run(table).await;
    assert_eq!(out.code, 0, "{}", out.shown());
    assert_eq!(
        out.stdout,
        "valid\n  \
         document \"Bank Statement\" -> BANK_STATEMENT, sent as \"bank_statement\"\n  \
         document \"application_letter\" -> APPLICATION_LETTER, sent as \"APPLICATION_LETTER\"\n  \
         document \"bn1\" -> BN_FORM_1, sent as \"bn_form_1\"\n  \
         document \"cac\" -> CERTIFICATE_OF_INCORPORATION, sent as \"cac\"\n"
    );

    // From a file: every violation, and each document key's type.
    let mut broken = business_body();
    broken["email"] = json!(42);
    broken["documents"]["bank_statment"] = broken["documents"]["Bank-Statement"].take();
    broken["documents"]
        .as_object_mut()
        .unwrap()
        .remove("Bank-Statement");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("business.json");
    std::fs::write(&file, broken.to_string()).unwrap();
    let mut invalid = bare();
    invalid.args(["business", "validate"]).arg(&file);
    let out = run(invalid).await;
    assert_eq!(out.code, 2);
    assert_eq!(
        out.stdout,
        "invalid\n  email: must be a string\n  \
         documents.bank_statment: Unrecognized document key: bank_statment (did you mean bank_statement?)\n  \
         documents: missing a six-month bank statement (bank_statement)\n  \
         document \"application_letter\" -> APPLICATION_LETTER, sent as \"APPLICATION_LETTER\"\n  \
         document \"bank_statment\" -> unrecognized, not sent\n  \
         document \"bn_form_1\" -> BN_FORM_1, sent as \"bn_form_1\"\n  \
         document \"cac\" -> CERTIFICATE_OF_INCORPORATION, sent as \"cac\"\n"
    );

    // A batch of updates, as a table and as JSON, each by its index.
    let batch = json!([{"email": "ops@lagostrading.ng"}, {"name": "Other Ltd"}]);
    let mut both = bare();
    both.args(["business", "validate", "-", "--update"])
        .write_stdin(batch.to_string());
    let out = run(both).await;
    assert_eq!(out.code, 2, "{}", out.stdout);
    assert_eq!(
        out.stdout,
        "[0] valid\n[1] invalid\n[1]   name: cannot be changed after creation\n"
    );
    let mut both = bare();
    both.args(["business", "validate", "-", "--update", "--json"])
        .write_stdin(batch.to_string());
    let out = run(both).await;
    assert_eq!(out.code, 2);
    assert_eq!(
        out.json(),
        json!({"valid": false, "items": [
            {"index": 0, "valid": true, "violations": [], "documents": {}, "document_keys": []},
            {"index": 1, "valid": false, "documents": {}, "document_keys": [],
             "violations": [{"field": "name", "message": "cannot be changed after creation"}]},
        ]})
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn business_status_of_an_unknown_business_is_an_api_error() {
    let sandbox = sandbox().await;
    let out = cli(sandbox.base_url(), "business status biz_missing").await;
    assert_eq!(out.code, 1);
    out.stderr_starts("error: HTTP 404: ");
}

/// Creates a business with `registration` and its director and UBO, through
/// the CLI; returns its id.
async fn submitted(base_url: &str, registration: &str) -> String {
    let mut body = business_body();
    body["registrationNumber"] = json!(registration);
    let mut create = with_stdin(at(base_url), &body.to_string());
    create.args(["business", "create", "-", "--json"]);
    let out = run(create).await;
    let id = out.ok_json()["id"].as_str().unwrap().to_owned();
    for command in ["add-director", "add-ubo"] {
        let mut add = with_stdin(at(base_url), &person_body().to_string());
        add.args(["business", command, &id, "-"]);
        assert_eq!(run(add).await.code, 0);
    }
    id
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_business_is_onboarded_from_json_files() {
    let sandbox = sandbox().await;

    let mut create = with_stdin(at(sandbox.base_url()), &business_body().to_string());
    create.args(["business", "create", "-", "--json"]);
    let out = run(create).await;
    let created = out.ok_json();
    assert_eq!(created["status"], "PENDING");
    // The whole record: the field statuses too.
    assert_eq!(created["fieldStatuses"]["email"], "PENDING");
    assert_eq!(created["directorCount"], 0);
    let id = created["id"].as_str().unwrap().to_owned();

    let mut bad_person = person_body();
    bad_person["nationality"] = json!("Nigeria");
    let mut refused = with_stdin(at(sandbox.base_url()), &bad_person.to_string());
    refused.args(["business", "add-director", &id, "-"]);
    let out = run(refused).await;
    assert_eq!(out.code, 2);
    assert_eq!(
        out.stderr,
        "error: invalid request (1 violation); nothing was sent\n  \
         nationality: must be an ISO 3166-1 alpha-2 country code, such as NG\n"
    );

    for (command, role) in [("add-director", "DIRECTOR"), ("add-ubo", "UBO")] {
        let mut add = with_stdin(at(sandbox.base_url()), &person_body().to_string());
        add.args(["business", command, &id, "-", "--json"]);
        let out = run(add).await;
        assert_eq!(out.ok_json()["role"], role);
    }

    let mut status = at(sandbox.base_url());
    status.args(["business", "status", &id, "--json"]);
    let out = run(status).await;
    let business = out.json();
    assert_eq!(business["status"], "APPROVED", "{}", out.stdout);
    assert_eq!(business["fieldStatuses"]["email"], "APPROVED");
    assert!(business["submittedAt"].is_string());

    let mut update = with_stdin(
        at(sandbox.base_url()),
        &json!({"email": "kyc@lagostrading.ng"}).to_string(),
    );
    update.args(["business", "update", &id, "-", "--json"]);
    let out = run(update).await;
    let updated = out.ok_json();
    assert_eq!(updated["status"], "PENDING");
    assert_eq!(updated["underReview"], json!(["email"]));
}

/// The table rows of `out` as `(label, value)`.
fn rows(out: &Run) -> Vec<(String, String)> {
    out.stdout
        .lines()
        .filter_map(|line| line.split_once("  "))
        .map(|(label, value)| (label.trim().to_owned(), value.trim().to_owned()))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn status_wait_returns_the_decision_or_times_out() {
    let sandbox = sandbox().await;
    let wait = |id: &str, timeout: &str| {
        let mut command = at(sandbox.base_url());
        command.args(["business", "status", id, "--wait", "--timeout", timeout]);
        command
    };

    let approved = submitted(sandbox.base_url(), "RC1000001").await;
    let out = run(wait(&approved, "60")).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        rows(&out).contains(&("status".to_owned(), "APPROVED".to_owned())),
        "{}",
        out.stdout
    );
    // Not a terminal: no spinner.
    assert_eq!(out.stderr, "");

    let rejected = submitted(sandbox.base_url(), "RC1000002REJECT").await;
    let out = run(wait(&rejected, "60")).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    let shown = rows(&out);
    assert!(
        shown.contains(&("status".to_owned(), "REJECTED".to_owned())),
        "{}",
        out.stdout
    );
    assert!(shown.contains(&(
        "reason".to_owned(),
        "Registration number could not be verified".to_owned()
    )));

    // Never decided: the wait ends at --timeout, an error with the last state.
    let pending = submitted(sandbox.base_url(), "RC1000003PENDING").await;
    let out = run(wait(&pending, "1")).await;
    assert_eq!(out.code, 1);
    assert_eq!(out.stdout, "");
    assert_eq!(
        out.stderr,
        format!("error: business {pending} was not decided in time; last status SUBMITTED\n")
    );
}
