//! Fault modes (`crossborder_sandbox::faults`, ASSUMPTIONS F1–F9): seeded
//! and reproducible, each kind injected and listed by the control API and
//! the request log, bad settings refused naming the valid choices, and the
//! SDK's `create_or_get` paying every payout once under `standard`.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crossborder_sandbox::control::FaultView;
use crossborder_sandbox::faults::{FaultConfig, FaultKind, PAYOUT_LATE};
use crossborder_sandbox::{Decimal, RequestLine, SandboxConfig, STAGING_KEY};
use crossborder_testkit::fixtures::ngn_bank_payout;
use serde_json::{json, Value};

use crate::sandbox::common::{ngn_collection, ngn_payout, usd_to_ngn_payout, Api, Receiver};

/// A raw request that may get no answer: the status and body, or `None`
/// when the connection closed without one.
async fn send(api: &Api, method: &str, path: &str, body: Option<&Value>) -> Option<(u16, Value)> {
    let url = api.url(path);
    let request = match method {
        "GET" => api.http.get(url),
        "PUT" => api.http.put(url),
        _ => api.http.post(url),
    };
    let request = request.header("x-api-key", STAGING_KEY);
    let request = match body {
        Some(body) => request.json(body),
        None => request,
    };
    let response = request.send().await.ok()?;
    let status = response.status().as_u16();
    let text = response.text().await.ok()?;
    Some((status, serde_json::from_str(&text).unwrap_or(Value::Null)))
}

/// `PUT /_sandbox/faults` with `body`.
async fn put_faults(api: &Api, body: &Value) -> (u16, Value) {
    let reply = api
        .http
        .put(format!(
            "{}/_sandbox/faults",
            api.sandbox.console_url().trim_end_matches('/')
        ))
        .header("x-api-key", STAGING_KEY)
        .json(body)
        .send()
        .await
        .unwrap();
    let status = reply.status().as_u16();
    (status, reply.json().await.unwrap())
}

fn faults(api: &Api) -> Vec<FaultView> {
    api.sandbox.state(STAGING_KEY).unwrap().faults
}

fn only(kind: FaultKind) -> FaultConfig {
    FaultConfig::off().with_rate(kind, Decimal::ONE).unwrap()
}

/// The same requests, one at a time, against `seed`: the fault list.
async fn faults_of_a_run(seed: u64) -> Vec<FaultView> {
    let api =
        Api::start_with(SandboxConfig::default().with_faults(FaultConfig::standard(seed))).await;
    for index in 0..120 {
        send(&api, "GET", "/api/balance/NGN", None).await;
        let body = ngn_payout(&format!("seeded-{index}"), "100.00");
        send(&api, "POST", "/api/payout", Some(&body)).await;
    }
    faults(&api)
}

#[tokio::test]
async fn the_same_seed_twice_gives_the_same_fault_list() {
    let first = faults_of_a_run(11).await;
    let second = faults_of_a_run(11).await;
    assert!(first.len() > 10, "{first:?}");
    assert_eq!(first, second);
    let other = faults_of_a_run(12).await;
    assert_ne!(first, other);
}

#[tokio::test]
async fn a_reset_restarts_the_draws_and_forgets_the_faults_but_keeps_the_settings() {
    let api = Api::start_with(SandboxConfig::default().with_faults(FaultConfig::standard(5))).await;
    let run = || async {
        for _ in 0..60 {
            send(&api, "GET", "/api/balance/NGN", None).await;
        }
        faults(&api)
    };
    let first = run().await;
    assert!(!first.is_empty());
    let state = api.sandbox.reset(STAGING_KEY).unwrap();
    assert!(state.faults.is_empty());
    assert_eq!(state.fault_settings.seed, 5);
    assert_eq!(state.fault_settings.profile, "standard");
    assert_eq!(run().await, first);
}

