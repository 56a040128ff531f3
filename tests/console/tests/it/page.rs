//! The console page on its own: the key asked once and kept out of URLs,
//! amounts shown as the SDK shows them, and the page usable by keyboard
//! and readable at 1280x800 and on a phone.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crossborder::{Currency, Decimal};
use crossborder_console_tests::Console;
use crossborder_core::{display_amount, display_grouped};
use crossborder_sandbox::{mask_key, SandboxConfig};
use crossborder_testkit::{TestSandbox, NO_ACCESS_KEY};
use serde_json::json;

/// The key is typed once, kept in the tab's session storage (not local
/// storage, not a cookie, not the URL), survives a reload, and "Forget
/// key" drops it; a key the sandbox refuses is said so, and not kept.
#[tokio::test]
#[ignore = "needs Chromium"]
async fn the_key_is_asked_once_and_kept_out_of_urls() {
    let sandbox = TestSandbox::start().await;
    let Some(console) = Console::open(&sandbox).await else {
        return;
    };
    let browser = &console.browser;

    console.type_key(NO_ACCESS_KEY).await;
    let refused = browser
        .wait_for_text("#key-error", "The sandbox refused this key")
        .await;
    assert_eq!(
        refused,
        "The sandbox refused this key (401: not allowed to access this resource; contact support)"
    );
    let kept = browser
        .script("return sessionStorage.length;", json!([]))
        .await;
    assert_eq!(kept, 0, "a refused key was kept");

    console.type_key(TestSandbox::KEY).await;
    console.wait_until_shown().await;
    assert_eq!(browser.text("#who").await, "Key test_…_key");
    let storage = browser
        .script(
            "return [sessionStorage.getItem('crossborder-sandbox-key'), localStorage.length, document.cookie];",
            json!([]),
        )
        .await;
    assert_eq!(storage, json!([TestSandbox::KEY, 0, ""]));
    let url = browser.url().await;
    assert_eq!(url, format!("{}#collections", console.root));

    // A reload opens the console again without asking.
    browser.goto(&console.root).await;
    console.wait_until_shown().await;
    assert_eq!(browser.text("#who").await, "Key test_…_key");

    browser.click("#forget").await;
    browser
        .wait_for_script(
            "return !document.getElementById('key-panel').hidden && sessionStorage.length === 0;",
            "Forget key asks for the key again and drops it",
        )
        .await;
    console.close().await;
}

/// The page's amount display is the SDK's `display_amount` (minor units
/// added, trailing zeros dropped, never rounded), and its tables' grouped
/// form core's `display_grouped` (the CLI's), for every currency; its
/// masked key is the sandbox's `mask_key`.
#[tokio::test]
#[ignore = "needs Chromium"]
async fn amounts_are_shown_as_the_sdk_shows_them() {
    let sandbox = TestSandbox::start().await;
    let Some(console) = Console::open(&sandbox).await else {
        return;
    };
    let texts = [
        "0",
        "5000000",
        "9899.5",
        "12.5",
        "1500.00",
        "0.1250",
        "100.10",
        "0.000001",
        "0.0000001",
        "-25.50",
        "-0.00",
        "007.5",
        "1000000000000000",
        "1234567890123456.123456789",
        "999.5",
        "1000",
        "100000",
        "4912500.5",
        "-1234567.891",
    ];
    let mut cases = Vec::new();
    for currency in Currency::ALL {
        for text in texts {
            let value: Decimal = text.parse().unwrap();
            let expected = json!([
                display_amount(value, currency).to_string(),
                display_grouped(value, currency)
            ]);
            cases.push(json!([text, currency.code(), expected]));
        }
    }
    let shown = console
        .browser
        .script(
            "return arguments[0].map(([text, currency]) => [window.crossborderConsole.displayAmount(text, currency), window.crossborderConsole.groupedAmount(text, currency) + ' ' + currency]);",
            json!([cases]),
        )
        .await;
    let shown = shown.as_array().unwrap();
    assert_eq!(shown.len(), cases.len());
    for (case, shown) in cases.iter().zip(shown) {
        assert_eq!(shown, &case[2], "{case}");
    }

    // The key in the bar is masked as the sandbox's request log masks it.
    let keys = [
        "test_sandbox_key",
        "live_sk_9b1e4f0c2d7a48e6",
        "test_1234567",
        "test_12345678",
        "short",
        "unknown_prefix_key_1234",
        "test_ключ_ключ_ключ",
    ];
    let masked = console
        .browser
        .script(
            "return arguments[0].map((key) => window.crossborderConsole.maskKey(key));",
            json!([keys]),
        )
        .await;
    let expected: Vec<String> = keys.iter().map(|key| mask_key(key)).collect();
    assert_eq!(masked, json!(expected));
    console.close().await;
}

/// The page reads the state again without a reload, and at most once a
/// second: over three seconds of an open console, the sandbox's request
/// log counts at most one `GET /_sandbox/state` a second (plus the first),
/// and more than one.
#[tokio::test]
#[ignore = "needs Chromium"]
async fn the_state_is_read_again_at_most_once_a_second() {
    let reads = Arc::new(AtomicUsize::new(0));
    let config = SandboxConfig::default().with_request_log({
        let reads = Arc::clone(&reads);
        move |line| {
            if line.method == "GET" && line.path == "/_sandbox/state" {
                reads.fetch_add(1, Ordering::SeqCst);
            }
        }
    });
    let sandbox = TestSandbox::start_with(config).await;
    let Some(console) = Console::open_with_key(&sandbox, TestSandbox::KEY).await else {
        return;
    };
    let (before, start) = (reads.load(Ordering::SeqCst), Instant::now());
    tokio::time::sleep(Duration::from_secs(3)).await;
    let (read, seconds) = (
        reads.load(Ordering::SeqCst) - before,
        start.elapsed().as_secs(),
    );
    assert!(
        read >= 2,
        "{read} reads in {seconds} s: the page stopped reading"
    );
    let most = usize::try_from(seconds).unwrap() + 1;
    assert!(read <= most, "{read} reads in {seconds} s");
    console.close().await;
}
