//! Concurrent payouts and fundings on one wallet lose no update.

use std::sync::Arc;

use crossborder_sandbox::{Currency, SandboxConfig, STAGING_KEY};
use rust_decimal::Decimal;
use serde_json::json;

use crate::sandbox::common::{ngn_collection, ngn_payout, Api};

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_payouts_and_fundings_keep_the_books() {
    let start = Decimal::new(1000, 0);
    let api = Arc::new(
        Api::start_with(SandboxConfig::default().with_starting_balance(Currency::Ngn, start)).await,
    );
    let mut memos = Vec::new();
    for index in 0..50 {
        memos.push(ngn_collection(&api, &format!("c-{index}"), 1_000_000).await);
    }

    let mut tasks = Vec::new();
    for index in 0..50_u32 {
        let api = Arc::clone(&api);
        // 35.50 to 60.00: together far more than the wallet ever holds.
        let amount = Decimal::new(3550 + i64::from(index) * 50, 2);
        tasks.push(tokio::spawn(async move {
            let reply = api
                .post(
                    "/api/payout",
                    &ngn_payout(&format!("p-{index}"), &amount.to_string()),
                )
                .await;
            (reply, -amount)
        }));
    }
    for (index, memo) in memos.into_iter().enumerate() {
        let api = Arc::clone(&api);
        let amount = Decimal::new(1000 + index as i64, 2);
        tasks.push(tokio::spawn(async move {
            let reply = api
                .post(
                    "/api/simulate-funding",
                    &json!({"currency": "NGN", "amount": amount.to_string().parse::<f64>().unwrap(),
                            "narration": memo, "sessionId": format!("f-{index}")}),
                )
                .await;
            (reply, amount)
        }));
    }

    let mut expected = start;
    let (mut debits, mut credits, mut refused) = (0, 0, 0);
    for task in tasks {
        let (reply, change) = task.await.unwrap();
        match reply.status {
            200 => {
                expected += change;
                if change < Decimal::ZERO {
                    debits += 1;
                } else {
                    credits += 1;
                }
            }
            400 => {
                let message = reply.body["message"].as_str().unwrap();
                assert!(message.starts_with("Insufficient balance: "), "{message}");
                refused += 1;
            }
            other => panic!("unexpected status {other}: {}", reply.text),
        }
    }
    assert_eq!(credits, 50);
    assert_eq!(debits + refused, 50);
    assert!(refused > 0, "the wallet should run dry");
    assert!(expected >= Decimal::ZERO);
    let balance = api.balance(STAGING_KEY, "NGN").await;
    assert_eq!(balance, expected.normalize().to_string());
}