#[tokio::test]
async fn a_write_applied_then_its_answer_lost_is_applied_and_listed() {
    let lines: Arc<Mutex<Vec<RequestLine>>> = Arc::default();
    let sink = Arc::clone(&lines);
    let config = SandboxConfig::default()
        .with_request_log(move |line| sink.lock().unwrap().push(line.clone()));
    let api = Api::start_with(config).await;
    for (index, (kind, status)) in [
        (FaultKind::WriteApplied502, Some(502)),
        (FaultKind::WriteApplied504, Some(504)),
        (FaultKind::WriteAppliedClose, None),
    ]
    .into_iter()
    .enumerate()
    {
        api.sandbox.set_faults(STAGING_KEY, only(kind)).unwrap();
        let session = format!("lost-{index}");
        let answer = send(
            &api,
            "POST",
            "/api/payout",
            Some(&ngn_payout(&session, "100.00")),
        )
        .await;
        assert_eq!(answer.map(|(status, _)| status), status, "{kind}");
        api.sandbox
            .set_faults(STAGING_KEY, FaultConfig::off())
            .unwrap();
        // Applied: the payout exists and was paid.
        let transaction = api.transaction(&session).await;
        assert_eq!(transaction["status"], "COMPLETED", "{kind}");

        let state = api.sandbox.state(STAGING_KEY).unwrap();
        let fault = &state.faults[0];
        assert_eq!(fault.kind, kind.to_string());
        assert_eq!(
            fault.target,
            format!("POST /v1/api/payout (sessionId {session})")
        );
        assert_eq!(fault.applied, "applied, answered 200; the answer was lost");
        let request = state
            .requests
            .iter()
            .find(|request| request.path == "/v1/api/payout" && request.fault.is_some())
            .unwrap();
        assert_eq!(request.fault.as_deref(), Some(kind.as_str()));
        let logged = lines
            .lock()
            .unwrap()
            .iter()
            .rev()
            .find(|line| line.path == "/v1/api/payout")
            .cloned()
            .unwrap();
        assert_eq!(logged.fault, Some(kind));
        assert!(
            logged.to_string().ends_with(&format!(" fault={kind}")),
            "{logged}"
        );
    }
    // A collection's lost answer names its paymentReference.
    api.sandbox
        .set_faults(STAGING_KEY, only(FaultKind::WriteApplied502))
        .unwrap();
    let body = json!({"amount": 1000, "fromCurrency": "NGN", "toCurrency": "NGN", "paymentReference": "lost-collection"});
    let answer = send(&api, "POST", "/api/initiate-payment", Some(&body)).await;
    assert_eq!(answer.map(|(status, _)| status), Some(502));
    api.sandbox
        .set_faults(STAGING_KEY, FaultConfig::off())
        .unwrap();
    assert_eq!(
        faults(&api)[0].target,
        "POST /v1/api/initiate-payment (paymentReference lost-collection)"
    );
    // Three payouts of 100.00 NGN, each paid once.
    assert_eq!(api.balance(STAGING_KEY, "NGN").await, "4999700");
}

#[tokio::test]
async fn a_write_refused_is_not_applied_and_a_429_says_when_to_retry() {
    let api = Api::start().await;
    for kind in [FaultKind::WriteRefused503, FaultKind::WriteRefused429] {
        api.sandbox.set_faults(STAGING_KEY, only(kind)).unwrap();
        let session = format!("refused-{kind}");
        let response = api
            .http
            .post(api.url("/api/payout"))
            .header("x-api-key", STAGING_KEY)
            .json(&ngn_payout(&session, "100.00"))
            .send()
            .await
            .unwrap();
        let retry_after = response
            .headers()
            .get("retry-after")
            .map(|value| value.to_str().unwrap().to_owned());
        let status = response.status().as_u16();
        let body: Value = response.json().await.unwrap();
        api.sandbox
            .set_faults(STAGING_KEY, FaultConfig::off())
            .unwrap();
        if kind == FaultKind::WriteRefused429 {
            assert_eq!((status, retry_after.as_deref()), (429, Some("1")));
            assert_eq!(body["message"], "Too Many Requests");
        } else {
            assert_eq!((status, retry_after), (503, None));
            assert_eq!(body["message"], "Service Unavailable");
        }
        api.get_refused(
            &format!("/api/transaction/{session}"),
            404,
            &format!("Transaction not found: {session}"),
        )
        .await;
        let fault = &faults(&api)[0];
        assert_eq!(
            (fault.kind.as_str(), fault.applied.as_str()),
            (kind.as_str(), "refused before it was served")
        );
    }
    assert_eq!(api.balance(STAGING_KEY, "NGN").await, "5000000");
}

