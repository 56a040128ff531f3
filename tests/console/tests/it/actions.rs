//! The console's buttons, pressed in a real browser while the SDK does what
//! an integration does: each action reaches the SDK as the service's own
//! decision would (a webhook, a status, a refund, a decision).

use std::time::Duration;

use crossborder::types::{BusinessStatus, TransactionStatus};
use crossborder::webhook::{Classification, Delivery, Verdict};
use crossborder::{Currency, Decimal, WaitOptions};
use crossborder_console_tests::webdriver::WAIT;
use crossborder_console_tests::{Console, Hooks};
use crossborder_testkit::{
    fixtures, onboarded_business, open_ngn_collection, read_reply, TestSandbox,
};
use serde_json::json;

/// The transaction and change a delivery confirmed.
fn confirmed(delivery: Delivery) -> (TransactionStatus, Option<Decimal>, Classification) {
    match delivery.verdict {
        Verdict::Confirmed(confirmed) => (
            confirmed.transaction.status,
            confirmed.transaction.paid_amount,
            confirmed.change,
        ),
        other => panic!("the receiver did not confirm the event: {other:?}"),
    }
}

/// A collection the SDK creates appears on the page; "Fund part…" and then
/// "Fund" pay it as a payer would: the SDK's webhook receiver gets and
/// confirms each event, and the SDK reads the collection `COMPLETED`.
#[tokio::test]
#[ignore = "needs Chromium"]
async fn a_collection_funded_from_the_page_reaches_the_sdks_receiver() {
    let sandbox = TestSandbox::start().await;
    let client = sandbox.client(TestSandbox::KEY);
    let mut hooks = Hooks::registered(&client).await;
    let Some(console) = Console::open_with_key(&sandbox, TestSandbox::KEY).await else {
        return;
    };

    open_ngn_collection(&client, "order-1001", Decimal::new(50_000, 0))
        .await
        .unwrap();
    let row = console
        .wait_for_row("collections", "order-1001", "PENDING")
        .await;
    assert!(row.contains("50,000.00 NGN"), "{row}");

    console
        .press_and_answer("fund-part", "order-1001", "20000.00")
        .await;
    let (status, paid, change) = confirmed(hooks.next(WAIT).await);
    assert_eq!(status, TransactionStatus::PartiallyPaid);
    assert_eq!(paid, Some(Decimal::new(20_000, 0)));
    assert_eq!(change, Classification::PartiallyPaid);
    let row = console
        .wait_for_row("collections", "order-1001", "PARTIALLY_PAID")
        .await;
    assert!(row.contains("+20,000.00 NGN"), "{row}");
    assert!(row.contains("30,000.00 NGN"), "the remaining amount: {row}");

    console.press("fund", "order-1001").await;
    let (status, paid, _) = confirmed(hooks.next(WAIT).await);
    assert_eq!(status, TransactionStatus::Completed);
    assert_eq!(paid, Some(Decimal::new(50_000, 0)));
    let read = client.collections().get("order-1001").await.unwrap();
    assert_eq!(read.status, TransactionStatus::Completed);
    assert_eq!(read.paid_amount, Some(Decimal::new(50_000, 0)));
    let row = console
        .wait_for_row("collections", "order-1001", "COMPLETED")
        .await;
    assert!(
        !row.contains("Fund"),
        "a completed collection offers no funding: {row}"
    );
    console.close().await;
}

