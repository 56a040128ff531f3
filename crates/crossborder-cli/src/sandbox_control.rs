//! `crossborder sandbox fund|expire|approve|reject|settle|fail|redeliver`:
//! the control API of a running sandbox (`/_sandbox/...` beside the
//! `--base-url`'s `/v1`), for scripts; and `crossborder sandbox --open`,
//! which opens the console page.

use crossborder::rules::display_grouped;
use crossborder::{Currency, Decimal};
use serde_json::{json, Value};

use crate::cli::{Global, SandboxCommand};
use crate::failure::Failure;
use crate::render::Output;

/// What an action answers, and the fields its table shows.
enum Shown {
    Collection,
    Business,
    Payout,
    Delivery,
}

impl Shown {
    /// `(label, field, currency field)`: a field with a currency field is an
    /// amount, shown grouped with its currency.
    fn fields(&self) -> &'static [(&'static str, &'static str, Option<&'static str>)] {
        match self {
            Shown::Collection => &[
                ("reference", "paymentReference", None),
                ("status", "status", None),
                ("amount", "amount", Some("currency")),
                ("paid", "paidAmount", Some("currency")),
                ("remaining", "remainingAmount", Some("currency")),
            ],
            Shown::Business => &[
                ("business", "businessId", None),
                ("name", "businessName", None),
                ("status", "status", None),
                ("reason", "reason", None),
            ],
            Shown::Payout => &[
                ("session", "sessionId", None),
                ("status", "status", None),
                ("amount", "amount", Some("fromCurrency")),
                ("fee", "fee", Some("fromCurrency")),
                ("total", "totalAmount", Some("fromCurrency")),
                ("reason", "reason", None),
            ],
            Shown::Delivery => &[
                ("delivery", "deliveryId", None),
                ("event", "event", None),
                ("reference", "paymentReference", None),
                ("status", "status", None),
                ("url", "url", None),
            ],
        }
    }

    fn output(&self, body: Value) -> Output {
        let rows = self
            .fields()
            .iter()
            .filter_map(|(label, field, currency)| {
                let value = body[*field].as_str()?;
                let currency =
                    currency.and_then(|name| body[name].as_str()?.parse::<Currency>().ok());
                let shown = match (currency, Decimal::from_str_exact(value)) {
                    (Some(currency), Ok(amount)) => display_grouped(amount, currency),
                    _ => value.to_owned(),
                };
                Some(((*label).to_owned(), shown))
            })
            .collect();
        Output { rows, json: body }
    }
}

/// Runs one control action against the sandbox at `--base-url`.
pub async fn run(global: &Global, command: SandboxCommand) -> Result<Output, Failure> {
    let (segments, body, shown): (Vec<&str>, Value, Shown) = match &command {
        SandboxCommand::Fund { reference, amount } => (
            vec!["collections", reference, "fund"],
            amount.map_or_else(|| json!({}), |amount| json!({"amount": amount.to_string()})),
            Shown::Collection,
        ),
        SandboxCommand::Expire { reference } => (
            vec!["collections", reference, "expire"],
            json!({}),
            Shown::Collection,
        ),
        SandboxCommand::Approve { business_id } => (
            vec!["businesses", business_id, "approve"],
            json!({}),
            Shown::Business,
        ),
        SandboxCommand::Reject {
            business_id,
            reason,
        } => (
            vec!["businesses", business_id, "reject"],
            json!({ "reason": reason }),
            Shown::Business,
        ),
        SandboxCommand::Settle { session_id } => (
            vec!["payouts", session_id, "complete"],
            json!({}),
            Shown::Payout,
        ),
        SandboxCommand::Fail { session_id, reason } => (
            vec!["payouts", session_id, "fail"],
            reason
                .as_ref()
                .map_or_else(|| json!({}), |reason| json!({ "reason": reason })),
            Shown::Payout,
        ),
        SandboxCommand::Redeliver { delivery_id } => (
            vec!["webhooks", delivery_id, "redeliver"],
            json!({}),
            Shown::Delivery,
        ),
    };
    let answer = post(global, &segments, &body).await?;
    Ok(shown.output(answer))
}

