//! The `crossborder` binary against a sandbox started in this process on
//! 127.0.0.1: output (table and JSON), exit codes, error lines, the payout
//! validators, and the demo run to its end.

use std::net::{Ipv4Addr, SocketAddr};

use assert_cmd::Command;
use crossborder_sandbox::{Sandbox, SandboxConfig, SandboxHandle};
use serde_json::{json, Value};

const KEY: &str = "test_sandbox_key";

async fn sandbox() -> SandboxHandle {
    Sandbox::start(SandboxConfig::default().with_addr(SocketAddr::from((Ipv4Addr::LOCALHOST, 0))))
        .await
        .unwrap()
}

/// The binary with no configuration from the environment.
fn bare() -> Command {
    let mut command = Command::cargo_bin("crossborder").unwrap();
    command
        .env_remove("CROSSBORDER_API_KEY")
        .env_remove("CROSSBORDER_BASE_URL")
        .timeout(std::time::Duration::from_secs(60));
    command
}

/// The binary pointed at `base_url` with the sandbox key.
fn at(base_url: &str) -> Command {
    let mut command = bare();
    command.args(["--api-key", KEY, "--base-url", base_url]);
    command
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

/// Runs `command` off the async runtime (the sandbox keeps serving).
async fn run(mut command: Command) -> Run {
    let output = tokio::task::spawn_blocking(move || command.output().unwrap())
        .await
        .unwrap();
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8(output.stdout).unwrap(),
        stderr: String::from_utf8(output.stderr).unwrap(),
    }
}

fn with_stdin(mut command: Command, input: &str) -> Command {
    command.write_stdin(input.to_owned());
    command
}

fn ngn_payout(session_id: &str) -> Value {
    json!({"amount": "2500.00", "fromCurrency": "NGN", "toCurrency": "NGN",
           "sessionId": session_id, "accountNumber": "0123456789",
           "accountName": "ADAEZE OKAFOR", "bankName": "Guaranty Trust Bank", "bankCode": "058"})
}