/// Under manual settlement, set on the page, a payout the SDK creates
/// stays `PENDING`; "Fail…" with a reason makes the SDK read it `FAILED`
/// and the wallet refunded to the cent.
#[tokio::test]
#[ignore = "needs Chromium"]
async fn a_payout_failed_from_the_page_is_failed_and_refunded() {
    let sandbox = TestSandbox::start().await;
    let client = sandbox.client(TestSandbox::KEY);
    let Some(console) = Console::open_with_key(&sandbox, TestSandbox::KEY).await else {
        return;
    };
    console.show("payouts").await;
    let browser = &console.browser;
    browser
        .wait_for_text("#settlement-now", "Now: instant")
        .await;
    browser.click("#settlement option[value=\"manual\"]").await;
    browser
        .click("#settlement-form button[type=\"submit\"]")
        .await;
    browser
        .wait_for_text("#settlement-now", "Now: manual")
        .await;

    let payout = fixtures::ngn_bank_payout(Decimal::new(2_500, 0), "payout-2291");
    client.payouts().create(&payout).await.unwrap();
    let pending = client.payouts().get("payout-2291").await.unwrap();
    assert_eq!(pending.status, TransactionStatus::Pending);
    let balance = client.wallet().balance(Currency::Ngn).await.unwrap();
    assert_eq!(balance.amount, Decimal::new(4_997_500, 0));
    let row = console
        .wait_for_row("payouts", "payout-2291", "PENDING")
        .await;
    assert!(row.contains("2,500.00 NGN"), "{row}");

    console
        .press_and_answer("fail", "payout-2291", "Beneficiary bank is offline")
        .await;
    let failed = client.payouts().get("payout-2291").await.unwrap();
    assert_eq!(failed.status, TransactionStatus::Failed);
    let balance = client.wallet().balance(Currency::Ngn).await.unwrap();
    assert_eq!(balance.amount, Decimal::new(5_000_000, 0));
    let row = console
        .wait_for_row("payouts", "payout-2291", "FAILED")
        .await;
    assert!(row.contains("Beneficiary bank is offline"), "{row}");
    console.show("balances").await;
    console
        .wait_for_row("balances", "NGN", "5,000,000.00 NGN")
        .await;
    console.close().await;
}

/// A submitted business rejected from the page, by keyboard alone (arrow
/// keys to its section, Tab to its button, Enter, the reason, Enter):
/// `wait_for_decision`, polling meanwhile, returns it `REJECTED` with that
/// reason.
#[tokio::test]
#[ignore = "needs Chromium"]
async fn a_business_rejected_from_the_page_by_keyboard_is_what_wait_for_decision_returns() {
    let sandbox = TestSandbox::start().await;
    let client = sandbox.client(TestSandbox::KEY);
    // The suffix PENDING keeps the sandbox's own reviewer from deciding.
    let business_id = onboarded_business(&client, "RC7000123PENDING", true)
        .await
        .unwrap();
    let waiting = {
        let client = client.clone();
        let id = business_id.clone();
        tokio::spawn(async move {
            let options = WaitOptions::default()
                .timeout(Duration::from_secs(120))
                .initial_interval(Duration::from_millis(100))
                .max_interval(Duration::from_millis(250));
            client.businesses().wait_for_decision(&id, options).await
        })
    };

    let Some(console) = Console::open_with_key(&sandbox, TestSandbox::KEY).await else {
        return;
    };
    let browser = &console.browser;
    let focused = "const e = document.activeElement; \
                   return e.getAttribute('aria-label') || e.id || e.textContent.trim();";
    assert_eq!(browser.script(focused, json!([])).await, "tab-collections");
    browser.keys("\u{E014}\u{E014}").await; // Arrow right, twice.
    assert_eq!(browser.script(focused, json!([])).await, "tab-businesses");
    console
        .wait_for_row("businesses", &business_id, "SUBMITTED")
        .await;
    browser.keys("\u{E004}\u{E004}").await; // Tab: Approve, then Reject….
    assert_eq!(
        browser.script(focused, json!([])).await,
        "Reject business Lagos Trading Ltd"
    );
    browser.keys("\u{E007}").await;
    browser
        .wait_for_script(
            "return document.getElementById('dialog').open && document.activeElement.id === 'dialog-input';",
            "Enter opens the dialog with the reason field focused",
        )
        .await;
    browser
        .keys("Director's ID document has expired\u{E007}")
        .await;
    console.wait_dialog_closed().await;

    let decided = tokio::time::timeout(WAIT, waiting)
        .await
        .expect("wait_for_decision returns once the page rejects")
        .unwrap()
        .unwrap();
    assert_eq!(decided.status, BusinessStatus::Rejected);
    assert_eq!(
        decided.rejection_reason.as_deref(),
        Some("Director's ID document has expired")
    );
    let row = console
        .wait_for_row("businesses", &business_id, "REJECTED")
        .await;
    assert!(row.contains("Director's ID document has expired"), "{row}");
    assert_eq!(
        browser.script(focused, json!([])).await,
        "Businesses",
        "the focus goes back to the section once its button is gone"
    );
    console.close().await;
}

