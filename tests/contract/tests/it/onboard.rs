//! `businesses().onboard` against the sandbox: the whole application checked
//! before any request, one call to a submitted business, and resumption
//! after a failure injected at each step (every upload, the create, every
//! director and UBO, the final read), with the sandbox holding exactly one
//! business, one upload per file and each person once afterwards; and
//! after an answer lost at a step the service did.

use std::sync::{Arc, Mutex};

use crossborder::onboard::{file_url, Application, Onboarded, OnboardingError, Progress, Step};
use crossborder::types::BusinessStatus;
use crossborder::Client;
use crossborder_contract_tests::{
    business_json, business_request, person_json, person_request, sdk_client, Env, Fail, Proxy,
    Rewrite, STAGING_KEY,
};
use crossborder_sandbox::{RequestLine, SandboxConfig};
use serde_json::json;

const PDF: &[u8] = b"%PDF-1.4\n% onboarding test\n%%EOF\n";
const PNG: &[u8] = b"\x89PNG\r\n\x1a\n0000";

/// A sandbox whose request log is kept, to count what it received.
async fn logged_env() -> (Env, Arc<Mutex<Vec<RequestLine>>>) {
    let lines: Arc<Mutex<Vec<RequestLine>>> = Arc::default();
    let sink = lines.clone();
    let env = Env::start_with(
        SandboxConfig::default()
            .with_request_log(move |line| sink.lock().unwrap().push(line.clone())),
    )
    .await;
    (env, lines)
}

/// [`logged_env`] and a client with its staging key.
async fn logged_staging() -> (Env, Client, Arc<Mutex<Vec<RequestLine>>>) {
    let (env, lines) = logged_env().await;
    let client = env.client(STAGING_KEY);
    (env, client, lines)
}

/// Successful requests of `method` whose path ends with `suffix`.
fn count(lines: &Mutex<Vec<RequestLine>>, method: &str, suffix: &str) -> usize {
    lines
        .lock()
        .unwrap()
        .iter()
        .filter(|l| l.method == method && l.path.ends_with(suffix) && l.status == 200)
        .count()
}

/// Runs `application` from `progress` with `client`, ignoring each step.
async fn onboard(
    client: &Client,
    application: &Application,
    progress: Progress,
) -> Result<Onboarded, OnboardingError> {
    client
        .businesses()
        .onboard(application, progress, |_, _| {})
        .await
}

/// Runs [`larger_application`] from the start through a proxy to `env`
/// that makes `fail` happen at `step`, and checks it stopped with the
/// proxy's status (503 for a refused request, 502 for a lost answer);
/// returns where it stopped.
async fn onboard_through(env: &Env, fail: Fail, step: &str) -> OnboardingError {
    let status = if fail.answer_lost { 502 } else { 503 };
    let proxy = Proxy::start(
        env.base_url(),
        Rewrite {
            fail: Some(fail),
            ..Rewrite::default()
        },
    )
    .await;
    let failing = sdk_client(proxy.base_url(), STAGING_KEY);
    let stopped = match onboard(&failing, &larger_application(), Progress::default()).await {
        Ok(onboarded) => panic!("{step}: onboarded through a failure: {onboarded:?}"),
        Err(stopped) => stopped,
    };
    assert_eq!(
        stopped.error.status(),
        Some(status),
        "{step}: {:?}",
        stopped.error
    );
    stopped
}

/// Resumes [`larger_application`] from `progress` straight to `env`'s
/// sandbox, and checks it ends with both directors and both UBOs.
async fn resume(env: &Env, progress: Progress, step: &str) -> Onboarded {
    let client = env.client(STAGING_KEY);
    let onboarded = onboard(&client, &larger_application(), progress)
        .await
        .unwrap_or_else(|e| panic!("{step}: {e}"));
    assert_eq!(onboarded.business.director_count, Some(2), "{step}");
    assert_eq!(onboarded.business.ubo_count, Some(2), "{step}");
    onboarded
}

fn application() -> Application {
    let mut business = business_request("RC7000001", &file_url("company.pdf"));
    business.proof_of_address.url = file_url("utility.png");
    Application {
        business: Some(business),
        directors: vec![person_request(&file_url("passport.png"))],
        ubos: vec![person_request(&file_url("passport.png"))],
        files: [
            ("company.pdf".to_owned(), PDF.into()),
            ("passport.png".to_owned(), PNG.into()),
            ("utility.png".to_owned(), PNG.into()),
        ]
        .into(),
    }
}

/// [`application`] with two directors and two UBOs, each a different
/// person.
fn larger_application() -> Application {
    let mut application = application();
    let person = |first_name: &str| {
        let mut person = person_request(&file_url("passport.png"));
        person.first_name = first_name.into();
        person
    };
    application.directors = vec![person("Adaeze"), person("Chinedu")];
    application.ubos = vec![person("Ngozi"), person("Emeka")];
    application
}

