//! The one URL rule of the API's request fields: an absolute `http` or
//! `https` URL (webhook URLs, document links; ASSUMPTIONS D44).

use std::borrow::Cow;

use crate::violation::{Collector, Rule};

/// The message of a URL field that breaks the rule of [`is_http_url`]
/// (ASSUMPTIONS D44): the same for a webhook URL and every link of a KYB
/// request.
pub const URL_MESSAGE: &str = "must be an absolute http or https URL";

/// Records `<field>: must be an absolute http or https URL` when `url` is
/// sent and is not one. A missing or blank `url` is left to the field's
/// own requirement.
pub(crate) fn check_link(
    collector: &mut Collector,
    field: impl Into<Cow<'static, str>>,
    url: Option<&str>,
) {
    if let Some(url) = url {
        if !is_http_url(url) {
            collector.push(field, Rule::InvalidFormat, URL_MESSAGE);
        }
    }
}

/// `https://` or `http://` followed by a host, with no whitespace.
///
/// ```
/// use crossborder_core::is_http_url;
///
/// assert!(is_http_url("https://merchant.example.org/hooks"));
/// assert!(!is_http_url("ftp://hooks.example.org/x"));
/// assert!(!is_http_url("https://"));
/// assert!(!is_http_url("https:///path"));
/// assert!(!is_http_url("https://a b"));
/// ```
pub fn is_http_url(text: &str) -> bool {
    let rest = text
        .strip_prefix("https://")
        .or_else(|| text.strip_prefix("http://"));
    match rest {
        Some(rest) => {
            let host = rest.split(['/', '?', '#']).next().unwrap_or_default();
            !host.is_empty() && !text.chars().any(char::is_whitespace)
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_absolute_http_urls_are_accepted() {
        for url in [
            "https://merchant.example.org/hooks",
            "http://127.0.0.1:9000/x",
            "https://shop.example?x=1",
        ] {
            assert!(is_http_url(url), "{url}");
        }
        for url in [
            "",
            "merchant.example.org",
            "/hooks",
            "ftp://x.org/",
            "mailto:a@b.c",
            "http://",
            "https://#fragment",
            "https://host/a b",
        ] {
            assert!(!is_http_url(url), "{url}");
        }
    }
}