#[tokio::test]
async fn a_write_closed_before_it_is_read_is_not_applied() {
    let api = Api::start().await;
    api.sandbox
        .set_faults(STAGING_KEY, only(FaultKind::WriteRefusedClose))
        .unwrap();
    let answer = send(
        &api,
        "POST",
        "/api/payout",
        Some(&ngn_payout("cut", "100.00")),
    )
    .await;
    assert_eq!(answer, None);
    api.sandbox
        .set_faults(STAGING_KEY, FaultConfig::off())
        .unwrap();
    api.get_refused("/api/transaction/cut", 404, "Transaction not found: cut")
        .await;
    let fault = &faults(&api)[0];
    assert_eq!(
        (fault.kind.as_str(), fault.applied.as_str()),
        ("write_refused_close", "refused before it was served")
    );
}

#[tokio::test]
async fn a_write_applied_and_held_past_the_clients_timeout_is_applied() {
    let api = Api::start().await;
    api.sandbox
        .set_faults(STAGING_KEY, only(FaultKind::WriteAppliedHeld))
        .unwrap();
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(1))
        .build()
        .unwrap();
    let error = client
        .post(api.url("/api/payout"))
        .header("x-api-key", STAGING_KEY)
        .json(&ngn_payout("held", "100.00"))
        .send()
        .await
        .unwrap_err();
    assert!(error.is_timeout(), "{error}");
    api.sandbox
        .set_faults(STAGING_KEY, FaultConfig::off())
        .unwrap();
    assert_eq!(api.transaction("held").await["status"], "COMPLETED");
    let fault = &faults(&api)[0];
    assert_eq!(fault.kind, "write_applied_held");
    assert_eq!(fault.target, "POST /v1/api/payout (sessionId held)");
    assert_eq!(fault.applied, "applied, answered 200; the answer was lost");
}

#[tokio::test]
async fn reads_fail_the_same_ways() {
    let api = Api::start().await;
    for (kind, status) in [
        (FaultKind::Read502, Some(502)),
        (FaultKind::Read503, Some(503)),
        (FaultKind::Read429, Some(429)),
        (FaultKind::ReadClose, None),
    ] {
        api.sandbox.set_faults(STAGING_KEY, only(kind)).unwrap();
        let answer = send(&api, "GET", "/api/balance/NGN", None).await;
        assert_eq!(answer.map(|(status, _)| status), status, "{kind}");
        // Writes are untouched by read faults.
        let write = send(
            &api,
            "POST",
            "/api/payout",
            Some(&ngn_payout(&format!("r-{kind}"), "1.00")),
        )
        .await;
        assert_eq!(write.map(|(status, _)| status), Some(200), "{kind}");
        let listed = faults(&api);
        assert_eq!(listed[0].kind, kind.to_string());
        assert_eq!(listed[0].target, "GET /v1/api/balance/NGN");
    }
}