/// What the control API refuses is shown with its own status and message:
/// in the dialog (an amount with too many decimals) and above the
/// sections (a settlement that is not one), and nothing changes.
#[tokio::test]
#[ignore = "needs Chromium"]
async fn refusals_are_shown_with_the_control_apis_message() {
    let sandbox = TestSandbox::start().await;
    let client = sandbox.client(TestSandbox::KEY);
    open_ngn_collection(&client, "order-77", Decimal::new(1_000, 0))
        .await
        .unwrap();
    let Some(console) = Console::open_with_key(&sandbox, TestSandbox::KEY).await else {
        return;
    };
    let browser = &console.browser;
    console
        .wait_for_row("collections", "order-77", "PENDING")
        .await;

    let expected = refused(
        &sandbox,
        reqwest::Method::POST,
        "/collections/order-77/fund",
        json!({"amount": "10.505"}),
    )
    .await;
    console.press("fund-part", "order-77").await;
    console.answer_dialog("10.505").await;
    let shown = browser.wait_for_text("#dialog-error", &expected).await;
    assert_eq!(shown, expected);
    browser.click("#dialog-cancel").await;
    console.wait_dialog_closed().await;
    let focused = "return document.activeElement.getAttribute('aria-label');";
    assert_eq!(
        browser.script(focused, json!([])).await,
        "Fund part of collection order-77",
        "the dialog gives the focus back to the button that opened it"
    );

    let expected = refused(
        &sandbox,
        reqwest::Method::PUT,
        "/settings",
        json!({"payoutSettlement": "soon"}),
    )
    .await;
    console.show("payouts").await;
    browser.click("#settlement option[value=\"delay\"]").await;
    browser.fill("#settlement-delay", "soon").await;
    browser
        .click("#settlement-form button[type=\"submit\"]")
        .await;
    let shown = browser.wait_for_text("#notice-text", &expected).await;
    assert_eq!(
        shown,
        format!("Saving the payout settlement failed: {expected}")
    );

    let state = sandbox.sandbox.state(TestSandbox::KEY).unwrap();
    assert_eq!(state.collections[0].status, "PENDING");
    assert_eq!(state.collections[0].paid_amount, Decimal::ZERO);
    assert_eq!(
        serde_json::to_value(state.settings).unwrap(),
        json!({"payoutSettlement": "instant"})
    );
    console.close().await;
}

/// Sends `body` to the control API's `path` (below `/_sandbox`) with the
/// staging key, expects a refusal, and returns it as the page shows one:
/// `<status>: <message>`.
async fn refused(
    sandbox: &TestSandbox,
    method: reqwest::Method,
    path: &str,
    body: serde_json::Value,
) -> String {
    let url = format!("{}_sandbox{path}", sandbox.sandbox.console_url());
    let response = sandbox
        .http
        .request(method, url)
        .header("x-api-key", TestSandbox::KEY)
        .json(&body)
        .send()
        .await
        .unwrap();
    let reply = read_reply(response).await;
    assert!(reply.status >= 400, "{}", reply.text);
    format!(
        "{}: {}",
        reply.status,
        reply.body["message"].as_str().unwrap()
    )
}

