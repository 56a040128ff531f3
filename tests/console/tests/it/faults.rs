//! The Faults tab: each fault the sandbox injected for the key, what it
//! hit and what the sandbox did, with the settings they were drawn with;
//! the Requests tab marks the faulted request; amounts grouped by
//! thousands as the CLI's tables show them.

use crossborder::{Currency, Decimal};
use crossborder_console_tests::Console;
use crossborder_core::display_grouped;
use crossborder_sandbox::faults::{FaultConfig, FaultKind};
use crossborder_sandbox::SandboxConfig;
use crossborder_testkit::TestSandbox;
use serde_json::json;

#[tokio::test]
#[ignore = "needs Chromium"]
async fn the_faults_tab_lists_each_injected_fault_and_the_requests_tab_marks_it() {
    let faults = FaultConfig::off()
        .with_seed(7)
        .with_rate(FaultKind::Read503, Decimal::ONE)
        .unwrap();
    let sandbox = TestSandbox::start_with(SandboxConfig::default().with_faults(faults)).await;
    let reply = sandbox
        .raw_get("/api/balance/NGN", Some(TestSandbox::KEY))
        .await;
    assert_eq!(reply.status, 503, "{}", reply.text);
    let listed = sandbox.sandbox.state(TestSandbox::KEY).unwrap().faults;
    assert_eq!(listed.len(), 1, "{listed:?}");
    let fault = &listed[0];

    let Some(console) = Console::open_with_key(&sandbox, TestSandbox::KEY).await else {
        return;
    };
    console.show("faults").await;
    let row = console
        .wait_for_row("faults", &fault.fault_id, "read_503")
        .await;
    assert!(row.contains(&fault.target), "{row}");
    assert!(row.contains(&fault.applied), "{row}");
    assert_eq!(console.browser.text("#tab-faults .count").await, "1");
    assert_eq!(
        console.browser.text("#fault-settings").await,
        "Profile off, seed 7: read_503 1"
    );

    console.show("requests").await;
    let requests = console
        .browser
        .wait_for_text("#panel-requests tbody", "fault read_503")
        .await;
    assert!(requests.contains("/v1/api/balance/NGN"), "{requests}");
    assert!(requests.contains("503"), "{requests}");

    // The wallet's 5000000 NGN, grouped as the CLI's tables show it.
    console.show("balances").await;
    console
        .wait_for_row("balances", "NGN", "5,000,000.00 NGN")
        .await;
    console.close().await;
}

/// The page's grouped amount is core's `display_grouped` (the CLI's), for
/// every currency; form fields keep the plain `display_amount`.
#[tokio::test]
#[ignore = "needs Chromium"]
async fn grouped_amounts_are_the_clis() {
    let sandbox = TestSandbox::start().await;
    let Some(console) = Console::open(&sandbox).await else {
        return;
    };
    let texts = [
        "0",
        "999.5",
        "1000",
        "4912500.5",
        "-1234567.891",
        "100000",
        "0.000001",
        "1234567890123456.123456789",
    ];
    let mut cases = Vec::new();
    for currency in Currency::ALL {
        for text in texts {
            let value: Decimal = text.parse().unwrap();
            cases.push(json!([
                text,
                currency.code(),
                display_grouped(value, currency)
            ]));
        }
    }
    let shown = console
        .browser
        .script(
            "return arguments[0].map(([text, currency]) => window.crossborderConsole.groupedAmount(text, currency) + ' ' + currency);",
            json!([cases]),
        )
        .await;
    let shown = shown.as_array().unwrap();
    assert_eq!(shown.len(), cases.len());
    for (case, shown) in cases.iter().zip(shown) {
        assert_eq!(shown, &case[2], "{case}");
    }
    console.close().await;
}
