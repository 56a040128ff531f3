//! The rules of `PUT /api/set-webhook`.

use std::net::IpAddr;

use crate::url::{is_http_url, URL_MESSAGE};
pub use crate::views::SetWebhookFields;
use crate::violation::{Collector, Rule, Violations};

/// The message of a plain `http` URL registered with a production key
/// (ASSUMPTIONS.md C25).
pub const INSECURE_PRODUCTION_URL: &str =
    "must be an https URL with a production (live_) key, unless its host is loopback";

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
    check(fields, false)
}

/// [`validate_set_webhook`] for a production (`live_`) key: the URL must
/// also be `https`, unless its host is loopback (`localhost`, `127.0.0.0/8`,
/// `[::1]`), where a local receiver cannot be read or altered on the way
/// (ASSUMPTIONS.md C25). Events are unsigned, so over plain HTTP anyone on
/// the path could read them or inject forged ones.
///
/// ```
/// use crossborder_core::webhook::{validate_set_webhook_in_production, SetWebhookFields};
///
/// let fields = SetWebhookFields { webhook_url: Some("http://shop.example/hooks") };
/// assert_eq!(
///     validate_set_webhook_in_production(&fields).unwrap_err().to_string(),
///     "webhookUrl: must be an https URL with a production (live_) key, unless its host is loopback"
/// );
/// let fields = SetWebhookFields { webhook_url: Some("http://127.0.0.1:9000/hooks") };
/// assert!(validate_set_webhook_in_production(&fields).is_ok());
/// ```
pub fn validate_set_webhook_in_production<'a>(
    fields: &SetWebhookFields<'a>,
) -> Result<&'a str, Violations> {
    check(fields, true)
}

fn check<'a>(fields: &SetWebhookFields<'a>, production: bool) -> Result<&'a str, Violations> {
    let mut collector = Collector::default();
    let url = collector
        .require(SetWebhookFields::WEBHOOK_URL, fields.webhook_url)
        .map(str::trim);
    if let Some(text) = url {
        if !is_http_url(text) {
            collector.push(
                SetWebhookFields::WEBHOOK_URL,
                Rule::InvalidFormat,
                URL_MESSAGE,
            );
        } else if production && text.starts_with("http://") && !is_loopback(text) {
            collector.push(
                SetWebhookFields::WEBHOOK_URL,
                Rule::InvalidFormat,
                INSECURE_PRODUCTION_URL,
            );
        }
    }
    collector.finish(|| url.unwrap_or_default())
}

/// Whether the host of an absolute http(s) URL is loopback.
fn is_loopback(url: &str) -> bool {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host_port = authority
        .rsplit_once('@')
        .map_or(authority, |(_, host)| host);
    let host = match host_port.strip_prefix('[') {
        Some(bracketed) => bracketed.split(']').next().unwrap_or_default(),
        None => host_port.split(':').next().unwrap_or_default(),
    };
    host.eq_ignore_ascii_case("localhost")
        || host.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn production(url: &str) -> Result<&str, String> {
        let fields = SetWebhookFields {
            webhook_url: Some(url),
        };
        validate_set_webhook_in_production(&fields).map_err(|v| v.to_string())
    }

    #[test]
    fn production_keys_need_https_except_on_loopback() {
        for url in [
            "https://shop.example/hooks",
            "http://127.0.0.1:9000/hooks",
            "http://127.8.0.1/hooks",
            "http://localhost/hooks",
            "http://LOCALHOST:8080",
            "http://[::1]:8080/hooks",
            "http://user:pw@127.0.0.1/hooks",
        ] {
            assert_eq!(production(url), Ok(url), "{url}");
        }
        let refused = format!("webhookUrl: {INSECURE_PRODUCTION_URL}");
        for url in [
            "http://shop.example/hooks",
            "http://127.0.0.1.shop.example/hooks",
            "http://localhost.shop.example/",
            "http://127.0.0.1@shop.example/hooks",
            "http://[::2]/hooks",
            "http://10.0.0.1/hooks",
            "http://0.0.0.0/hooks",
        ] {
            assert_eq!(production(url), Err(refused.clone()), "{url}");
        }
        // Staging keeps the plain URL rule.
        let fields = SetWebhookFields {
            webhook_url: Some("http://shop.example/hooks"),
        };
        assert!(validate_set_webhook(&fields).is_ok());
        assert_eq!(
            production("ftp://shop.example/x"),
            Err("webhookUrl: must be an absolute http or https URL".to_owned())
        );
    }
}