#[tokio::test]
async fn webhooks_are_dropped_duplicated_and_delayed() {
    let api = Api::start().await;
    let receiver = Receiver::start().await;
    api.set_webhook(receiver.url()).await;
    let mut expected = 0;
    for kind in [
        FaultKind::WebhookDropped,
        FaultKind::WebhookDuplicated,
        FaultKind::WebhookDelayed,
    ] {
        let reference = format!("hook-{kind}");
        ngn_collection(&api, &reference, 1000).await;
        api.sandbox.set_faults(STAGING_KEY, only(kind)).unwrap();
        api.sandbox
            .fund_collection(STAGING_KEY, &reference, None)
            .unwrap();
        api.sandbox
            .set_faults(STAGING_KEY, FaultConfig::off())
            .unwrap();
        let fault = faults(&api)[0].clone();
        assert_eq!(fault.kind, kind.to_string());
        assert!(fault.target.starts_with("whd_"), "{fault:?}");
        let copies = match kind {
            FaultKind::WebhookDropped => 0,
            FaultKind::WebhookDuplicated => 2,
            _ => 1,
        };
        expected += copies;
        let received = receiver.wait_for(expected, Duration::from_secs(10)).await;
        let of_this: Vec<Value> = received
            .iter()
            .map(|webhook| webhook.json())
            .filter(|body| body["reference"] == reference.as_str())
            .collect();
        assert_eq!(of_this.len(), copies, "{kind}: {of_this:?}");
        let state = api.sandbox.state(STAGING_KEY).unwrap();
        let delivery = state
            .webhooks
            .iter()
            .find(|delivery| delivery.delivery_id == fault.target)
            .unwrap();
        match kind {
            FaultKind::WebhookDropped => {
                assert_eq!(delivery.status, "failed");
                assert_eq!(
                    delivery.error.as_deref(),
                    Some("dropped by the sandbox's fault injection (webhook_dropped)")
                );
                assert_eq!(fault.applied, "the event was not sent");
            }
            FaultKind::WebhookDuplicated => {
                assert_eq!(of_this[0], of_this[1]);
                assert!(
                    fault
                        .applied
                        .starts_with("the event was sent twice, the second time as whd_"),
                    "{fault:?}"
                );
            }
            _ => assert_eq!(fault.applied, "the event was sent 2000 ms late"),
        }
    }
}

#[tokio::test]
async fn a_reordered_webhook_arrives_after_the_collections_next_event() {
    let api = Api::start().await;
    let receiver = Receiver::start().await;
    api.set_webhook(receiver.url()).await;
    ngn_collection(&api, "reordered", 1000).await;
    api.sandbox
        .set_faults(STAGING_KEY, only(FaultKind::WebhookReordered))
        .unwrap();
    api.sandbox
        .fund_collection(STAGING_KEY, "reordered", Some(Decimal::new(400, 0)))
        .unwrap();
    api.sandbox
        .set_faults(STAGING_KEY, FaultConfig::off())
        .unwrap();
    let fault = faults(&api)[0].clone();
    assert_eq!(
        (fault.kind.as_str(), fault.target.as_str()),
        ("webhook_reordered", "paymentReference reordered")
    );
    assert!(receiver.received().is_empty());
    api.sandbox
        .fund_collection(STAGING_KEY, "reordered", None)
        .unwrap();
    let received = receiver.wait_for(2, Duration::from_secs(10)).await;
    let statuses: Vec<Value> = received
        .iter()
        .map(|webhook| webhook.json()["status"].clone())
        .collect();
    // COMPLETED (`true`) first, then the older PARTIALLY_PAID (`false`).
    assert_eq!(statuses, [json!(true), json!(false)]);
}

#[tokio::test]
async fn a_payout_fails_after_acceptance_and_is_refunded() {
    let api = Api::start().await;
    api.sandbox
        .set_faults(STAGING_KEY, only(FaultKind::PayoutFailed))
        .unwrap();
    let answer = send(
        &api,
        "POST",
        "/api/payout",
        Some(&ngn_payout("late-fail", "2500.50")),
    )
    .await;
    assert_eq!(answer.map(|(status, _)| status), Some(200));
    let transaction = api.transaction("late-fail").await;
    assert_eq!(transaction["status"], "FAILED");
    assert_eq!(api.balance(STAGING_KEY, "NGN").await, "5000000");
    let state = api.sandbox.state(STAGING_KEY).unwrap();
    assert_eq!(
        state.payouts[0].reason.as_deref(),
        Some("Failed after acceptance (sandbox fault payout_failed)")
    );
    let fault = &state.faults[0];
    assert_eq!(
        (fault.kind.as_str(), fault.target.as_str()),
        ("payout_failed", "late-fail")
    );
}

