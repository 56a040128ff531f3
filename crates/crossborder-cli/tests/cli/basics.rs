//! The read and money commands: balance, quote, collect, transaction (plain
//! and --wait), banks, resolve-bank, simulate-funding, upload; tables and
//! complete JSON.

use serde_json::{json, Value};

use crate::{at, cli, redact, run, sandbox};

/// The NGN collection `reference` of `amount` opened with `collect`, as
/// its JSON.
async fn collect_json(base_url: &str, reference: &str, amount: &str) -> Value {
    let line =
        format!("collect --reference {reference} --amount {amount} --from NGN --to NGN --json");
    cli(base_url, &line).await.ok_json()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn balance_prints_a_table_or_json() {
    let sandbox = sandbox().await;
    let out = cli(sandbox.base_url(), "balance NGN").await;
    assert_eq!((out.code, out.stderr.as_str()), (0, ""));
    assert_eq!(out.stdout, "currency  NGN\nbalance   5,000,000.00 NGN\n");

    let out = cli(sandbox.base_url(), "balance USD --json").await;
    assert_eq!(out.code, 0);
    assert_eq!(out.json(), json!({"currency": "USD", "balance": "10000"}));
}

/// `Value` with each of `fields` replaced by a placeholder, after checking
/// it is present and a string.
fn placeholders(mut value: Value, fields: &[&str]) -> Value {
    for field in fields {
        let slot = &mut value[*field];
        assert!(slot.is_string(), "{field} is {slot}");
        *slot = json!(format!("[{field}]"));
    }
    value
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_quote_is_printed_whole_with_exact_decimals() {
    let sandbox = sandbox().await;
    let out = cli(sandbox.base_url(), "quote USD NGN 100.10 --json").await;
    let quote = out.ok_json();
    assert!(quote["rateKey"].as_str().unwrap().starts_with("rk_"));
    // Every field of the SDK's Quote, amounts as written (100.10 keeps its
    // zero); the times and the key vary.
    insta::assert_json_snapshot!(
        "quote_json",
        placeholders(quote, &["rateKey", "expiresAt", "validUntil"])
    );

    let out = cli(sandbox.base_url(), "quote USD NGN 100.10").await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    let rows: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(
        rows[..8],
        [
            "from          USD",
            "to            NGN",
            "amount        100.10 USD",
            "rate          1530.25",
            "rounded rate  1530.25",
            "fee           0.50 USD",
            "receives      153,178.03 NGN",
            "debited       100.60 USD",
        ]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_collection_is_read_back_as_a_table_and_whole_as_json() {
    let sandbox = sandbox().await;
    let created = collect_json(sandbox.base_url(), "cli-order-7", "5000.50").await;
    let memo = created["payRefrence"].as_str().unwrap().to_owned();
    let id = created["transactionId"].as_str().unwrap().to_owned();
    let until = created["paymentInstruction"][0]["validUntil"]
        .as_str()
        .unwrap()
        .to_owned();

    // Plain `transaction` (no --wait): one read, as a table.
    let out = cli(sandbox.base_url(), "transaction cli-order-7").await;
    assert_eq!((out.code, out.stderr.as_str()), (0, ""));
    insta::assert_snapshot!(
        "transaction_table",
        redact(
            &out.stdout,
            &[
                (&memo, "[payRefrence]"),
                (&id, "[transactionId]"),
                (&until, "[validUntil]")
            ]
        )
    );

    // --json: every field of the SDK's Transaction, absent ones null.
    let mut read = at(sandbox.base_url());
    read.args(["transaction", "cli-order-7", "--json"]);
    let mut whole = run(read).await.json();
    whole["paymentInstruction"][0]["validUntil"] = json!("[validUntil]");
    assert_eq!(
        placeholders(whole, &["payRefrence", "transactionId"]),
        json!({
            "paymentReference": "cli-order-7", "status": "PENDING", "type": "COLLECTION",
            "transactionId": "[transactionId]", "payRefrence": "[payRefrence]",
            "amount": "5000.5", "fromCurrency": "NGN", "toCurrency": "NGN",
            "paidAmount": "0", "rate": "1", "fee": "0", "toAmount": "5000.5",
            "totalAmount": "5000.5", "rateKey": null, "address": null, "network": null,
            "paymentInstruction": [{
                "accountNumber": "9930001234", "accountName": "Crossborder Collections",
                "bankName": "Sandbox Bank", "amountToTransfer": "5000.5",
                "narration": created["paymentInstruction"][0]["narration"],
                "validUntil": "[validUntil]",
            }],
        })
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn transaction_wait_returns_the_settled_state() {
    let sandbox = sandbox().await;
    let created = collect_json(sandbox.base_url(), "cli-order-1", "5000").await;
    assert_eq!(created["status"], "PENDING");
    let memo = created["payRefrence"].as_str().unwrap().to_owned();

    let mut fund = at(sandbox.base_url());
    fund.args(["simulate-funding", "--currency", "NGN", "--amount", "5000"]);
    fund.args(["--narration", &memo, "--session-id", "cli-fund-1"]);
    let out = run(fund).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    out.stdout_starts("message  ");

    let out = cli(
        sandbox.base_url(),
        "transaction cli-order-1 --wait --timeout 30",
    )
    .await;
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn banks_and_resolve_bank() {
    let sandbox = sandbox().await;
    let out = cli(sandbox.base_url(), "banks NGN KES").await;
    assert_eq!((out.code, out.stderr.as_str()), (0, ""));
    assert_eq!(
        out.stdout,
        "01  KCB Bank Kenya\n68  Equity Bank Kenya\n11  Co-operative Bank of Kenya\n\
         07  NCBA Bank Kenya\n03  Absa Bank Kenya\n"
    );

    let mut banks = at(sandbox.base_url());
    banks.args(["banks", "USD", "NGN", "--json"]);
    let list = run(banks).await.json();
    assert_eq!(list.as_array().unwrap().len(), 10);
    assert_eq!(
        list[1],
        json!({"name": "Guaranty Trust Bank", "code": "058"})
    );

    let out = cli(
        sandbox.base_url(),
        "resolve-bank --account-number 0123456789 --bank-code 058 --from NGN --to NGN",
    )
    .await;
    assert_eq!((out.code, out.stderr.as_str()), (0, ""));
    assert_eq!(
        out.stdout,
        "account number  0123456789\naccount name    ADAEZE OKAFOR\nbank code       058\n"
    );

    let out = cli(
        sandbox.base_url(),
        "resolve-bank --account-number 0000000000 --bank-code 058 --from NGN --to NGN --json",
    )
    .await;
    assert_eq!(out.code, 1);
    assert_eq!(
        out.stderr,
        "error: HTTP 404: Could not resolve account 0000000000 at bank 058\n"
    );
    assert_eq!(out.stdout, "");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn upload_checks_the_content_before_sending_and_prints_the_link() {
    let sandbox = sandbox().await;
    let dir = tempfile::tempdir().unwrap();
    let text = dir.path().join("statement.pdf");
    std::fs::write(&text, "not a pdf").unwrap();
    let png = dir.path().join("statement-scan.pdf");
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
    let link = out.ok_json()["link"].as_str().unwrap().to_owned();
    assert!(
        link.starts_with(&format!("{}/documents/doc_", sandbox.base_url())),
        "{link}"
    );
    assert!(link.ends_with(".png"), "{link}");
}
