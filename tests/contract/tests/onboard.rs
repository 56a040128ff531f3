//! `businesses().onboard` against the sandbox: the whole application checked
//! before any request, one call to a submitted business, and resumption
//! after a failure injected at each step, with the sandbox holding exactly
//! one business and one upload per file afterwards.

use std::sync::{Arc, Mutex};

use crossborder::onboard::{file_url, Application, Progress, Step};
use crossborder::{BusinessStatus, Error};
use crossborder_contract_tests::{
    business_request, person_request, sdk_client, Env, Proxy, Rewrite, STAGING_KEY,
};
use crossborder_sandbox::{RequestLine, SandboxConfig};

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

/// Successful requests of `method` whose path ends with `suffix`.
fn count(lines: &Mutex<Vec<RequestLine>>, method: &str, suffix: &str) -> usize {
    lines
        .lock()
        .unwrap()
        .iter()
        .filter(|l| l.method == method && l.path.ends_with(suffix) && l.status == 200)
        .count()
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

#[tokio::test]
async fn one_call_uploads_creates_and_submits() {
    let (env, lines) = logged_env().await;
    let client = env.client(STAGING_KEY);
    let mut steps = Vec::new();
    let onboarded = client
        .businesses()
        .onboard(&application(), Progress::default(), |step| {
            steps.push(match step {
                Step::Uploading { name, .. } => format!("uploading {name}"),
                Step::Uploaded { name, .. } => format!("uploaded {name}"),
                Step::Created { .. } => "created".to_owned(),
                Step::DirectorAdded { index } => format!("director {index}"),
                Step::UboAdded { index } => format!("ubo {index}"),
            })
        })
        .await
        .unwrap();
    assert_eq!(
        steps,
        [
            "uploading company.pdf",
            "uploaded company.pdf",
            "uploading passport.png",
            "uploaded passport.png",
            "uploading utility.png",
            "uploaded utility.png",
            "created",
            "director 0",
            "ubo 0",
        ]
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

#[tokio::test]
async fn the_whole_application_is_checked_before_any_request() {
    let (env, lines) = logged_env().await;
    let client = env.client(STAGING_KEY);
    let mut broken = application();
    broken
        .files
        .insert("utility.png".to_owned(), b"not an image".as_slice().into());
    broken.directors[0].first_name = String::new();
    broken.ubos[0].id_document_url = file_url("missing.pdf");
    let stopped = client
        .businesses()
        .onboard(&broken, Progress::default(), |_| {})
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

#[tokio::test]
async fn a_failure_at_each_step_resumes_without_duplicates() {
    for (step, broken_path) in [
        ("upload", "/upload-document"),
        ("create", "/api/business"),
        ("director", "/director"),
        ("ubo", "/ubo"),
    ] {
        let (env, lines) = logged_env().await;
        let proxy = Proxy::start(
            env.base_url(),
            Rewrite {
                path: Some((broken_path.to_owned(), "/nowhere".to_owned())),
                ..Rewrite::default()
            },
        )
        .await;
        let failing = sdk_client(proxy.base_url(), STAGING_KEY);
        let stopped = failing
            .businesses()
            .onboard(&application(), Progress::default(), |_| {})
            .await
            .unwrap_err();
        assert!(
            matches!(stopped.error, Error::Api { status: 404, .. }),
            "{step}: {:?}",
            stopped.error
        );
        let expected_links = if step == "upload" { 0 } else { 3 };
        assert_eq!(stopped.progress.links.len(), expected_links, "{step}");
        assert_eq!(
            stopped.progress.business_id.is_some(),
            matches!(step, "director" | "ubo"),
            "{step}"
        );
        assert_eq!(
            stopped.progress.directors_added,
            usize::from(step == "ubo"),
            "{step}"
        );

        let client = env.client(STAGING_KEY);
        let onboarded = client
            .businesses()
            .onboard(&application(), stopped.progress, |_| {})
            .await
            .unwrap_or_else(|e| panic!("{step}: {e}"));
        assert_eq!(onboarded.business.director_count, Some(1), "{step}");
        assert_eq!(onboarded.business.ubo_count, Some(1), "{step}");
        assert_eq!(
            count(&lines, "POST", "/api/upload-document"),
            3,
            "{step}: one upload per file"
        );
        assert_eq!(
            count(&lines, "POST", "/api/business"),
            1,
            "{step}: one business"
        );
        assert_eq!(
            count(&lines, "POST", "/director"),
            1,
            "{step}: one director"
        );
        assert_eq!(count(&lines, "POST", "/ubo"), 1, "{step}: one UBO");
    }
}