#[tokio::test]
async fn a_payout_settles_late_on_the_sandboxs_clock() {
    let api = Api::start().await;
    api.sandbox
        .set_faults(STAGING_KEY, only(FaultKind::PayoutSettledLate))
        .unwrap();
    let answer = send(
        &api,
        "POST",
        "/api/payout",
        Some(&ngn_payout("late", "100.00")),
    )
    .await;
    assert_eq!(answer.map(|(status, _)| status), Some(200));
    api.sandbox
        .set_faults(STAGING_KEY, FaultConfig::off())
        .unwrap();
    assert_eq!(api.transaction("late").await["status"], "PENDING");
    let state = api.sandbox.state(STAGING_KEY).unwrap();
    assert!(state.payouts[0].settles_at.is_some());
    let fault = &state.faults[0];
    assert_eq!(
        (fault.kind.as_str(), fault.target.as_str()),
        ("payout_settled_late", "late")
    );
    assert_eq!(
        fault.applied,
        "accepted, left PENDING, settles 60 s later on the sandbox's clock"
    );
    api.clock.advance(PAYOUT_LATE);
    assert_eq!(api.transaction("late").await["status"], "COMPLETED");
    assert_eq!(api.balance(STAGING_KEY, "NGN").await, "4999900");
}

#[tokio::test]
async fn a_quote_lapses_early_and_its_payout_is_refused() {
    let api = Api::start().await;
    let body = usd_to_ngn_payout(&api, "lapsed", "100.00").await;
    api.sandbox
        .set_faults(STAGING_KEY, only(FaultKind::QuoteLapsedEarly))
        .unwrap();
    api.post_refused("/api/payout", &body, 400, "rateKey is unknown or expired")
        .await;
    api.sandbox
        .set_faults(STAGING_KEY, FaultConfig::off())
        .unwrap();
    // The rateKey stays lapsed: the same payout is refused again.
    api.post_refused("/api/payout", &body, 400, "rateKey is unknown or expired")
        .await;
    let fault = &faults(&api)[0];
    assert_eq!(fault.kind, "quote_lapsed_early");
    assert_eq!(Some(fault.target.as_str()), body["rateKey"].as_str());
    assert_eq!(api.balance(STAGING_KEY, "USD").await, "10000");
    api.get_refused(
        "/api/transaction/lapsed",
        404,
        "Transaction not found: lapsed",
    )
    .await;
}

