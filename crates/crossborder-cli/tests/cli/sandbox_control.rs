//! `crossborder sandbox fund|expire|approve|reject|settle|fail|redeliver`
//! against a running sandbox, and `crossborder sandbox --open`: each action
//! prints the changed object (table or JSON), a refusal is the sandbox's
//! message with exit code 1, a missing setting names its flag.

use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::time::Duration;

use crossborder::{Client, Decimal};
use crossborder_sandbox::{PayoutSettlement, SandboxConfig};
use crossborder_testkit::fixtures::ngn_bank_payout;
use crossborder_testkit::{client_for, onboarded_business, open_ngn_collection};

use crate::{assert_live_key_refused_over_http, at, bare, run, sandbox_with, KEY};

/// Runs `crossborder sandbox <args>` against `base_url`, and returns its
/// stdout once it succeeded.
async fn act(base_url: &str, args: &[&str]) -> String {
    let mut command = at(base_url);
    command.arg("sandbox").args(args);
    let out = run(command).await;
    assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
    out.stdout
}

/// [`act`] with `--json`, its output parsed.
async fn act_json(base_url: &str, args: &[&str]) -> serde_json::Value {
    let mut args = args.to_vec();
    args.push("--json");
    serde_json::from_str(&act(base_url, &args).await).unwrap()
}

async fn submitted_business(client: &Client, registration_number: &str) -> String {
    onboarded_business(client, registration_number, true)
        .await
        .unwrap()
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
    assert_eq!(
        out,
        "reference  cli-order-1\nstatus     PARTIALLY_PAID\namount     5,000.00 NGN\n\
         paid       1,250.50 NGN\nremaining  3,749.50 NGN\n"
    );
    let json = act_json(&url, &["fund", "cli-order-1"]).await;
    assert_eq!(json["status"], "COMPLETED");
    assert_eq!(json["paidAmount"], "5000.00");

    let out = act(&url, &["expire", "cli-order-2"]).await;
    assert!(
        out.starts_with("reference  cli-order-2\nstatus     EXPIRED\n"),
        "{}",
        out
    );

    let first = submitted_business(&client, "RC-77-PENDING").await;
    let second = submitted_business(&client, "RC-78-PENDING").await;
    let out = act(&url, &["approve", &first]).await;
    assert_eq!(
        out,
        format!("business  {first}\nname      Lagos Trading Ltd\nstatus    APPROVED\n")
    );
    let out = act(
        &url,
        &["reject", &second, "--reason", "Unreadable CAC certificate"],
    )
    .await;
    assert!(
        out.ends_with("status    REJECTED\nreason    Unreadable CAC certificate\n"),
        "{}",
        out
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
    assert_eq!(
        out,
        "session  cli-pay-1\nstatus   COMPLETED\namount   2,500.00 NGN\nfee      0.00 NGN\ntotal    2,500.00 NGN\n"
    );
    let out = act(&url, &["fail", "cli-pay-2", "--reason", "Bank offline"]).await;
    assert!(out.contains("status   FAILED\n"), "{}", out);
    assert!(out.ends_with("reason   Bank offline\n"), "{}", out);
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
    let refused = sandbox.state(KEY).unwrap().webhooks[0].clone();
    assert_eq!(
        (refused.status.as_str(), refused.response_status),
        ("failed", None)
    );
    let delivery = refused.delivery_id;
    let json = act_json(&url, &["redeliver", &delivery]).await;
    assert_eq!(json["status"], "pending");
    assert_eq!(json["url"], "http://127.0.0.1:9/hook");
    assert_ne!(json["deliveryId"], delivery.as_str());
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

    // (flags before `sandbox`, then its arguments; exit code; stderr)
    let key_flags = ["--api-key", KEY, "--base-url", &url];
    let cases: [(&[&str], &[&str], i32, &str); 6] = [
        (
            &key_flags,
            &["fund", "nope"],
            1,
            "error: 404 Collection not found: nope\n",
        ),
        (
            &key_flags,
            &["fail", "cli-pay-9"],
            1,
            "error: 409 Payout cli-pay-9 is COMPLETED; only a PENDING payout can be failed\n",
        ),
        (
            &key_flags,
            &["reject", "biz_X", "--reason", "  "],
            1,
            "error: 400 reason: is required\n  reason: is required\n",
        ),
        (
            &key_flags[..2],
            &["approve", "biz_X"],
            2,
            "error: no base URL: pass --base-url or set CROSSBORDER_BASE_URL to the running \
             sandbox's (http://127.0.0.1:8080/v1)\n",
        ),
        (
            &key_flags[2..],
            &["approve", "biz_X"],
            2,
            "error: no API key: pass --api-key or set CROSSBORDER_API_KEY (the sandbox's: \
             test_sandbox_key)\n",
        ),
        (
            &key_flags,
            &["fund", "x", "--amount", "1,000"],
            2,
            "error: invalid value '1,000' for '--amount <AMOUNT>': \"1,000\" is not a decimal \
             amount such as 1500.50\n\nFor more information, try '--help'.\n",
        ),
    ];
    for (flags, args, code, stderr) in cases {
        let mut command = bare();
        command.args(flags).arg("sandbox").args(args);
        let out = run(command).await;
        assert_eq!((out.code, out.stdout.as_str()), (code, ""), "{args:?}");
        assert_eq!(out.stderr, stderr, "{args:?}");
    }
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

/// ASSUMPTIONS D41: the control commands send the key too, so a production
/// key with a plain http base URL whose host is not loopback is refused
/// before anything is sent, in one line.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_production_key_is_not_sent_over_plain_http() {
    let live = "live_cli_secret_m3Tq81Zx6Bw4";
    let mut command = bare();
    command.args([
        "--api-key",
        live,
        "--base-url",
        "http://sandbox.example.org/v1",
    ]);
    command.args(["sandbox", "expire", "PAY-1"]);
    let out = run(command).await;
    assert_live_key_refused_over_http(&out, live, "http://sandbox.example.org/v1");
}
