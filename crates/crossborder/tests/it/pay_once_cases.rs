//! `examples/pay-once-cases.json`, the payouts the TypeScript and Python
//! pay-once modules are checked on (`payOnce.test.ts`, `test_pay_once.py`):
//! `payouts().create_or_get`, retried with a changed narration, leaves one
//! payout per session id and the table's single debit, as they must.

use crate::common;

use std::time::Duration;

use common::dec;
use crossborder::{types::PayoutRequest, Client, Currency, RetryPolicy};
use crossborder_sandbox::{Sandbox, SandboxConfig};
use crossborder_testkit::fixtures::ngn_bank;

#[derive(serde::Deserialize)]
struct Table {
    bank: Bank,
    cases: Vec<Case>,
}

#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct Bank {
    account_number: String,
    account_name: String,
    bank_name: String,
    bank_code: String,
}

#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct Case {
    session_id: String,
    amount: String,
    attempts: usize,
    debit: String,
}

#[tokio::test]
async fn create_or_get_leaves_the_tables_single_payout_and_debit() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/pay-once-cases.json"
    ))
    .unwrap();
    let table: Table = serde_json::from_str(&text).unwrap();
    let bank = ngn_bank();
    assert_eq!(
        [
            &table.bank.account_number,
            &table.bank.account_name,
            &table.bank.bank_name,
            &table.bank.bank_code
        ],
        [
            &bank.account_number,
            &bank.account_name,
            &bank.bank_name,
            &bank.bank_code
        ],
        "the table pays the kit's NGN bank"
    );
    let sandbox = Sandbox::start(SandboxConfig::default()).await.unwrap();
    let client = Client::builder()
        .api_key("test_sandbox_key")
        .base_url(sandbox.base_url())
        .timeout(Duration::from_secs(10))
        .retry_policy(RetryPolicy::none())
        .build()
        .unwrap();
    for case in &table.cases {
        let before = client.wallet().balance(Currency::Ngn).await.unwrap().amount;
        let mut ids = Vec::new();
        for attempt in 0..case.attempts {
            let mut request = PayoutRequest::pay(
                dec(&case.amount),
                crossborder::types::FiatCurrency::Ngn,
                ngn_bank(),
            )
            .with_session_id(&case.session_id);
            request.narration = Some(format!("attempt {attempt}"));
            let paid = client.payouts().create_or_get(&request).await.unwrap();
            assert_eq!(paid.amount, dec(&case.amount), "{}", case.session_id);
            ids.push(paid.transaction_id);
        }
        ids.dedup();
        assert_eq!(ids.len(), 1, "{}: one transaction", case.session_id);
        let after = client.wallet().balance(Currency::Ngn).await.unwrap().amount;
        assert_eq!(
            before - after,
            dec(&case.debit),
            "{}: debited once",
            case.session_id
        );
        let state = sandbox.state("test_sandbox_key").unwrap();
        let payouts = state
            .payouts
            .iter()
            .filter(|p| p.session_id == case.session_id)
            .count();
        assert_eq!(payouts, 1, "{}: one payout", case.session_id);
    }
    sandbox.shutdown().await;
}