#[test]
fn help_lists_every_command() {
    let output = bare().arg("--help").output().unwrap();
    assert!(output.status.success());
    insta::assert_snapshot!("help", String::from_utf8(output.stdout).unwrap());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn balance_prints_a_table_or_json() {
    let sandbox = sandbox().await;
    let mut table = at(sandbox.base_url());
    table.args(["balance", "NGN"]);
    let out = run(table).await;
    assert_eq!((out.code, out.stderr.as_str()), (0, ""));
    assert_eq!(out.stdout, "currency  NGN\nbalance   5000000\n");

    let mut json = at(sandbox.base_url());
    json.args(["balance", "USD", "--json"]);
    let out = run(json).await;
    assert_eq!(out.code, 0);
    assert_eq!(
        serde_json::from_str::<Value>(&out.stdout).unwrap(),
        json!({"currency": "USD", "balance": "10000"})
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_quote_keeps_exact_decimals_in_json() {
    let sandbox = sandbox().await;
    let mut command = at(sandbox.base_url());
    command.args(["quote", "USD", "NGN", "100.10", "--json"]);
    let out = run(command).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    let mut quote: Value = serde_json::from_str(&out.stdout).unwrap();
    let object = quote.as_object_mut().unwrap();
    assert!(object
        .remove("rateKey")
        .unwrap()
        .as_str()
        .unwrap()
        .starts_with("rk_"));
    assert!(object.remove("expiresAt").is_some());
    assert_eq!(
        quote,
        json!({"fromCurrency": "USD", "toCurrency": "NGN", "amount": "100.10",
               "rate": "1530.25", "fee": "0.5", "toAmount": "153178.03",
               "totalAmount": "100.6"})
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_error_class_has_its_line_and_exit_code() {
    let sandbox = sandbox().await;
    // Missing key: usage, 2, before any request.
    let mut missing = bare();
    missing.args(["--base-url", sandbox.base_url(), "balance", "NGN"]);
    let out = run(missing).await;
    assert_eq!(out.code, 2);
    assert_eq!(
        out.stderr,
        "error: no API key: pass --api-key or set CROSSBORDER_API_KEY (or try `crossborder demo`)\n"
    );

    // A key the API does not know: API error, 1; the key is never shown.
    let mut bad_key = bare();
    bad_key.args([
        "--api-key",
        "test_not_a_known_key_123",
        "--base-url",
        sandbox.base_url(),
    ]);
    bad_key.args(["balance", "NGN"]);
    let out = run(bad_key).await;
    assert_eq!(out.code, 1);
    assert_eq!(out.stderr, "error: Invalid api key (HTTP 401)\n");
    assert!(!out.stdout.contains("test_not_a_known_key_123"));

    // A request the rules refuse: validation, 2, every violation listed.
    let mut invalid = at(sandbox.base_url());
    invalid.args(["quote", "UGX", "NGN", "10.5"]);
    let out = run(invalid).await;
    assert_eq!(out.code, 2);
    assert_eq!(
        out.stderr,
        "error: invalid request (1 violation); nothing was sent\n  \
         amount: has more decimal places than UGX allows (0)\n"
    );

    // An argument clap refuses: usage, 2.
    let mut usage = at(sandbox.base_url());
    usage.args(["balance", "BTC"]);
    let out = run(usage).await;
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("Invalid currency: BTC"),
        "{}",
        out.stderr
    );

    // Nothing listening: network error, 1.
    let closed = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let mut unreachable = bare();
    unreachable.args([
        "--api-key",
        KEY,
        "--base-url",
        &format!("http://127.0.0.1:{closed}/v1"),
    ]);
    unreachable.args(["balance", "NGN"]);
    let out = run(unreachable).await;
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.starts_with("error: transport error: "),
        "{}",
        out.stderr
    );
    assert!(!out.stderr.contains(KEY));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn payout_dry_run_checks_files_stdin_and_batches_and_sends_nothing() {
    let sandbox = sandbox().await;
    let dir = std::env::temp_dir().join(format!("crossborder-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let valid = dir.join("valid.json");
    std::fs::write(&valid, ngn_payout("cli-dry-1").to_string()).unwrap();

    let mut command = at(sandbox.base_url());
    command.args(["payout", "--dry-run", "--body"]).arg(&valid);
    let out = run(command).await;
    assert_eq!((out.code, out.stdout.as_str()), (0, "valid\n"));

    let mut invalid = ngn_payout("cli dry 2");
    invalid["accountNumber"] = json!("01234");
    invalid["amount"] = json!(true);
    let mut command = with_stdin(at(sandbox.base_url()), &invalid.to_string());
    command.args(["payout", "--dry-run", "--body", "-", "--json"]);
    let out = run(command).await;
    assert_eq!(out.code, 2);
    assert_eq!(
        serde_json::from_str::<Value>(&out.stdout).unwrap(),
        json!({"valid": false, "violations": [
            {"field": "amount", "message": "must be a string"},
            {"field": "sessionId", "message": "must be 1 to 100 characters of letters, digits, '-' or '_'"},
            {"field": "accountNumber", "message": "must be a 10-digit NUBAN account number, such as 0123456789"},
        ]})
    );

    let batch = json!([ngn_payout("cli-dry-3"), {"amount": "5"}]);
    let mut command = with_stdin(at(sandbox.base_url()), &batch.to_string());
    command.args(["payout", "--dry-run", "--body", "-"]);
    let out = run(command).await;
    assert_eq!(out.code, 2);
    assert_eq!(
        out.stdout,
        "[0] valid\n[1] invalid\n[1]   fromCurrency: is required\n\
         [1]   toCurrency: is required\n[1]   sessionId: is required\n"
    );

    // Nothing was sent.
    let mut status = at(sandbox.base_url());
    status.args(["payout", "status", "cli-dry-1"]);
    let out = run(status).await;
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("HTTP 404"), "{}", out.stderr);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_payout_body_is_sent_and_tracked() {
    let sandbox = sandbox().await;
    let mut command = with_stdin(
        at(sandbox.base_url()),
        &ngn_payout("cli-send-1").to_string(),
    );
    command.args(["payout", "--body", "-"]);
    let out = run(command).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout.starts_with("sessionId  cli-send-1\n"),
        "{}",
        out.stdout
    );

    let mut status = at(sandbox.base_url());
    status.args(["payout", "status", "cli-send-1", "--json"]);
    let out = run(status).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    let state: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(state["status"], "COMPLETED");
    assert_eq!(state["type"], "PAYOUT");
    assert_eq!(state["amount"], "2500");

    // An invalid element in a batch: nothing of the batch is sent.
    let batch = json!([ngn_payout("cli-send-2"), {"amount": "5"}]);
    let mut command = with_stdin(at(sandbox.base_url()), &batch.to_string());
    command.args(["payout", "--body", "-"]);
    let out = run(command).await;
    assert_eq!(out.code, 2);
    assert!(out
        .stderr
        .starts_with("error: invalid payout; nothing was sent\n"));
    let mut balance = at(sandbox.base_url());
    balance.args(["balance", "NGN"]);
    assert_eq!(
        run(balance).await.stdout,
        "currency  NGN\nbalance   4997500\n"
    );
}

#[test]
fn the_demo_runs_to_its_end() {
    let output = bare().arg("demo").output().unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    for expected in [
        "1. Wallet balances",
        "   5000000 NGN",
        "rate 1530.25, fee 0.5 USD, the recipient gets 153025 NGN",
        "event demo-order-1: completed, paid 50000; verified: the transaction is COMPLETED",
        ": COMPLETED, 100.5 USD debited, 153025 NGN to ADAEZE OKAFOR",
        "   5050000 NGN\n   9899.5 USD\n",
        "   added Adaeze Okafor as UBO: the business is submitted for review\n   decision: APPROVED\n",
        "Done. Try next",
    ] {
        assert!(
            stdout.contains(expected),
            "missing {expected:?} in:\n{stdout}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn upload_checks_the_content_before_sending_and_prints_the_link() {
    let sandbox = sandbox().await;
    let dir = std::env::temp_dir().join(format!("crossborder-cli-up-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let text = dir.join("statement.pdf");
    std::fs::write(&text, "not a pdf").unwrap();
    let png = dir.join("statement-scan.pdf");
    std::fs::write(&png, b"\x89PNG\r\n\x1a\n0000").unwrap();

    let mut refused = at(sandbox.base_url());
    refused.arg("upload").arg(&text);
    let out = run(refused).await;
    assert_eq!(out.code, 2);
    assert_eq!(
        out.stderr,
        "error: invalid request (1 violation); nothing was sent\n  \
         file: Unsupported file type: only JPEG, PNG and PDF are accepted\n"
    );

    let mut accepted = at(sandbox.base_url());
    accepted.arg("upload").arg(&png).arg("--json");
    let out = run(accepted).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    let link = serde_json::from_str::<Value>(&out.stdout).unwrap()["link"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        link.starts_with(&format!("{}/documents/doc_", sandbox.base_url())),
        "{link}"
    );
    assert!(link.ends_with(".png"), "{link}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn transaction_wait_returns_the_settled_state() {
    let sandbox = sandbox().await;
    let mut collect = at(sandbox.base_url());
    collect.args(["collect", "--reference", "cli-order-1", "--amount", "5000"]);
    collect.args(["--from", "NGN", "--to", "NGN", "--json"]);
    let out = run(collect).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    let created: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(created["status"], "PENDING");
    let memo = created["payRefrence"].as_str().unwrap().to_owned();

    let mut fund = at(sandbox.base_url());
    fund.args(["simulate-funding", "--currency", "NGN", "--amount", "5000"]);
    fund.args(["--narration", &memo, "--session-id", "cli-fund-1"]);
    assert_eq!(run(fund).await.code, 0);

    let mut wait = at(sandbox.base_url());
    wait.args(["transaction", "cli-order-1", "--wait", "--timeout", "10"]);
    let out = run(wait).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout
            .lines()
            .any(|line| line.split_whitespace().eq(["status", "COMPLETED"])),
        "{}",
        out.stdout
    );
    // Not a terminal: no spinner on stderr.
    assert_eq!(out.stderr, "");
}

#[test]
fn completions_are_generated_for_each_shell() {
    for (shell, marker) in [
        ("bash", "_crossborder()"),
        ("zsh", "#compdef crossborder"),
        ("fish", "complete -c crossborder"),
    ] {
        let output = bare().args(["completions", shell]).output().unwrap();
        assert!(output.status.success());
        let script = String::from_utf8(output.stdout).unwrap();
        assert!(script.contains(marker), "{shell}: {script}");
        assert!(script.contains("simulate-funding"), "{shell}");
    }
}

fn business_body() -> Value {
    let link =
        |name: &str| json!({"url": format!("https://files.example/{name}.pdf"), "key": name});
    let address = json!({"houseNumber": "12", "street": "Admiralty Way", "city": "Lekki",
                         "state": "Lagos", "zipCode": "106104"});
    json!({
        "name": "Lagos Trading Ltd", "businessType": "LLC", "registrationNumber": "RC1234567",
        "email": "compliance@lagostrading.ng", "phoneNumber": "+2348012345678",
        "natureOfBusiness": {"nature": "Wholesale", "code": "4652"},
        "businessAddress": address,
        "proofOfAddress": {"url": "https://files.example/poa.pdf", "key": "poa", "type": "Utility bill"},
        "documents": {"cac": link("cac"), "Bank-Statement": link("statement"),
                      "application_letter": link("letter"), "bn_form_1": link("bn1")}
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn business_validate_reports_violations_and_document_keys() {
    let mut valid = bare();
    valid
        .args(["business", "validate", "-", "--json"])
        .write_stdin(business_body().to_string());
    let out = run(valid).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        serde_json::from_str::<Value>(&out.stdout).unwrap(),
        json!({"valid": true, "violations": [], "documents": {
            "Bank-Statement": "BANK_STATEMENT", "application_letter": "APPLICATION_LETTER",
            "bn_form_1": "BN_FORM_1", "cac": "CERTIFICATE_OF_INCORPORATION"}})
    );

    let mut broken = business_body();
    broken["email"] = json!(42);
    broken["documents"]["bank_statment"] = broken["documents"]["Bank-Statement"].take();
    broken["documents"]
        .as_object_mut()
        .unwrap()
        .remove("Bank-Statement");
    let mut invalid = bare();
    invalid
        .args(["business", "validate", "-", "--json"])
        .write_stdin(broken.to_string());
    let out = run(invalid).await;
    assert_eq!(out.code, 2);
    let verdict: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(verdict["valid"], false);
    assert_eq!(
        verdict["violations"],
        json!([
            {"field": "email", "message": "must be a string"},
            {"field": "documents.bank_statment",
             "message": "Unrecognized document key: bank_statment (did you mean bank_statement?)"},
            {"field": "documents",
             "message": "missing a six-month bank statement (bank_statement)"},
        ])
    );
    assert_eq!(verdict["documents"]["bank_statment"], Value::Null);

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
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn business_status_of_an_unknown_business_is_an_api_error() {
    let sandbox = sandbox().await;
    let mut status = at(sandbox.base_url());
    status.args(["business", "status", "biz_missing"]);
    let out = run(status).await;
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.starts_with("error: HTTP 404: "),
        "{}",
        out.stderr
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn webhook_listen_prints_each_event_verified() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;

    let sandbox = sandbox().await;
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("crossborder"))
        .env_remove("CROSSBORDER_API_KEY")
        .args(["--api-key", KEY, "--base-url", sandbox.base_url()])
        .args(["webhook", "listen", "--port", "0"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    // Lines are read on a thread so the test can bound its wait.
    let (lines, read) = std::sync::mpsc::channel::<String>();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if lines.send(line).is_err() {
                break;
            }
        }
    });
    let wait_line = |what: &str| {
        read.recv_timeout(std::time::Duration::from_secs(20))
            .unwrap_or_else(|_| panic!("no {what} line"))
    };
    let first = wait_line("listening");
    let url = first
        .split_whitespace()
        .find(|word| word.starts_with("http://"))
        .unwrap()
        .to_owned();
    assert!(
        url.starts_with("http://127.0.0.1:") && url.ends_with("/webhook"),
        "{first}"
    );

    let client = crossborder::Client::builder()
        .api_key(KEY)
        .base_url(sandbox.base_url())
        .build()
        .unwrap();
    client.webhooks().set_url(&url).await.unwrap();
    let collection = client
        .collections()
        .create(&crossborder::CollectionRequest::new(
            "listen-1",
            crossborder::Decimal::new(5000, 0),
            crossborder::Currency::Ngn,
            crossborder::Currency::Ngn,
        ))
        .await
        .unwrap();
    client
        .sandbox()
        .simulate_funding(&crossborder::SimulateFundingRequest::new(
            crossborder::Currency::Ngn,
            crossborder::Decimal::new(2000, 0),
            collection.pay_reference.unwrap(),
            "listen-fund-1",
        ))
        .await
        .unwrap();
    let event = loop {
        let line = wait_line("event");
        if line.starts_with("event ") {
            break line;
        }
    };
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(
        event,
        "event listen-1: partially paid, paid 2000; verified: the transaction is PARTIALLY_PAID"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_business_is_onboarded_from_json_files() {
    let sandbox = sandbox().await;
    let json_of = |out: &Run| serde_json::from_str::<Value>(&out.stdout).unwrap_or(Value::Null);

    let mut create = with_stdin(at(sandbox.base_url()), &business_body().to_string());
    create.args(["business", "create", "-", "--json"]);
    let out = run(create).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    let created = json_of(&out);
    assert_eq!(created["status"], "PENDING");
    let id = created["id"].as_str().unwrap().to_owned();

    let person = json!({"firstName": "Adaeze", "lastName": "Okafor", "dateOfBirth": "1985-04-12",
        "nationality": "NG", "phoneNumber": "+2348031234567", "idNumber": "A12345678",
        "idType": "currentPassport", "idDocumentUrl": "https://files.example/passport.pdf",
        "address": {"houseNumber": "7", "street": "Bourdillon Road", "city": "Ikoyi",
                    "state": "Lagos", "zipCode": "101233"},
        "document": {"url": "https://files.example/utility.pdf", "key": "utility"}});
    let mut bad_person = person.clone();
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
        let mut add = with_stdin(at(sandbox.base_url()), &person.to_string());
        add.args(["business", command, &id, "-", "--json"]);
        let out = run(add).await;
        assert_eq!(out.code, 0, "{}", out.stderr);
        assert_eq!(json_of(&out)["role"], role);
    }

    let mut status = at(sandbox.base_url());
    status.args(["business", "status", &id, "--json"]);
    let out = run(status).await;
    assert_eq!(json_of(&out)["status"], "APPROVED", "{}", out.stdout);

    let mut update = with_stdin(
        at(sandbox.base_url()),
        &json!({"email": "kyc@lagostrading.ng"}).to_string(),
    );
    update.args(["business", "update", &id, "-", "--json"]);
    let out = run(update).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    let updated = json_of(&out);
    assert_eq!(updated["status"], "PENDING");
    assert_eq!(updated["underReview"], json!(["email"]));
}