/// What the sandbox holds after a resumed run of [`larger_application`]:
/// one business with its two directors and two UBOs, and `uploads`
/// successful uploads.
fn assert_held_once(env: &Env, lines: &Mutex<Vec<RequestLine>>, uploads: usize, case: &str) {
    let businesses = env.sandbox.businesses();
    assert_eq!(businesses.len(), 1, "{case}: one business");
    assert_eq!(businesses[0].directors, 2, "{case}: each director once");
    assert_eq!(businesses[0].ubos, 2, "{case}: each UBO once");
    assert_eq!(
        count(lines, "POST", "/api/upload-document"),
        uploads,
        "{case}: uploads"
    );
    assert_eq!(count(lines, "POST", "/director"), 2, "{case}: directors");
    assert_eq!(count(lines, "POST", "/ubo"), 2, "{case}: UBOs");
}

#[tokio::test]
async fn one_call_uploads_creates_and_submits() {
    let (_env, client, lines) = logged_staging().await;
    let mut steps = Vec::new();
    let onboarded = client
        .businesses()
        .onboard(&application(), Progress::default(), |step, progress| {
            let step = match step {
                Step::Uploading { name, .. } => format!("uploading {name}"),
                Step::Uploaded { name, link } => {
                    assert_eq!(progress.links[name], link, "the link is in the progress");
                    format!("uploaded {name}")
                }
                Step::Created { business_id } => {
                    assert_eq!(progress.business_id.as_deref(), Some(business_id));
                    "created".to_owned()
                }
                Step::DirectorAdded { index } => format!("director {index}"),
                Step::UboAdded { index } => format!("ubo {index}"),
            };
            // The progress as the step leaves it: links, created, people.
            steps.push(format!(
                "{step} ({} {} {} {})",
                progress.links.len(),
                progress.business_id.is_some(),
                progress.directors_added,
                progress.ubos_added
            ));
        })
        .await
        .unwrap();
    assert_eq!(
        steps,
        [
            "uploading company.pdf (0 false 0 0)",
            "uploaded company.pdf (1 false 0 0)",
            "uploading passport.png (1 false 0 0)",
            "uploaded passport.png (2 false 0 0)",
            "uploading utility.png (2 false 0 0)",
            "uploaded utility.png (3 false 0 0)",
            "created (3 true 0 0)",
            "director 0 (3 true 1 0)",
            "ubo 0 (3 true 1 1)",
        ]
    );
    assert_eq!(
        onboarded.progress,
        Progress {
            links: onboarded.links.clone(),
            business_id: Some(onboarded.business.id.clone()),
            directors_added: 1,
            ubos_added: 1,
        }
    );
    assert_eq!(onboarded.links.len(), 3);
    assert!(onboarded.links["company.pdf"].ends_with(".pdf"));
    // The sandbox decides on the first read after submission: approved.
    assert_eq!(onboarded.business.status, BusinessStatus::Approved);
    assert_eq!(onboarded.business.director_count, Some(1));
    assert_eq!(onboarded.business.ubo_count, Some(1));
    assert_eq!(count(&lines, "POST", "/api/upload-document"), 3);
    assert_eq!(count(&lines, "POST", "/api/business"), 1);
}

/// The application read from its JSON (each part the API's own body) is
/// the one built field by field, and onboards the same.
#[tokio::test]
async fn an_application_read_from_json_is_the_one_built_in_rust() {
    let document = |key: &str| json!({"url": file_url("company.pdf"), "key": key});
    let mut business = business_json(
        "RC7000001",
        &file_url("utility.png"),
        json!({
            "cac_document": document("cac-cert"),
            "bank_statement": document("statement-6m"),
            "application_letter": document("letter"),
            "cac_status_report": document("status-report"),
        }),
    );
    business["businessDescription"] = json!("Imports and distributes consumer electronics.");
    business["TIN"] = json!("12345678-0001");
    let person = person_json(&file_url("passport.png"));
    let mut read = Application::from_json(
        &json!({"business": business, "directors": [person.clone()], "ubos": [person]}),
    )
    .unwrap();
    assert_eq!(
        read.referenced_files().into_iter().collect::<Vec<_>>(),
        ["company.pdf", "passport.png", "utility.png"]
    );
    read.files = application().files;
    assert_eq!(read, application());

    let (_env, client, lines) = logged_staging().await;
    let onboarded = onboard(&client, &read, Progress::default()).await.unwrap();
    assert_eq!(onboarded.business.director_count, Some(1));
    assert_eq!(count(&lines, "POST", "/api/upload-document"), 3);
}

#[tokio::test]
async fn the_whole_application_is_checked_before_any_request() {
    let (_env, client, lines) = logged_staging().await;
    let mut broken = application();
    broken
        .files
        .insert("utility.png".to_owned(), b"not an image".as_slice().into());
    broken.directors[0].first_name = String::new();
    broken.ubos[0].id_document_url = file_url("missing.pdf");
    let stopped = onboard(&client, &broken, Progress::default())
        .await
        .unwrap_err();
    let violations = stopped.error.violations().expect("a validation error");
    let shown: Vec<String> = violations
        .iter()
        .map(|v| format!("{}: {}", v.field, v.message))
        .collect();
    assert_eq!(
        shown,
        [
            "files.utility.png.file: Unsupported file type: only JPEG, PNG and PDF are accepted",
            "directors[0].firstName: is required",
            "ubos[0].idDocumentUrl: names the file \"missing.pdf\", which the application does not hold",
        ]
    );
    assert_eq!(stopped.progress, Progress::default());
    assert!(lines.lock().unwrap().is_empty(), "nothing was sent");
}

