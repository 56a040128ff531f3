//! `simulate-funding --currency` names the wallet credited (ASSUMPTIONS
//! A14): its help says so, a converting collection's toCurrency pays it,
//! and its fromCurrency is refused with the sandbox's message.

use crate::{at, bare, cli, run, run_now, sandbox};

#[test]
fn the_help_says_currency_is_the_wallet_credited() {
    let mut command = bare();
    command.args(["simulate-funding", "--help"]);
    let out = run_now(command);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let words: Vec<&str> = out.stdout.split_whitespace().collect();
    let text = words.join(" ");
    assert!(
        text.contains(
            "--currency <CURRENCY> The wallet to credit: the collection's toCurrency (its \
             fromCurrency is refused for a converting collection)"
        ),
        "{}",
        out.stdout
    );
    assert!(
        text.contains("--amount <AMOUNT> The amount credited, in that currency"),
        "{}",
        out.stdout
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_converting_collection_is_funded_in_its_to_currency() {
    let sandbox = sandbox().await;
    let out = cli(sandbox.base_url(), "quote USD NGN 100 --json").await;
    let rate_key = out.ok_json()["rateKey"].as_str().unwrap().to_owned();

    let mut collect = at(sandbox.base_url());
    collect.args(["collect", "--reference", "cli-fx-1", "--amount", "100"]);
    collect.args([
        "--from",
        "USD",
        "--to",
        "NGN",
        "--rate-key",
        &rate_key,
        "--json",
    ]);
    let out = run(collect).await;
    let memo = out.ok_json()["payRefrence"].as_str().unwrap().to_owned();

    // The payer's currency is refused, naming the wallet.
    let mut refused = at(sandbox.base_url());
    refused.args(["simulate-funding", "--currency", "USD", "--amount", "100"]);
    refused.args(["--narration", &memo, "--session-id", "cli-fx-fund"]);
    let out = run(refused).await;
    assert_ne!(out.code, 0, "{}", out.stdout);
    assert!(
        out.stderr.contains(
            "currency: must be NGN, the wallet collection cli-fx-1 credits (its fromCurrency \
             USD is what the payer sends, not a wallet to credit)"
        ),
        "{}",
        out.stderr
    );

    // The wallet it credits pays it: 153025 NGN is 100 USD.
    let mut funded = at(sandbox.base_url());
    funded.args([
        "simulate-funding",
        "--currency",
        "NGN",
        "--amount",
        "153025",
    ]);
    funded.args(["--narration", &memo, "--session-id", "cli-fx-fund"]);
    let out = run(funded).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    let out = cli(sandbox.base_url(), "transaction cli-fx-1 --json").await;
    let transaction = out.ok_json();
    assert_eq!(transaction["status"], "COMPLETED");
    assert_eq!(transaction["paidAmount"], "100");
}
