//! `payout`: the validator (files, stdin, batches, table and JSON), sending
//! one payout or a batch, and a batch that stops part-way.

use serde_json::{json, Value};

use crate::{at, cli, ngn_payout, run, sandbox, with_stdin};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn payout_dry_run_checks_files_stdin_and_batches_and_sends_nothing() {
    let sandbox = sandbox().await;
    let dir = tempfile::tempdir().unwrap();
    let valid = dir.path().join("valid.json");
    std::fs::write(&valid, ngn_payout("cli-dry-1").to_string()).unwrap();

    let mut command = at(sandbox.base_url());
    command.args(["payout", "--dry-run", "--body"]).arg(&valid);
    let out = run(command).await;
    assert_eq!((out.code, out.stdout.as_str()), (0, "valid\n"));

    // An invalid file: every violation, type errors first.
    let mut invalid = ngn_payout("cli dry 2");
    invalid["accountNumber"] = json!("01234");
    invalid["amount"] = json!(2500);
    let file = dir.path().join("invalid.json");
    std::fs::write(&file, invalid.to_string()).unwrap();
    let mut command = at(sandbox.base_url());
    command.args(["payout", "--dry-run", "--body"]).arg(&file);
    let out = run(command).await;
    assert_eq!(out.code, 2);
    assert_eq!(
        out.stdout,
        "invalid\n  amount: must be a string\n  \
         sessionId: must be 1 to 100 characters of letters, digits, '-' or '_'\n  \
         accountNumber: must be a 10-digit NUBAN account number, such as 0123456789\n"
    );

    // The same from stdin, as JSON.
    invalid["amount"] = json!(true);
    let mut command = with_stdin(at(sandbox.base_url()), &invalid.to_string());
    command.args(["payout", "--dry-run", "--body", "-", "--json"]);
    let out = run(command).await;
    assert_eq!(out.code, 2);
    assert_eq!(
        out.json(),
        json!({"valid": false, "violations": [
            {"field": "amount", "message": "must be a string"},
            {"field": "sessionId", "message": "must be 1 to 100 characters of letters, digits, '-' or '_'"},
            {"field": "accountNumber", "message": "must be a 10-digit NUBAN account number, such as 0123456789"},
        ]})
    );

    // A batch, as a table and as JSON, each element by its index.
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
    let batch_file = dir.path().join("batch.json");
    std::fs::write(&batch_file, batch.to_string()).unwrap();
    let mut command = at(sandbox.base_url());
    command
        .args(["payout", "--dry-run", "--json", "--body"])
        .arg(&batch_file);
    let out = run(command).await;
    assert_eq!(out.code, 2);
    assert_eq!(
        out.json(),
        json!({"valid": false, "items": [
            {"index": 0, "valid": true, "violations": []},
            {"index": 1, "valid": false, "violations": [
                {"field": "fromCurrency", "message": "is required"},
                {"field": "toCurrency", "message": "is required"},
                {"field": "sessionId", "message": "is required"},
            ]},
        ]})
    );

    // Nothing was sent.
    let out = cli(sandbox.base_url(), "payout status cli-dry-1").await;
    assert_eq!(out.code, 1);
    out.stderr_has("HTTP 404");
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
    out.stdout_starts("sessionId  cli-send-1\n");

    let out = cli(sandbox.base_url(), "payout status cli-send-1 --json").await;
    let state = out.ok_json();
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
        .starts_with("error: invalid payout; nothing was sent\n[0] valid\n[1] invalid\n"));
    let mut balance = at(sandbox.base_url());
    balance.args(["balance", "NGN"]);
    assert_eq!(
        run(balance).await.stdout,
        "currency  NGN\nbalance   4,997,500.00 NGN\n"
    );
}

/// A batch whose second element the service refuses (more than the
/// balance), then a third that is therefore not sent.
fn refused_batch(prefix: &str) -> Value {
    let mut too_much = ngn_payout(&format!("{prefix}-b"));
    too_much["amount"] = json!("6000000.00");
    json!([
        ngn_payout(&format!("{prefix}-a")),
        too_much,
        ngn_payout(&format!("{prefix}-c")),
    ])
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_stopped_part_way_prints_what_was_sent_and_what_was_not() {
    let sandbox = sandbox().await;
    let balance = || {
        let mut balance = at(sandbox.base_url());
        balance.args(["balance", "NGN", "--json"]);
        async { run(balance).await.json()["balance"].clone() }
    };

    // The table: the receipt of the first, then which failed and which
    // were not sent.
    let mut command = with_stdin(at(sandbox.base_url()), &refused_batch("part").to_string());
    command.args(["payout", "--body", "-"]);
    let out = run(command).await;
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(
        out.stdout, "[0] sessionId  part-a\n[0] message    Payout initiated successfully\n",
        "{}",
        out.stdout
    );
    assert_eq!(
        out.stderr,
        "error: payout [1] part-b failed: HTTP 400: Insufficient balance: \
         available 4997500.00 NGN, required 6000000.00 NGN\n  \
         sent before it: [0] part-a\n  not sent: [2] part-c\n"
    );
    assert_eq!(balance().await, "4997500");

    // JSON: the outcome of every element.
    let mut command = with_stdin(at(sandbox.base_url()), &refused_batch("json").to_string());
    command.args(["payout", "--body", "-", "--json"]);
    let out = run(command).await;
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(
        out.json(),
        json!([
            {"index": 0, "outcome": "sent", "sessionId": "json-a", "message": "Payout initiated successfully"},
            {"index": 1, "outcome": "failed", "sessionId": "json-b",
             "error": "HTTP 400: Insufficient balance: available 4995000.00 NGN, required 6000000.00 NGN"},
            {"index": 2, "outcome": "not sent", "sessionId": "json-c"},
        ])
    );
    assert!(out.stderr.starts_with("error: payout [1] json-b failed: "));
    assert_eq!(balance().await, "4995000");

    // The third element was indeed not sent.
    for session in ["part-c", "json-c"] {
        let mut status = at(sandbox.base_url());
        status.args(["payout", "status", session]);
        let out = run(status).await;
        assert_eq!(out.code, 1);
        out.stderr_has("HTTP 404");
    }

    // A batch that is sent whole: every receipt, each with its index.
    let batch = json!([ngn_payout("whole-a"), ngn_payout("whole-b")]);
    let mut command = with_stdin(at(sandbox.base_url()), &batch.to_string());
    command.args(["payout", "--body", "-", "--json"]);
    let out = run(command).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        out.json()
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["outcome"].clone())
            .collect::<Vec<_>>(),
        ["sent", "sent"]
    );
}
