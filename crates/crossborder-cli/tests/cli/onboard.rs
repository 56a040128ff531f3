//! `business onboard`: a whole application from one file, checked before
//! anything is sent, its progress kept in a file; a run that stops
//! part-way is resumed without uploading, creating or adding anything twice.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crossborder_sandbox::SandboxConfig;
use serde_json::{json, Value};

use crate::{at, business_body, person_body, redact, run, sandbox_with};

const PDF: &[u8] = b"%PDF-1.4\n% onboarding test\n%%EOF\n";
const PNG: &[u8] = b"\x89PNG\r\n\x1a\n0000";

/// The requests a sandbox answered, as `METHOD PATH STATUS`.
#[derive(Clone, Default)]
struct Log(Arc<Mutex<Vec<String>>>);

impl Log {
    fn config(&self) -> SandboxConfig {
        let lines = self.0.clone();
        SandboxConfig::default().with_request_log(move |line| {
            lines
                .lock()
                .unwrap()
                .push(format!("{} {} {}", line.method, line.path, line.status));
        })
    }

    /// How many requests start with `prefix` (`POST /v1/api/business`).
    fn count(&self, prefix: &str) -> usize {
        let lines = self.0.lock().unwrap();
        lines.iter().filter(|line| line.starts_with(prefix)).count()
    }

    fn len(&self) -> usize {
        self.0.lock().unwrap().len()
    }
}

/// An application whose documents are local files: one PDF for every
/// business document, a PNG for the ID.
fn application() -> Value {
    let mut business = business_body();
    for document in business["documents"].as_object_mut().unwrap().values_mut() {
        document["url"] = json!("file:company.pdf");
    }
    business["proofOfAddress"]["url"] = json!("file:company.pdf");
    let mut person = person_body();
    person["idDocumentUrl"] = json!("file:ids/passport.png");
    person["document"]["url"] = json!("file:company.pdf");
    json!({"business": business, "directors": [person.clone()], "ubos": [person]})
}

fn write_application(dir: &Path, application: &Value) -> PathBuf {
    std::fs::write(dir.join("company.pdf"), PDF).unwrap();
    std::fs::create_dir_all(dir.join("ids")).unwrap();
    std::fs::write(dir.join("ids/passport.png"), PNG).unwrap();
    let path = dir.join("lagos.json");
    std::fs::write(&path, application.to_string()).unwrap();
    path
}

fn onboard(base_url: &str, file: &Path, json: bool) -> assert_cmd::Command {
    let mut command = at(base_url);
    command.args(["business", "onboard"]).arg(file);
    if json {
        command.arg("--json");
    }
    command
}

