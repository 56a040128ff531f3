//! `crossborder sandbox fund|expire|approve|reject|settle|fail|redeliver`
//! against a running sandbox, and `crossborder sandbox --open`: each action
//! prints the changed object (table or JSON), a refusal is the sandbox's
//! message with exit code 1, a missing setting names its flag.

use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::time::Duration;

use crossborder::{Client, Decimal};
use crossborder_sandbox::{PayoutSettlement, SandboxConfig};
use crossborder_testkit::fixtures::{business_request, ngn_bank_payout, person_request, PDF};
use crossborder_testkit::{client_for, open_ngn_collection};

use crate::{at, bare, run, sandbox_with, KEY};

/// Runs `crossborder sandbox <args>` against `base_url`.
async fn act(base_url: &str, args: &[&str]) -> crate::Run {
    let mut command = at(base_url);
    command.arg("sandbox").args(args);
    run(command).await
}

async fn submitted_business(client: &Client, registration_number: &str) -> String {
    let link = client
        .businesses()
        .upload_document(PDF.to_vec(), "cac.pdf")
        .await
        .unwrap()
        .link;
    let id = client
        .businesses()
        .create(&business_request(registration_number, &link))
        .await
        .unwrap()
        .id;
    let person = person_request(&link);
    client
        .businesses()
        .add_director(&id, &person)
        .await
        .unwrap();
    client.businesses().add_ubo(&id, &person).await.unwrap();
    id
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_action_prints_what_it_changed() {
    let sandbox =
        sandbox_with(SandboxConfig::default().with_payout_settlement(PayoutSettlement::Manual))
            .await;
    let url = sandbox.base_url().to_owned();
    let client = client_for(&sandbox, KEY).unwrap();
    client
        .webhooks()
        .set_url("http://127.0.0.1:9/hook")
        .await
        .unwrap();
    open_ngn_collection(&client, "cli-order-1", Decimal::new(5_000, 0))
        .await
        .unwrap();
    open_ngn_collection(&client, "cli-order-2", Decimal::new(100, 0))
        .await
        .unwrap();

    let out = act(&url, &["fund", "cli-order-1", "--amount", "1250.50"]).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        out.stdout,
        "reference  cli-order-1\nstatus     PARTIALLY_PAID\namount     5,000.00 NGN\n\
         paid       1,250.50 NGN\nremaining  3,749.50 NGN\n"
    );
    let out = act(&url, &["fund", "cli-order-1", "--json"]).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.json()["status"], "COMPLETED");
    assert_eq!(out.json()["paidAmount"], "5000.00");

    let out = act(&url, &["expire", "cli-order-2"]).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout
            .starts_with("reference  cli-order-2\nstatus     EXPIRED\n"),
        "{}",
        out.stdout
    );

    let first = submitted_business(&client, "RC-77-PENDING").await;
    let second = submitted_business(&client, "RC-78-PENDING").await;
    let out = act(&url, &["approve", &first]).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        out.stdout,
        format!("business  {first}\nname      Lagos Trading Ltd\nstatus    APPROVED\n")
    );
    let out = act(
        &url,
        &["reject", &second, "--reason", "Unreadable CAC certificate"],
    )
    .await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout
            .ends_with("status    REJECTED\nreason    Unreadable CAC certificate\n"),
        "{}",
        out.stdout
    );

    client
        .payouts()
        .create(&ngn_bank_payout(Decimal::new(2_500, 0), "cli-pay-1"))
        .await
        .unwrap();
    client
        .payouts()
        .create(&ngn_bank_payout(Decimal::new(700, 0), "cli-pay-2"))
        .await
        .unwrap();
    let out = act(&url, &["settle", "cli-pay-1"]).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        out.stdout,
        "session  cli-pay-1\nstatus   COMPLETED\namount   2,500.00 NGN\nfee      0.00 NGN\ntotal    2,500.00 NGN\n"
    );
    let out = act(&url, &["fail", "cli-pay-2", "--reason", "Bank offline"]).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("status   FAILED\n"), "{}", out.stdout);
    assert!(
        out.stdout.ends_with("reason   Bank offline\n"),
        "{}",
        out.stdout
    );
    assert_eq!(
        client
            .wallet()
            .balance(crossborder::Currency::Ngn)
            .await
            .unwrap()
            .amount,
        Decimal::new(5_002_500, 0)
    );

    sandbox
        .wait_for_webhook_deliveries(3, Duration::from_secs(10))
        .await;
    let delivery = sandbox.state(KEY).unwrap().webhooks[0].delivery_id.clone();
    let out = act(&url, &["redeliver", &delivery, "--json"]).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.json()["status"], "pending");
    assert_eq!(out.json()["url"], "http://127.0.0.1:9/hook");
    assert_ne!(out.json()["deliveryId"], delivery.as_str());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refusals_and_missing_settings_are_clear() {
    let sandbox = sandbox_with(SandboxConfig::default()).await;
    let url = sandbox.base_url().to_owned();
    let client = client_for(&sandbox, KEY).unwrap();
    client
        .payouts()
        .create(&ngn_bank_payout(Decimal::new(10, 0), "cli-pay-9"))
        .await
        .unwrap();

    let out = act(&url, &["fund", "nope"]).await;
    assert_eq!((out.code, out.stdout.as_str()), (1, ""));
    assert_eq!(out.stderr, "error: 404 Collection not found: nope\n");
    let out = act(&url, &["fail", "cli-pay-9"]).await;
    assert_eq!(out.code, 1);
    assert_eq!(
        out.stderr,
        "error: 409 Payout cli-pay-9 is COMPLETED; only a PENDING payout can be failed\n"
    );
    let out = act(&url, &["reject", "biz_X", "--reason", "  "]).await;
    assert_eq!(out.code, 1);
    assert_eq!(
        out.stderr,
        "error: 400 reason: is required\n  reason: is required\n"
    );

    let mut no_url = bare();
    no_url.args(["--api-key", KEY, "sandbox", "approve", "biz_X"]);
    let out = run(no_url).await;
    assert_eq!(out.code, 2);
    assert_eq!(
        out.stderr,
        "error: no base URL: pass --base-url or set CROSSBORDER_BASE_URL to the running \
         sandbox's (http://127.0.0.1:8080/v1)\n"
    );
    let mut no_key = bare();
    no_key.args(["--base-url", &url, "sandbox", "approve", "biz_X"]);
    let out = run(no_key).await;
    assert_eq!(out.code, 2);
    assert_eq!(
        out.stderr,
        "error: no API key: pass --api-key or set CROSSBORDER_API_KEY (the sandbox's: test_sandbox_key)\n"
    );
    let out = act(&url, &["fund", "x", "--amount", "1,000"]).await;
    assert_eq!(out.code, 2);
    assert!(
        out.stderr
            .contains("\"1,000\" is not a decimal amount such as 1500.50"),
        "{}",
        out.stderr
    );
}

