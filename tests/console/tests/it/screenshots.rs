//! The console with a business's usual mix of objects, photographed at
//! 1280x800 and at a phone's width (under `target/console/`; the sandbox README's
//! `docs/console.png` is the collections one), after checking that it
//! needs no sideways scrolling and that every control is labelled.

use crossborder::types::CollectionRequest;
use crossborder::{Currency, Decimal};
use crossborder_console_tests::{Console, Hooks};
use crossborder_sandbox::PayoutSettlement;
use crossborder_testkit::{fixtures, onboarded_business, open_ngn_collection, TestSandbox};
use serde_json::json;

/// Every control is a real `<button>`, `<input>` or `<select>` with a name
/// a screen reader reads (its text, `aria-label` or `<label>`); the
/// script returns those that are not.
const UNLABELLED: &str = r#"
const unnamed = [];
for (const node of document.querySelectorAll('button, input, select, [onclick], [role=button]')) {
  const named = node.tagName === 'BUTTON'
    ? (node.getAttribute('aria-label') || node.textContent.trim()) !== ''
    : node.tagName === 'INPUT' || node.tagName === 'SELECT'
      ? node.labels.length > 0
      : false;
  if (!named) unnamed.push(node.outerHTML.slice(0, 120));
}
return unnamed;
"#;

#[tokio::test]
#[ignore = "needs Chromium"]
async fn the_console_reads_well_on_a_desktop_and_a_phone() {
    let sandbox = TestSandbox::start().await;
    let handle = &sandbox.sandbox;
    let key = TestSandbox::KEY;
    let client = sandbox.client(key);
    // Kept to the end: the receiver answers the sandbox's deliveries.
    let _hooks = Hooks::registered(&client).await;

    for (reference, amount) in [
        ("order-1001", 50_000),
        ("order-1002", 120_000),
        ("order-1003", 7_500),
    ] {
        open_ngn_collection(&client, reference, Decimal::new(amount, 0))
            .await
            .unwrap();
    }
    let usdt = CollectionRequest::new(
        "order-1004",
        Decimal::new(250, 0),
        Currency::Usdt,
        Currency::Usdt,
    );
    client.collections().create(&usdt).await.unwrap();
    handle.fund_collection(key, "order-1001", None).unwrap();
    handle
        .fund_collection(key, "order-1002", Some(Decimal::new(4_500_050, 2)))
        .unwrap();
    handle.expire_collection(key, "order-1003").unwrap();

    let payout = fixtures::ngn_bank_payout(Decimal::new(2_500, 0), "payout-2290");
    client.payouts().create(&payout).await.unwrap();
    handle
        .set_payout_settlement(key, PayoutSettlement::Manual)
        .unwrap();
    let payout = fixtures::ngn_bank_payout(Decimal::new(180_000, 0), "payout-2291");
    client.payouts().create(&payout).await.unwrap();

    onboarded_business(&client, "RC7000123PENDING", true)
        .await
        .unwrap();
    handle
        .wait_for_webhook_deliveries(2, crossborder_console_tests::webdriver::WAIT)
        .await;

    let Some(console) = Console::open(&sandbox).await else {
        return;
    };
    console.screenshots("console-key").await;
    // The pictures are taken without a focus ring: back to the key field.
    let refocus = "document.getElementById('api-key').focus();";
    console.browser.script(refocus, json!([])).await;
    console.enter_key(key).await;
    console
        .wait_for_row("collections", "order-1002", "PARTIALLY_PAID")
        .await;
    console
        .wait_for_row("collections", "order-1004", "250.000000 USDT")
        .await;
    let unlabelled = console.browser.script(UNLABELLED, json!([])).await;
    assert_eq!(unlabelled, json!([]), "controls without a name");
    let [desktop, phone] = console.screenshots("console").await;
    for shot in [&desktop, &phone] {
        let size = std::fs::metadata(shot).unwrap().len();
        assert!(size > 10_000, "{shot:?} is {size} bytes");
    }

    console.press("fund-part", "order-1002").await;
    console.screenshots("console-dialog").await;
    console.browser.click("#dialog-cancel").await;
    console.wait_dialog_closed().await;

    for tab in ["payouts", "businesses", "webhooks", "balances", "requests"] {
        console.show(tab).await;
        console.screenshots(&format!("console-{tab}")).await;
    }
    console.close().await;
}