/// [`onboard`] resumed from the progress file `progress`.
fn resume(base_url: &str, file: &Path, progress: &Path, json: bool) -> assert_cmd::Command {
    let mut command = onboard(base_url, file, json);
    command.arg("--resume").arg(progress);
    command
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_application_is_checked_whole_before_anything_is_sent() {
    let log = Log::default();
    let sandbox = sandbox_with(log.config()).await;
    let dir = tempfile::tempdir().unwrap();
    let dir_text = dir.path().display().to_string();

    // What the file itself gets wrong, every violation of every part (the
    // SDK's checks of the API's JSON, as `business create` and `business
    // add-director` apply them): JSON types and rules of the business, a
    // person's missing and misspelt fields, a part that is not one.
    let mut broken = application();
    broken["business"]["email"] = json!("not-an-email");
    broken["business"]["phoneNumber"] = json!(2348012345678_u64);
    let director = broken["directors"][0].as_object_mut().unwrap();
    director.remove("firstName");
    director.insert("jobTilte".into(), json!("Managing Director"));
    broken["ubos"][0]["dateOfBirth"] = json!("1985-02-30");
    broken["notes"] = json!("call first");
    let file = write_application(dir.path(), &broken);
    let out = run(onboard(sandbox.base_url(), &file, false)).await;
    assert_eq!(out.code, 2, "{}", out.stderr);
    insta::assert_snapshot!("invalid_application", out.shown());

    // Once the file reads as an application, the files its document URLs
    // name: one not there (also named where it is referenced), one not a
    // document.
    let mut wrong = application();
    wrong["ubos"][0]["document"]["url"] = json!("file:missing.pdf");
    wrong["directors"][0]["idDocumentUrl"] = json!("file:notes.pdf");
    let file = write_application(dir.path(), &wrong);
    std::fs::write(dir.path().join("notes.pdf"), "plain text").unwrap();
    let out = run(onboard(sandbox.base_url(), &file, false)).await;
    assert_eq!(out.code, 2, "{}", out.stderr);
    insta::assert_snapshot!(
        "invalid_files",
        redact(&out.shown(), &[(&dir_text, "[dir]")])
    );

    // Nothing was sent, and no progress file was left.
    assert_eq!(log.len(), 0);
    assert!(!dir.path().join("lagos.progress.json").exists());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stopped_onboarding_is_resumed_without_doing_anything_twice() {
    let log = Log::default();
    // Bodies over 4096 bytes are refused (413): the UBO below, so the run
    // stops after the business and its director.
    let sandbox = sandbox_with(log.config().with_max_json_body_bytes(4096)).await;
    let dir = tempfile::tempdir().unwrap();
    let mut first = application();
    first["ubos"][0]["jobTitle"] = json!("x".repeat(5000));
    let file = write_application(dir.path(), &first);
    let progress_file = dir.path().join("lagos.progress.json");

    let out = run(onboard(sandbox.base_url(), &file, false)).await;
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(out.stdout, "");
    let progress: Value =
        serde_json::from_str(&std::fs::read_to_string(&progress_file).unwrap()).unwrap();
    let business_id = progress["businessId"].as_str().unwrap().to_owned();
    let links = progress["links"].as_object().unwrap().clone();
    assert_eq!(
        links.keys().collect::<Vec<_>>(),
        ["company.pdf", "ids/passport.png"]
    );
    assert_eq!(
        (
            progress["directorsAdded"].clone(),
            progress["ubosAdded"].clone()
        ),
        (json!(1), json!(0))
    );
    let port = sandbox.local_addr().port().to_string();
    let dir_text = dir.path().display().to_string();
    let link_texts: Vec<(String, String)> = links
        .iter()
        .map(|(name, link)| {
            (
                link.as_str().unwrap().to_owned(),
                format!("[link of {name}]"),
            )
        })
        .collect();
    // The links first: they hold the port.
    let mut pairs: Vec<(&str, &str)> = link_texts
        .iter()
        .map(|(l, p)| (l.as_str(), p.as_str()))
        .collect();
    pairs.extend([
        (dir_text.as_str(), "[dir]"),
        (business_id.as_str(), "[businessId]"),
        (port.as_str(), "[port]"),
    ]);
    insta::assert_snapshot!("stopped", redact(&out.shown(), &pairs));
    let sent = |log: &Log| {
        [
            log.count("POST /v1/api/upload-document "),
            log.count("POST /v1/api/business "),
            log.count(&format!("POST /v1/api/business/{business_id}/director ")),
            log.count(&format!("POST /v1/api/business/{business_id}/ubo ")),
        ]
    };
    // Two files (company.pdf is named six times, uploaded once), one
    // business, one director, one refused UBO.
    assert_eq!(sent(&log), [2, 1, 1, 1]);

    // A rerun without --resume refuses to start over, and sends nothing.
    let before = log.len();
    let out = run(onboard(sandbox.base_url(), &file, false)).await;
    assert_eq!(out.code, 2);
    assert_eq!(
        out.stderr,
        format!(
            "error: {0} records an earlier run of this application: resume it with \
             --resume {0} (or delete the file to start over)\n",
            progress_file.display()
        )
    );
    assert_eq!(log.len(), before);

    // The UBO fixed, the run resumes: only the UBO is sent.
    let mut fixed = application();
    fixed["ubos"][0]["jobTitle"] = json!("Chief Executive");
    std::fs::write(&file, fixed.to_string()).unwrap();
    let out = run(resume(sandbox.base_url(), &file, &progress_file, true)).await;
    let onboarded = out.ok_json();
    assert_eq!(onboarded["business"]["id"], business_id.as_str());
    assert_eq!(onboarded["business"]["directorCount"], 1);
    assert_eq!(onboarded["business"]["uboCount"], 1);
    assert_eq!(onboarded["links"], Value::Object(links.clone()));
    assert_eq!(
        out.stderr,
        format!(
            "what was done is recorded in {}; --resume it to read the business again\n",
            progress_file.display()
        )
    );
    assert_eq!(sent(&log), [2, 1, 1, 2]);

    // Resumed again once done: the business is only read back.
    let out = run(resume(sandbox.base_url(), &file, &progress_file, false)).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    out.stdout_starts("id ");
    assert!(out.stdout.contains(&business_id));
    for (name, link) in &links {
        assert!(
            out.stdout.contains(&format!("file {name}"))
                && out.stdout.contains(link.as_str().unwrap()),
            "{}",
            out.stdout
        );
    }
    assert_eq!(sent(&log), [2, 1, 1, 2]);
}

/// Only a document URL names a file: `file:` text in any other field is
/// sent as written, and nothing is read for it (the file it seems to name
/// does not exist, and the run succeeds).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn file_text_outside_a_document_url_is_sent_as_text() {
    let sandbox = sandbox_with(SandboxConfig::default()).await;
    let dir = tempfile::tempdir().unwrap();
    let mut text = application();
    text["business"]["businessDescription"] = json!("file:secrets.txt");
    text["directors"][0]["jobTitle"] = json!("file:/etc/passwd");
    let file = write_application(dir.path(), &text);
    let out = run(onboard(sandbox.base_url(), &file, true)).await;
    let onboarded = out.ok_json();
    // Sent: the service reviews it.
    assert!(
        onboarded["business"]["fieldStatuses"]
            .get("businessDescription")
            .is_some(),
        "{onboarded}"
    );
    // Only the two document files were read and uploaded.
    assert_eq!(
        onboarded["links"]
            .as_object()
            .unwrap()
            .keys()
            .collect::<Vec<_>>(),
        ["company.pdf", "ids/passport.png"]
    );
}

/// The progress file is the SDK's own progress: a field it does not have
/// (a misspelt business id, which would start a second business) is
/// refused before anything is sent.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_progress_file_with_a_misspelt_field_is_refused() {
    let log = Log::default();
    let sandbox = sandbox_with(log.config()).await;
    let dir = tempfile::tempdir().unwrap();
    let file = write_application(dir.path(), &application());
    let progress_file = dir.path().join("lagos.progress.json");
    std::fs::write(&progress_file, r#"{"businessID": "biz_3M8QK2"}"#).unwrap();
    let out = run(resume(sandbox.base_url(), &file, &progress_file, false)).await;
    assert_eq!(out.code, 2);
    assert_eq!(
        out.stderr,
        format!(
            "error: {} is not a progress file of `business onboard`: unknown field \
             `businessID`, expected one of `links`, `businessId`, `directorsAdded`, `ubosAdded`\n",
            progress_file.display()
        )
    );
    assert_eq!(log.len(), 0);
}

/// A progress file that cannot be written: a run that stops says so and
/// gives the progress as JSON instead of claiming it saved it; a run that
/// succeeds prints the business (exit 0) and warns.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_progress_file_that_cannot_be_written_is_reported() {
    let sandbox = sandbox_with(SandboxConfig::default()).await;
    let dir = tempfile::tempdir().unwrap();
    let dir_text = dir.path().display().to_string();
    let file = write_application(dir.path(), &application());

    // Resumed from a record of a business the service does not have: the
    // run stops at once, and the record cannot be written back (a
    // directory stands where it is written first).
    let progress_file = dir.path().join("earlier.json");
    let earlier = json!({
        "links": {"company.pdf": "https://files.example/company.pdf",
                  "ids/passport.png": "https://files.example/passport.png"},
        "businessId": "biz_NOTHERE01",
    });
    std::fs::write(&progress_file, earlier.to_string()).unwrap();
    std::fs::create_dir(dir.path().join("earlier.json.partial")).unwrap();
    let out = run(resume(sandbox.base_url(), &file, &progress_file, false)).await;
    assert_eq!(out.code, 1, "{}", out.stderr);
    insta::assert_snapshot!(
        "stopped_unsaved",
        redact(&out.shown(), &[(&dir_text, "[dir]")])
    );
    // The record is as it was.
    let kept: Value =
        serde_json::from_str(&std::fs::read_to_string(&progress_file).unwrap()).unwrap();
    assert_eq!(kept, earlier);

    // A successful run: the business on stdout, the progress in a warning.
    std::fs::create_dir(dir.path().join("lagos.progress.json.partial")).unwrap();
    let out = run(onboard(sandbox.base_url(), &file, true)).await;
    let onboarded = out.ok_json();
    let business_id = onboarded["business"]["id"].as_str().unwrap();
    // The SDK's progress, in its field order.
    let progress = format!(
        r#"{{"links":{},"businessId":"{business_id}","directorsAdded":1,"ubosAdded":1}}"#,
        onboarded["links"]
    );
    assert_eq!(
        out.stderr,
        format!(
            "warning: onboarded, but the progress could not be saved (cannot write \
             {}: Is a directory (os error 21)); it is, as JSON: {}\n",
            dir.path().join("lagos.progress.json").display(),
            progress
        )
    );
    assert!(!dir.path().join("lagos.progress.json").exists());
}