/// `--open` hands the console's URL, printed at start, to `$BROWSER`.
#[cfg(unix)]
#[test]
fn open_hands_the_console_url_to_the_browser() {
    use std::os::unix::fs::PermissionsExt;

    let dir = tempfile::tempdir().unwrap();
    let opened = dir.path().join("opened.txt");
    let browser = dir.path().join("browser.sh");
    std::fs::write(
        &browser,
        format!("#!/bin/sh\nprintf '%s' \"$1\" > '{}'\n", opened.display()),
    )
    .unwrap();
    std::fs::set_permissions(&browser, std::fs::Permissions::from_mode(0o755)).unwrap();

    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("crossborder"))
        .args(["sandbox", "--port", "0", "--open", "--quiet"])
        .env("BROWSER", &browser)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut lines = Vec::new();
    for _ in 0..3 {
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        lines.push(line.trim_end().to_owned());
    }
    let console = lines[1]
        .strip_prefix("Console: ")
        .unwrap_or_default()
        .to_owned();
    assert_eq!(lines[1], format!("Console: {console}"));
    let base = lines[0]
        .strip_prefix("crossborder sandbox listening on ")
        .unwrap();
    assert_eq!(format!("{console}v1"), base);
    assert_eq!(lines[2], "Payout settlement: instant");

    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    let seen = loop {
        if let Ok(text) = std::fs::read_to_string(&opened) {
            if !text.is_empty() {
                break text;
            }
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the browser was not opened"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(seen, console);
    let _ = child.kill();
    let _ = child.wait();
}