#[tokio::test]
async fn the_control_api_sets_faults_and_refuses_bad_ones_naming_the_valid_choices() {
    let api = Api::start().await;
    let (status, body) = put_faults(&api, &json!({"profile": "standard", "seed": 9, "rates": {"payout_failed": "0.5", "read_429": 0.25}})).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["profile"], "standard");
    assert_eq!(body["seed"], 9);
    assert_eq!(body["rates"]["payout_failed"], "0.5");
    assert_eq!(body["rates"]["read_429"], "0.25");
    assert_eq!(body["rates"]["write_applied_502"], "0.03");
    let settings = api.sandbox.state(STAGING_KEY).unwrap().fault_settings;
    assert_eq!(settings.seed, 9);

    let kinds = "write_applied_502, write_applied_504, write_applied_close, write_refused_503, write_refused_429, read_502, read_503, read_429, read_close, webhook_dropped, webhook_duplicated, webhook_delayed, payout_failed, payout_settled_late, quote_lapsed_early, webhook_reordered, write_refused_close, write_applied_held";
    for (body, message) in [
        (
            json!({"profile": "chaos"}),
            "profile: unknown fault profile `chaos` (valid: off, standard)".to_owned(),
        ),
        (
            json!({"rates": {"gremlins": "0.1"}}),
            format!("rates: unknown fault kind `gremlins` (valid: {kinds})"),
        ),
        (
            json!({"rates": {"read_502": "1.5"}}),
            "rates: fault rate of read_502 must be a decimal from 0 to 1, such as 0.05; got 1.5"
                .to_owned(),
        ),
        (
            json!({"rates": {"read_502": -0.1}}),
            "rates: fault rate of read_502 must be a decimal from 0 to 1, such as 0.05; got -0.1"
                .to_owned(),
        ),
        (
            json!({"seed": "nine"}),
            "seed: must be a whole number from 0 to 2^64-1".to_owned(),
        ),
        (
            json!({"profiles": "off"}),
            "unknown field `profiles` (valid: profile, seed, rates)".to_owned(),
        ),
    ] {
        let (status, reply) = put_faults(&api, &body).await;
        assert_eq!(
            (status, reply["message"].as_str()),
            (400, Some(message.as_str())),
            "{body}"
        );
    }
    // Nothing refused was applied.
    assert_eq!(
        api.sandbox.state(STAGING_KEY).unwrap().fault_settings.seed,
        9
    );

    // The control API itself never meets faults.
    let every_request = json!({"rates": {"write_refused_503": 1, "read_503": 1}});
    assert_eq!(put_faults(&api, &every_request).await.0, 200);
    let state = api
        .http
        .get(format!("{}_sandbox/state", api.sandbox.console_url()))
        .header("x-api-key", STAGING_KEY)
        .send()
        .await
        .unwrap();
    assert_eq!(state.status(), 200);
    let read = send(&api, "GET", "/api/balance/NGN", None).await;
    assert_eq!(read.map(|(status, _)| status), Some(503));
}