/// The other buttons, each checked through the SDK or the sandbox: set a
/// balance (a row's "Set…" and the form, for a wallet not held yet),
/// expire a collection, approve a business, complete a pending payout,
/// redeliver a webhook, and reset the business.
#[tokio::test]
#[ignore = "needs Chromium"]
async fn every_other_button_acts_through_the_control_api() {
    let sandbox = TestSandbox::start().await;
    let handle = &sandbox.sandbox;
    let key = TestSandbox::KEY;
    let client = sandbox.client(key);
    // Kept to the end: the receiver answers the sandbox's deliveries.
    let _hooks = Hooks::registered(&client).await;
    open_ngn_collection(&client, "order-5", Decimal::new(900, 0))
        .await
        .unwrap();
    handle
        .set_payout_settlement(key, crossborder_sandbox::PayoutSettlement::Manual)
        .unwrap();
    let payout = fixtures::ngn_bank_payout(Decimal::new(1_000, 0), "payout-5");
    client.payouts().create(&payout).await.unwrap();
    let business_id = onboarded_business(&client, "RC7000555PENDING", true)
        .await
        .unwrap();

    let Some(console) = Console::open_with_key(&sandbox, key).await else {
        return;
    };
    let browser = &console.browser;

    console.press("expire", "order-5").await;
    console
        .wait_for_row("collections", "order-5", "EXPIRED")
        .await;
    let expired = client.collections().get("order-5").await.unwrap();
    assert_eq!(expired.status, TransactionStatus::Expired);

    console.show("payouts").await;
    console.press("complete", "payout-5").await;
    console
        .wait_for_row("payouts", "payout-5", "COMPLETED")
        .await;
    let completed = client.payouts().get("payout-5").await.unwrap();
    assert_eq!(completed.status, TransactionStatus::Completed);

    console.show("businesses").await;
    console.press("approve", &business_id).await;
    console
        .wait_for_row("businesses", &business_id, "APPROVED")
        .await;
    let approved = client.businesses().get(&business_id).await.unwrap();
    assert_eq!(approved.status, BusinessStatus::Approved);

    console.show("webhooks").await;
    let first = handle.state(key).unwrap().webhooks[0].delivery_id.clone();
    console.wait_for_row("webhooks", &first, "delivered").await;
    console.press("redeliver", &first).await;
    let state = crossborder_testkit::wait_until(WAIT, || async {
        let state = handle.state(key).unwrap();
        let delivered = state
            .webhooks
            .iter()
            .filter(|w| w.status == "delivered")
            .count();
        Ok(if delivered == 2 {
            Ok(state)
        } else {
            Err(format!("{delivered} delivered"))
        })
    })
    .await
    .unwrap();
    assert_eq!(state.webhooks[0].event, "EXPIRED");
    assert_eq!(state.webhooks[0].body, state.webhooks[1].body);

    console.show("balances").await;
    console
        .press_and_answer("set-balance", "NGN", "2500000")
        .await;
    console
        .wait_for_row("balances", "NGN", "2,500,000.00 NGN")
        .await;
    browser
        .click("#balance-currency option[value=\"EUR\"]")
        .await;
    browser.fill("#balance-amount", "1500.5").await;
    browser.click("#balance-form button[type=\"submit\"]").await;
    console
        .wait_for_row("balances", "EUR", "1,500.50 EUR")
        .await;
    let wallet = client.wallet();
    assert_eq!(
        wallet.balance(Currency::Ngn).await.unwrap().amount,
        Decimal::new(2_500_000, 0)
    );
    assert_eq!(
        wallet.balance(Currency::Eur).await.unwrap().amount,
        Decimal::new(15_005, 1)
    );

    browser.click("#reset").await;
    browser.click("#dialog-ok").await;
    console.wait_dialog_closed().await;
    console
        .wait_for_row("balances", "NGN", "5,000,000.00 NGN")
        .await;
    let state = handle.state(key).unwrap();
    assert!(state.collections.is_empty() && state.payouts.is_empty());
    assert!(state.businesses.is_empty());
    assert_eq!(
        wallet.balance(Currency::Eur).await.unwrap().amount,
        Decimal::ZERO
    );
    console.close().await;
}
