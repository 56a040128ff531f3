//! The Faults tab: each fault the sandbox injected for the key, what it
//! hit and what the sandbox did, with the settings they were drawn with;
//! the Requests tab marks the faulted request; the wallet's amount grouped
//! by thousands as the CLI's tables show it.

use crossborder::Decimal;
use crossborder_console_tests::Console;
use crossborder_sandbox::faults::{FaultConfig, FaultKind};
use crossborder_sandbox::SandboxConfig;
use crossborder_testkit::TestSandbox;

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