/// Runs the binary with `args` until it exits or prints its `Faults:` line.
fn binary(args: &[&str]) -> (Option<i32>, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_crossborder-sandbox"))
        .args(["--port", "0", "--quiet"])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let mut printed = String::new();
    for line in BufReader::new(stdout).lines() {
        let line = line.unwrap();
        let done = line.starts_with("Faults:");
        printed.push_str(&line);
        printed.push('\n');
        if done {
            child.kill().unwrap();
            break;
        }
    }
    let output = child.wait_with_output().unwrap();
    let code = if printed.contains("Faults:") {
        None
    } else {
        output.status.code()
    };
    (
        code,
        printed,
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn the_binary_prints_the_seed_and_refuses_bad_fault_flags_at_start() {
    let (code, stdout, _) = binary(&["--faults", "standard", "--fault-seed", "42"]);
    assert_eq!(code, None);
    assert!(
        stdout.contains("\nFaults: standard (--fault-seed 42)\n"),
        "{stdout}"
    );

    let (code, stdout, _) = binary(&[]);
    assert_eq!(code, None);
    assert!(stdout.contains("\nFaults: off\n"), "{stdout}");

    let (code, _, stderr) = binary(&["--faults", "chaos"]);
    assert_eq!(code, Some(2));
    assert!(
        stderr.contains("unknown fault profile `chaos` (valid: off, standard)"),
        "{stderr}"
    );

    let (code, _, stderr) = binary(&["--fault-rate", "read_502=2"]);
    assert_eq!(code, Some(2));
    assert!(
        stderr
            .contains("fault rate of read_502 must be a decimal from 0 to 1, such as 0.05; got 2"),
        "{stderr}"
    );

    let (code, _, stderr) = binary(&[
        "--fault-rate",
        "read_502=0.6",
        "--fault-rate",
        "read_503=0.6",
    ]);
    assert_eq!(code, Some(1));
    assert!(stderr.contains("error: the rates of read_502, read_503, read_429, read_close add up to 1.2, more than 1"), "{stderr}");
}

/// The payouts of the end-to-end run.
const PAYOUTS: usize = 200;

#[tokio::test]
async fn every_payout_is_paid_once_through_create_or_get_under_standard_faults() {
    let api =
        Api::start_with(SandboxConfig::default().with_faults(FaultConfig::standard(2026))).await;
    let client = api.client(STAGING_KEY);
    let amount = Decimal::new(100_025, 2);
    for index in 0..PAYOUTS {
        let request = ngn_bank_payout(amount, &format!("e2e-{index:03}"));
        let mut attempts = 0;
        // Each error is a fault; calling again is safe (it reads first).
        while client.payouts().create_or_get(&request).await.is_err() {
            attempts += 1;
            assert!(attempts < 30, "payout {index} never settled");
        }
    }
    api.sandbox
        .set_faults(STAGING_KEY, FaultConfig::off())
        .unwrap();
    // The payouts settling late settle.
    api.clock.advance(PAYOUT_LATE);
    let state = api.sandbox.state(STAGING_KEY).unwrap();
    assert_eq!(state.payouts.len(), PAYOUTS);
    let completed = state
        .payouts
        .iter()
        .filter(|payout| payout.status == "COMPLETED")
        .count();
    let failed = state
        .payouts
        .iter()
        .filter(|payout| payout.status == "FAILED")
        .count();
    assert_eq!(completed + failed, PAYOUTS);
    let failed_by_fault = state
        .faults
        .iter()
        .filter(|fault| fault.kind == "payout_failed")
        .count();
    assert_eq!(failed, failed_by_fault);
    // Every request and payout kind was met.
    let more = [
        FaultKind::PayoutFailed,
        FaultKind::PayoutSettledLate,
        FaultKind::WriteRefusedClose,
    ];
    for kind in FaultKind::ALL[..9].iter().chain(&more) {
        assert!(
            state.faults.iter().any(|fault| fault.kind == kind.as_str()),
            "{kind} never injected"
        );
    }
    assert!(failed > 0);
    // Exact to the minor unit: each completed payout debited once, each
    // failed one refunded.
    let expected = Decimal::new(5_000_000, 0) - amount * Decimal::from(completed);
    let balance = state
        .balances
        .iter()
        .find(|balance| balance.currency == "NGN")
        .unwrap();
    assert_eq!(balance.amount, expected);
}

/// Collections funded under `standard`, whose events meet every webhook kind.
const COLLECTIONS: usize = 100;

#[tokio::test]
async fn a_hundred_collections_meet_every_webhook_kind_under_standard_faults() {
    let api = Api::start().await;
    let receiver = Receiver::start().await;
    api.set_webhook(receiver.url()).await;
    for index in 0..COLLECTIONS {
        ngn_collection(&api, &format!("wh-{index:03}"), 1000).await;
    }
    api.sandbox
        .set_faults(STAGING_KEY, FaultConfig::standard(2026))
        .unwrap();
    for index in 0..COLLECTIONS {
        api.sandbox
            .fund_collection(STAGING_KEY, &format!("wh-{index:03}"), None)
            .unwrap();
    }
    let state = api.sandbox.state(STAGING_KEY).unwrap();
    let count = |kind: FaultKind| {
        state
            .faults
            .iter()
            .filter(|fault| fault.kind == kind.as_str())
            .count()
    };
    let (dropped, duplicated) = (
        count(FaultKind::WebhookDropped),
        count(FaultKind::WebhookDuplicated),
    );
    assert!(dropped > 0 && duplicated > 0 && count(FaultKind::WebhookDelayed) > 0);
    assert!(count(FaultKind::WebhookReordered) > 0);
    // One event per collection, none for a dropped one, two for a
    // duplicated one.
    let expected = COLLECTIONS - dropped + duplicated;
    let received = receiver.wait_for(expected, Duration::from_secs(10)).await;
    assert_eq!(received.len(), expected);
}
