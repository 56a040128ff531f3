//! The console's own steps, as a person takes them: open the page, enter
//! the key, pick a section, press a row's button, answer the dialog.

use std::path::PathBuf;

use crossborder_testkit::TestSandbox;
use serde_json::json;
use tokio::sync::{Semaphore, SemaphorePermit};

use crate::driver::output_dir;
use crate::webdriver::{Browser, DESKTOP, PHONE};

/// One browser at a time: the machine's two cores run the sandbox, the SDK
/// and Chromium's processes, and the tests of one binary run in parallel.
static ONE_BROWSER: Semaphore = Semaphore::const_new(1);

/// The console of one sandbox, open in a browser.
pub struct Console {
    /// The browser showing the page.
    pub browser: Browser,
    /// `http://127.0.0.1:PORT/`, the page's address.
    pub root: String,
    _turn: SemaphorePermit<'static>,
}

impl Console {
    /// Opens the console of `sandbox` in a new browser; `None` (reason
    /// printed) when there is no browser here and CI is not set.
    ///
    /// # Panics
    ///
    /// As [`Browser::start`].
    pub async fn open(sandbox: &TestSandbox) -> Option<Console> {
        let turn = ONE_BROWSER
            .acquire()
            .await
            .unwrap_or_else(|error| panic!("the browser semaphore: {error}"));
        let browser = Browser::start().await?;
        let root = sandbox.sandbox.console_url();
        browser.goto(&root).await;
        Some(Console {
            browser,
            root,
            _turn: turn,
        })
    }

    /// [`Console::open`], then [`Console::enter_key`] with `key`.
    pub async fn open_with_key(sandbox: &TestSandbox, key: &str) -> Option<Console> {
        let console = Console::open(sandbox).await?;
        console.enter_key(key).await;
        Some(console)
    }

    /// Types `key` where the page puts the focus when it asks for a key
    /// (the key field) and presses Enter, as a keyboard user does.
    pub async fn type_key(&self, key: &str) {
        self.browser
            .wait_for_script(
                "return document.activeElement && document.activeElement.id === 'api-key';",
                "the key field has the focus when the page asks for a key",
            )
            .await;
        self.browser.keys(key).await;
        self.browser.keys("\u{E007}").await;
    }

    /// [`Console::type_key`], then waits for the console to show the
    /// state the key reads.
    pub async fn enter_key(&self, key: &str) {
        self.type_key(key).await;
        self.wait_until_shown().await;
    }

    /// Waits until the console shows a state read from the control API.
    pub async fn wait_until_shown(&self) {
        self.browser.wait_for_text("#updated", "Updated ").await;
    }

    /// Opens the section `tab` (`collections`, `payouts`, ...).
    pub async fn show(&self, tab: &str) {
        self.browser.click(&format!("#tab-{tab}")).await;
        self.browser
            .wait_for_script(
                &format!("return !document.getElementById('panel-{tab}').hidden;"),
                &format!("the {tab} section opens"),
            )
            .await;
    }

    /// The CSS selector of the row of `id` in the section `tab`.
    pub fn row(tab: &str, id: &str) -> String {
        format!("#panel-{tab} tr[data-row=\"{id}\"]")
    }

    /// Waits until the row of `id` in `tab` shows `expected`, and returns
    /// the row's text.
    pub async fn wait_for_row(&self, tab: &str, id: &str, expected: &str) -> String {
        self.browser
            .wait_for_text(&Console::row(tab, id), expected)
            .await
    }

    /// Presses the row button `action` (`fund`, `fail`, `reject`, ...) of
    /// the object `id`.
    pub async fn press(&self, action: &str, id: &str) {
        self.browser
            .click(&format!(
                "button[data-action=\"{action}\"][data-id=\"{id}\"]"
            ))
            .await;
    }

    /// Types `value` into the open dialog's field and presses its button.
    pub async fn answer_dialog(&self, value: &str) {
        self.browser.fill("#dialog-input", value).await;
        self.browser.click("#dialog-ok").await;
    }

    /// Waits until the dialog has closed (its action done).
    pub async fn wait_dialog_closed(&self) {
        self.browser
            .wait_for_script(
                "return !document.getElementById('dialog').open;",
                "the dialog closes",
            )
            .await;
    }

    /// Presses `action` on the row of `id`, answers its dialog with
    /// `value`, and waits until the dialog has closed (the action done).
    pub async fn press_and_answer(&self, action: &str, id: &str, value: &str) {
        self.press(action, id).await;
        self.answer_dialog(value).await;
        self.wait_dialog_closed().await;
    }

    /// The page's width in CSS pixels, to compare with the viewport's (a
    /// page wider than its viewport scrolls sideways; on a phone the
    /// layout viewport grows with it, so the width is compared with the
    /// device's, not with `innerWidth`).
    pub async fn page_width(&self) -> u64 {
        let script = "return document.documentElement.scrollWidth;";
        let width = self.browser.script(script, json!([])).await;
        width.as_u64().unwrap_or(u64::MAX)
    }

    /// Writes screenshots of the page as it is at [`DESKTOP`] and [`PHONE`]
    /// size under `target/console/`, named `{name}-1280x800.png` and
    /// `{name}-phone.png`, checking at each size that the page needs no
    /// sideways scrolling; the viewport is the desktop's again after.
    pub async fn screenshots(&self, name: &str) -> [PathBuf; 2] {
        let desktop = output_dir().join(format!("{name}-{}x{}.png", DESKTOP.0, DESKTOP.1));
        let phone = output_dir().join(format!("{name}-phone.png"));
        // No focus ring in the pictures; each is taken before its check,
        // to show what failed.
        self.browser
            .script("document.activeElement.blur();", json!([]))
            .await;
        self.browser.screenshot(&desktop).await;
        let width = self.page_width().await;
        assert!(
            width <= u64::from(DESKTOP.0),
            "{width} px wide: {desktop:?}"
        );
        self.browser.viewport(PHONE, true).await;
        self.browser.screenshot(&phone).await;
        let width = self.page_width().await;
        assert!(width <= u64::from(PHONE.0), "{width} px wide: {phone:?}");
        self.browser.viewport(DESKTOP, false).await;
        [desktop, phone]
    }

    /// Closes the browser.
    pub async fn close(self) {
        self.browser.close().await;
    }
}