/// The sandbox's root (`--base-url` without its `/v1`) and the key.
fn target(global: &Global) -> Result<(reqwest::Url, &str), Failure> {
    let key = global.require_api_key("the sandbox's: test_sandbox_key")?;
    let base = global.require_base_url(
        "no base URL: pass --base-url or set CROSSBORDER_BASE_URL to the running sandbox's \
         (http://127.0.0.1:8080/v1)",
    )?;
    let root = base.trim_end_matches('/').trim_end_matches("/v1");
    let url = reqwest::Url::parse(root)
        .ok()
        .filter(|url| !url.cannot_be_a_base() && matches!(url.scheme(), "http" | "https"))
        .ok_or_else(|| Failure::usage(format!("--base-url: {base:?} is not an http(s) URL")))?;
    Ok((url, key))
}

/// POSTs `body` to `/_sandbox/<segments>` (each segment escaped) and returns
/// the answer, or the control API's error as the failure.
async fn post(global: &Global, segments: &[&str], body: &Value) -> Result<Value, Failure> {
    let (mut url, key) = target(global)?;
    url.path_segments_mut()
        .map_err(|()| Failure::usage("--base-url: cannot hold a path"))?
        .pop_if_empty()
        .push("_sandbox")
        .extend(segments);
    // The SDK's TLS configuration: under its `rustls` feature reqwest has
    // no crypto provider of its own.
    let cannot = |error: &dyn std::fmt::Display| {
        Failure::usage(format!("cannot reach the sandbox: {error}"))
    };
    // The SDK's checks of the key and the base URL first: a production
    // (`live_`) key never goes over plain http to a host that is not
    // loopback (ASSUMPTIONS D41).
    let builder = crossborder::ClientBuilder::new()
        .api_key(key)
        .base_url(global.require_base_url("no base URL")?);
    builder.clone().build()?;
    let http = builder
        .http_client_builder()
        .map_err(|error| cannot(&error))?
        .build()
        .map_err(|error| cannot(&error))?;
    let response = http
        .post(url.clone())
        .header("x-api-key", key)
        .header("content-type", "application/json")
        .body(body.to_string())
        .send()
        .await
        .map_err(|error| {
            Failure::runtime(format!(
                "cannot reach the sandbox at {url}: {}",
                error.without_url()
            ))
        })?;
    let status = response.status();
    let text = response
        .text()
        .await
        .map_err(|error| Failure::runtime(format!("the sandbox's answer was cut off: {error}")))?;
    let answer: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
    if status.is_success() {
        return Ok(answer);
    }
    let message = answer["message"]
        .as_str()
        .map_or_else(|| format!("the sandbox answered {status}"), str::to_owned);
    let mut failure = Failure::runtime(format!("{} {message}", status.as_u16()));
    if let Some(errors) = answer["errors"].as_array() {
        failure.lines.extend(errors.iter().map(|error| {
            format!(
                "  {}: {}",
                error["field"].as_str().unwrap_or_default(),
                error["message"].as_str().unwrap_or_default()
            )
        }));
    }
    Err(failure)
}

/// Opens `url` in the browser: `$BROWSER` when set, else the platform's
/// opener (`xdg-open`, `open`, `start`). std::process is enough for this;
/// a failure is a warning, never a reason to stop serving.
pub fn open_in_browser(url: &str) {
    let mut command = match std::env::var_os("BROWSER").filter(|browser| !browser.is_empty()) {
        Some(browser) => std::process::Command::new(browser),
        None if cfg!(target_os = "macos") => std::process::Command::new("open"),
        None if cfg!(windows) => {
            let mut start = std::process::Command::new("cmd");
            start.args(["/C", "start", ""]);
            start
        }
        None => std::process::Command::new("xdg-open"),
    };
    command
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    match command.spawn() {
        // Reaped in the background, so it never lingers as a zombie.
        Ok(mut child) => {
            std::thread::spawn(move || child.wait());
        }
        Err(error) => {
            use std::io::Write as _;
            let _ = writeln!(
                std::io::stderr().lock(),
                "warning: could not open a browser ({error}); open {url} yourself"
            );
        }
    }
}
