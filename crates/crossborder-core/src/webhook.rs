//! The rule of `PUT /api/set-webhook`.

use crate::url::is_http_url;
pub use crate::views::SetWebhookFields;
use crate::violation::{Collector, Rule, Violations};

/// Checks a webhook registration: `webhookUrl` is required and must be an
/// absolute `http` or `https` URL. Returns the URL, trimmed.
///
/// ```
/// use crossborder_core::webhook::{validate_set_webhook, SetWebhookFields};
///
/// let fields = SetWebhookFields { webhook_url: Some(" https://shop.example/hooks ") };
/// assert_eq!(validate_set_webhook(&fields).unwrap(), "https://shop.example/hooks");
///
/// let fields = SetWebhookFields { webhook_url: Some("/relative/path") };
/// assert_eq!(
///     validate_set_webhook(&fields).unwrap_err().to_string(),
///     "webhookUrl: must be an absolute http or https URL"
/// );
/// ```
pub fn validate_set_webhook<'a>(fields: &SetWebhookFields<'a>) -> Result<&'a str, Violations> {
    let mut collector = Collector::default();
    let url = collector
        .require(SetWebhookFields::WEBHOOK_URL, fields.webhook_url)
        .map(str::trim);
    if let Some(text) = url {
        if !is_http_url(text) {
            collector.push(
                SetWebhookFields::WEBHOOK_URL,
                Rule::InvalidFormat,
                "must be an absolute http or https URL",
            );
        }
    }
    collector.finish(|| url.unwrap_or_default())
}