/// Each step of [`larger_application`] in order, as the request the proxy
/// makes fail: (name, method, path part, which matching request).
const STEPS: [(&str, &str, &str, usize); 9] = [
    ("upload 1", "POST", "/upload-document", 1),
    ("upload 2", "POST", "/upload-document", 2),
    ("upload 3", "POST", "/upload-document", 3),
    ("create", "POST", "/api/business", 1),
    ("director 1", "POST", "/director", 1),
    ("director 2", "POST", "/director", 2),
    ("ubo 1", "POST", "/ubo", 1),
    ("ubo 2", "POST", "/ubo", 2),
    ("final read", "GET", "/api/business/", 1),
];

/// A failure at any step (the request never reaches the sandbox) stops the
/// run with the progress made up to that step; resuming with it finishes
/// the onboarding with one business, one upload per file and each person
/// once.
#[tokio::test]
async fn a_failure_at_each_step_resumes_without_duplicates() {
    for (position, (step, method, path, nth)) in STEPS.into_iter().enumerate() {
        let (env, lines) = logged_env().await;
        let stopped = onboard_through(&env, Fail::refused(method, path, nth), step).await;
        // The progress is exactly the steps before this one.
        let done = |first: usize, upto: usize| position.clamp(first, upto) - first;
        assert_eq!(stopped.progress.links.len(), done(0, 3), "{step}");
        assert_eq!(
            stopped.progress.business_id.is_some(),
            position > 3,
            "{step}"
        );
        assert_eq!(stopped.progress.directors_added, done(4, 6), "{step}");
        assert_eq!(stopped.progress.ubos_added, done(6, 8), "{step}");

        let onboarded = resume(&env, stopped.progress, step).await;
        assert_eq!(onboarded.links.len(), 3, "{step}");
        assert_held_once(&env, &lines, 3, step);
        assert_eq!(
            count(&lines, "POST", "/api/business"),
            1,
            "{step}: one create"
        );
    }
}

/// An answer lost after the sandbox did the step (a dropped connection):
/// the resumed run repeats the create, which the sandbox answers with the
/// business it created (ASSUMPTIONS B22); it reads the business before
/// adding people, and skips the person its counts show was added; and it
/// uploads a file again, which stores a second, unused copy.
#[tokio::test]
async fn an_answer_lost_at_each_step_resumes_without_duplicates() {
    for (step, method, path, nth) in STEPS {
        let (env, lines) = logged_env().await;
        let stopped = onboard_through(&env, Fail::answer_lost(method, path, nth), step).await;

        let onboarded = resume(&env, stopped.progress, step).await;
        let uploads = if step.starts_with("upload") { 4 } else { 3 };
        assert_held_once(&env, &lines, uploads, step);
        // The progress returned holds what the run found done without a
        // step of its own (a person whose answer was lost), as well as what
        // it did.
        assert_eq!(
            onboarded.progress,
            Progress {
                links: onboarded.links.clone(),
                business_id: Some(onboarded.business.id.clone()),
                directors_added: 2,
                ubos_added: 2,
            },
            "{step}"
        );
    }
}

/// A resumed run whose business id the caller filled in (after a 409 on a
/// create whose first answer was lost, from the dashboard) creates nothing
/// and adds every person.
#[tokio::test]
async fn a_resume_with_a_business_id_creates_nothing() {
    let (env, client, lines) = logged_staging().await;
    let application = larger_application();
    let mut business = application.business.clone().unwrap();
    business.proof_of_address.url = "https://files.crossborder.invalid/utility.png".into();
    business
        .documents
        .values_mut()
        .for_each(|link| link.url = "https://files.crossborder.invalid/company.pdf".into());
    let created = client.businesses().create(&business).await.unwrap();
    let progress = Progress {
        business_id: Some(created.id.clone()),
        ..Progress::default()
    };
    let onboarded = onboard(&client, &application, progress).await.unwrap();
    assert_eq!(onboarded.business.id, created.id);
    assert_held_once(&env, &lines, 3, "business id given");
    assert_eq!(count(&lines, "POST", "/api/business"), 1);
}

/// A file the application does not hold is named with the document that
/// refers to it.
#[tokio::test]
async fn a_missing_file_is_named_with_its_document_key() {
    let (_env, client, lines) = logged_staging().await;
    let mut application = application();
    let business = application.business.as_mut().unwrap();
    business.documents.get_mut("bank_statement").unwrap().url = file_url("statement.pdf");
    let stopped = onboard(&client, &application, Progress::default())
        .await
        .unwrap_err();
    assert_eq!(
        stopped.error.violations().unwrap().to_string(),
        "business.documents.bank_statement.url: names the file \"statement.pdf\", \
         which the application does not hold"
    );
    assert!(lines.lock().unwrap().is_empty(), "nothing was sent");
}
