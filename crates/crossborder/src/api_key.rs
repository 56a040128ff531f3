//! The API key, held as a secret, and the environment it belongs to.

use std::fmt;

use reqwest::header::HeaderValue;

use crate::error::Error;

/// The environment of a key, from its prefix (`live_` production, `test_`
/// staging): the rule is core's, shared with the sandbox.
pub use crossborder_core::Environment;

/// A business API key, kept secret.
///
/// Its `Debug` output shows only the environment, it has no `Display`, and
/// the header value built from it is marked sensitive so that HTTP libraries
/// never print it. Read it with [`ApiKey::expose_secret`] only where the raw
/// key is really needed.
///
/// ```
/// use crossborder::{config::{ApiKey, Environment}};
///
/// let key = ApiKey::new("test_0123456789abcdef").unwrap();
/// assert_eq!(key.environment(), Environment::Staging);
/// assert!(!format!("{key:?}").contains("0123456789abcdef"));
/// assert!(ApiKey::new("sk_0123").is_err());
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey {
    secret: Box<str>,
    environment: Environment,
}

impl ApiKey {
    /// The request header that carries the key: `x-api-key`.
    pub const HEADER: &'static str = crossborder_api::API_KEY_HEADER;

    /// Checks a key: it must start with `live_` (production) or `test_`
    /// (staging) and be a valid header value. The error never contains the
    /// key.
    pub fn new(key: impl Into<String>) -> Result<ApiKey, Error> {
        let key: String = key.into();
        let trimmed = key.trim();
        if trimmed.is_empty() {
            return Err(Error::Config("the API key is empty".to_owned()));
        }
        let environment = Environment::of_key(trimmed).ok_or_else(|| {
            Error::Config(
                "the API key must start with `live_` (production) or `test_` (staging)".to_owned(),
            )
        })?;
        if HeaderValue::from_str(trimmed).is_err() {
            return Err(Error::Config(
                "the API key contains characters that cannot be sent in a header".to_owned(),
            ));
        }
        Ok(ApiKey {
            secret: trimmed.into(),
            environment,
        })
    }

    /// The environment this key belongs to.
    pub fn environment(&self) -> Environment {
        self.environment
    }

    /// The raw key. Avoid logging or displaying it.
    pub fn expose_secret(&self) -> &str {
        &self.secret
    }

    /// The `x-api-key` header value, marked sensitive.
    pub fn header_value(&self) -> Result<HeaderValue, Error> {
        let mut value = HeaderValue::from_str(&self.secret).map_err(|_| {
            Error::Config(
                "the API key contains characters that cannot be sent in a header".to_owned(),
            )
        })?;
        value.set_sensitive(true);
        Ok(value)
    }

    /// Replaces every occurrence of the key in `text` by `[redacted]`, for
    /// text that came from elsewhere (a server's error body).
    pub(crate) fn redact(&self, text: &str) -> String {
        crate::error::redact(&self.secret, text)
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ApiKey")
            .field("environment", &self.environment)
            .field("secret", &"[redacted]")
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn environment_follows_the_prefix() {
        assert_eq!(
            ApiKey::new("live_abc").unwrap().environment(),
            Environment::Production
        );
        assert_eq!(
            ApiKey::new("test_abc").unwrap().environment(),
            Environment::Staging
        );
        for bad in ["", "  ", "abc", "LIVE_abc", "prod_abc", "test-abc"] {
            let error = ApiKey::new(bad).unwrap_err();
            assert!(matches!(error, Error::Config(_)), "{bad}");
            if !bad.trim().is_empty() {
                assert!(!error.to_string().contains(bad.trim()), "{bad}");
            }
        }
    }

    #[test]
    fn debug_and_errors_hide_the_key() {
        let key = ApiKey::new("live_supersecret").unwrap();
        let debug = format!("{key:?} {key:#?}");
        assert!(!debug.contains("supersecret"), "{debug}");
        assert!(key.header_value().unwrap().is_sensitive());
        assert_eq!(
            key.redact("echo live_supersecret here"),
            "echo [redacted] here"
        );
        let error = ApiKey::new("test_bad\nkey").unwrap_err().to_string();
        assert!(!error.contains("bad"), "{error}");
    }
}
