//! Client configuration: key, base URL, timeouts, retries, HTTP client.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use crossborder_api::ClientState;
use reqwest::header::HeaderValue;

use crate::client::{Client, Inner};
use crate::error::Error;
use crate::retry::RetryPolicy;

pub use crate::api_key::{ApiKey, Environment};

/// The server of the OpenAPI document, a placeholder (the API's spec names
/// no host): refused like a missing base URL, so that a client without its
/// real host fails when it is built, not with a DNS error on its first
/// request.
const SPEC_PLACEHOLDER_URL: &str = "https://api.crossborder.invalid/v1";

/// Builds a [`Client`].
///
/// ```
/// use std::time::Duration;
/// use crossborder::{Client, RetryPolicy};
///
/// let client = Client::builder()
///     .api_key("test_0123456789abcdef")
///     .base_url("http://127.0.0.1:8080/v1/")
///     .timeout(Duration::from_secs(10))
///     .retry_policy(RetryPolicy::default().max_attempts(5))
///     .build()
///     .unwrap();
/// assert_eq!(client.base_url(), "http://127.0.0.1:8080/v1");
/// ```
#[derive(Clone)]
pub struct ClientBuilder {
    api_key: Option<String>,
    base_url: Option<String>,
    timeout: Duration,
    connect_timeout: Duration,
    retry: RetryPolicy,
    http_client: Option<reqwest::Client>,
    max_response_bytes: u64,
    root_certificates: Vec<Vec<u8>>,
}

impl Default for ClientBuilder {
    fn default() -> Self {
        ClientBuilder {
            api_key: None,
            base_url: None,
            timeout: ClientBuilder::DEFAULT_TIMEOUT,
            connect_timeout: ClientBuilder::DEFAULT_CONNECT_TIMEOUT,
            retry: RetryPolicy::default(),
            http_client: None,
            max_response_bytes: ClientBuilder::DEFAULT_MAX_RESPONSE_BYTES,
            root_certificates: Vec::new(),
        }
    }
}

impl fmt::Debug for ClientBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClientBuilder")
            .field("api_key", &self.api_key.as_ref().map(|_| "[redacted]"))
            .field("base_url", &self.base_url)
            .field("timeout", &self.timeout)
            .field("connect_timeout", &self.connect_timeout)
            .field("retry", &self.retry)
            .field("http_client", &self.http_client.is_some())
            .field("max_response_bytes", &self.max_response_bytes)
            .field("root_certificates", &self.root_certificates.len())
            .finish()
    }
}

impl ClientBuilder {
    /// The environment variable holding the API key.
    pub const API_KEY_ENV: &'static str = "CROSSBORDER_API_KEY";

    /// The environment variable holding the base URL (with its `/v1`).
    pub const BASE_URL_ENV: &'static str = "CROSSBORDER_BASE_URL";

    /// The `User-Agent` sent with every request: `crossborder-rust/<version>`.
    pub const USER_AGENT: &'static str = concat!("crossborder-rust/", env!("CARGO_PKG_VERSION"));

    /// The default timeout of a whole request.
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

    /// The default timeout for establishing a connection.
    pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

    /// The default limit of a response body: 1 MiB
    /// ([`ClientBuilder::max_response_bytes`]).
    pub const DEFAULT_MAX_RESPONSE_BYTES: u64 =
        crossborder_api::response::DEFAULT_MAX_RESPONSE_BYTES;

    /// A builder with the defaults: no key, no base URL (both must be set
    /// before [`build`](ClientBuilder::build)), 30 s request timeout, 10 s
    /// connect timeout, [`RetryPolicy::default`].
    pub fn new() -> ClientBuilder {
        ClientBuilder::default()
    }

    /// A builder filled from `CROSSBORDER_API_KEY` and
    /// `CROSSBORDER_BASE_URL`, when set. A missing key or base URL is
    /// reported by [`ClientBuilder::build`].
    pub fn from_env() -> ClientBuilder {
        ClientBuilder::from_lookup(|name| std::env::var(name).ok())
    }

    /// Like [`ClientBuilder::from_env`], reading variables through `lookup`.
    pub(crate) fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> ClientBuilder {
        let mut builder = ClientBuilder::new();
        builder.api_key = lookup(ClientBuilder::API_KEY_ENV).filter(|key| !key.trim().is_empty());
        builder.base_url = lookup(ClientBuilder::BASE_URL_ENV).filter(|url| !url.trim().is_empty());
        builder
    }

    /// Sets the API key. Its prefix selects the environment: `live_` is
    /// production, `test_` is staging; anything else fails at build time.
    pub fn api_key(mut self, key: impl Into<String>) -> ClientBuilder {
        self.api_key = Some(key.into());
        self
    }

    /// Sets the base URL, version prefix included
    /// (`https://host/v1`). A trailing slash is ignored.
    pub fn base_url(mut self, url: impl Into<String>) -> ClientBuilder {
        self.base_url = Some(url.into());
        self
    }

    /// Sets the timeout of a whole request (default 30 s).
    pub fn timeout(mut self, timeout: Duration) -> ClientBuilder {
        self.timeout = timeout;
        self
    }

    /// Sets the timeout for establishing a connection (default 10 s).
    pub fn connect_timeout(mut self, timeout: Duration) -> ClientBuilder {
        self.connect_timeout = timeout;
        self
    }

    /// Sets when failed requests are retried; [`RetryPolicy::none`] turns
    /// retries off.
    pub fn retry_policy(mut self, policy: RetryPolicy) -> ClientBuilder {
        self.retry = policy;
        self
    }

    /// Sets the largest response body the client reads, in bytes (default
    /// [`ClientBuilder::DEFAULT_MAX_RESPONSE_BYTES`], 1 MiB; the API's largest answer, a
    /// bank list, is about a hundredth of it). Every body is read under it:
    /// answers, error bodies and the upload's answer. A body over it ends
    /// the call with [`Error::ResponseTooLarge`] once the limit is reached,
    /// or at once when its `Content-Length` is over it, so a server that
    /// sends an endless body cannot fill the memory. It applies to an
    /// [`http_client`](ClientBuilder::http_client) of the caller's too.
    ///
    /// ```
    /// use crossborder::Client;
    ///
    /// let client = Client::builder()
    ///     .api_key("test_0123456789abcdef")
    ///     .base_url("http://127.0.0.1:8080/v1")
    ///     .max_response_bytes(4 * 1024 * 1024)
    ///     .build()
    ///     .unwrap();
    /// # let _ = client;
    /// ```
    pub fn max_response_bytes(mut self, limit: u64) -> ClientBuilder {
        self.max_response_bytes = limit;
        self
    }

    /// Trusts the certificates of `pem` (one or more PEM `CERTIFICATE`
    /// blocks) as roots, besides the platform's: a company's TLS-inspecting
    /// proxy, or a test server. A certificate that cannot be read fails
    /// [`build`](ClientBuilder::build) with [`Error::Config`].
    pub fn root_certificate_pem(mut self, pem: impl Into<Vec<u8>>) -> ClientBuilder {
        self.root_certificates.push(pem.into());
        self
    }

    /// A `reqwest::ClientBuilder` with the TLS configuration and timeouts
    /// this builder gives its own HTTP client: to add what it does not set
    /// (a proxy, pool settings) and pass the client to
    /// [`http_client`](ClientBuilder::http_client). With the `rustls`
    /// feature, reqwest is built without a crypto provider of its own, so a
    /// `reqwest::Client::builder()` of the application's own would need one
    /// installed process-wide; this one carries the SDK's. It follows no
    /// redirect (ASSUMPTIONS D40): keep it so.
    ///
    /// ```
    /// use crossborder::Client;
    ///
    /// let builder = Client::builder()
    ///     .api_key("test_0123456789abcdef")
    ///     .base_url("https://api.example.org/v1");
    /// let http = builder
    ///     .http_client_builder()
    ///     .unwrap()
    ///     .pool_max_idle_per_host(4)
    ///     .build()
    ///     .unwrap();
    /// let client = builder.http_client(http).build().unwrap();
    /// # let _ = client;
    /// ```
    pub fn http_client_builder(&self) -> Result<reqwest::ClientBuilder, Error> {
        Ok(crate::tls::http_client_builder(&self.root_certificates)?
            .timeout(self.timeout)
            .connect_timeout(self.connect_timeout))
    }

    /// Uses the caller's own `reqwest::Client` (proxies, certificates,
    /// connection pool shared with the rest of an application).
    ///
    /// The API key and the user agent are still sent: they are added to each
    /// request, not to the HTTP client. A built `reqwest::Client` cannot be
    /// changed, so the timeouts of this builder are **not** applied to it;
    /// set them when building it. Its TLS stack is the one it was built with;
    /// [`http_client_builder`](ClientBuilder::http_client_builder) starts
    /// one with the SDK's.
    ///
    /// Nor can the SDK see its redirect policy: reqwest's default follows
    /// redirects to any host and keeps the `x-api-key` header on the way.
    /// Start from [`http_client_builder`](ClientBuilder::http_client_builder),
    /// which follows none, or set `.redirect(reqwest::redirect::Policy::none())`
    /// (ASSUMPTIONS D40).
    ///
    /// ```
    /// use std::time::Duration;
    /// use crossborder::Client;
    ///
    /// let http = Client::builder()
    ///     .http_client_builder()
    ///     .unwrap()
    ///     .timeout(Duration::from_secs(20))
    ///     .build()
    ///     .unwrap();
    /// let client = Client::builder()
    ///     .api_key("test_0123456789abcdef")
    ///     .base_url("https://api.example.org/v1")
    ///     .http_client(http)
    ///     .build()
    ///     .unwrap();
    /// # let _ = client;
    /// ```
    pub fn http_client(mut self, client: reqwest::Client) -> ClientBuilder {
        self.http_client = Some(client);
        self
    }

    fn checked_key(&self) -> Result<ApiKey, Error> {
        match &self.api_key {
            Some(key) => ApiKey::new(key.as_str()),
            None => Err(Error::Config(format!(
                "no API key: call ClientBuilder::api_key or set {}",
                ClientBuilder::API_KEY_ENV
            ))),
        }
    }

    /// The base URL, normalised; none, or the spec's placeholder server, is
    /// refused.
    fn checked_base_url(&self) -> Result<String, Error> {
        let placeholder = normalise_base_url(SPEC_PLACEHOLDER_URL)?;
        let given = self.base_url.as_deref().unwrap_or(SPEC_PLACEHOLDER_URL);
        let base_url = normalise_base_url(given)?;
        if base_url == placeholder {
            return Err(Error::Config(format!(
                "no base URL (the API's spec names no host): call ClientBuilder::base_url \
                 with https://<your API host>/v1 or set {}",
                ClientBuilder::BASE_URL_ENV
            )));
        }
        Ok(base_url)
    }

    /// Checks the configuration and builds the client: the base URL first
    /// (none, or the spec's placeholder server, is refused), then the
    /// API key, then that a production (`live_`) key has an `https` base URL
    /// unless its host is loopback (ASSUMPTIONS D41), each failure an
    /// [`Error::Config`] before any request. The client it builds follows
    /// no redirect ([`Error::Redirect`], ASSUMPTIONS D40).
    ///
    /// ```
    /// use crossborder::{Client, Error};
    ///
    /// let error = Client::builder().api_key("test_0123456789abcdef").build().unwrap_err();
    /// assert!(matches!(error, Error::Config(_)));
    /// ```
    pub fn build(self) -> Result<Client, Error> {
        let base_url = self.checked_base_url()?;
        let key = self.checked_key()?;
        check_transport(&base_url, &key)?;
        let http = match self.http_client {
            Some(http) => http,
            None => self.http_client_builder()?.build().map_err(|error| {
                Error::Config(format!("the HTTP client could not be built: {error}"))
            })?,
        };
        let state = client_state(&key)?.with_max_response_bytes(self.max_response_bytes);
        let api = crossborder_api::Client::new_with_client(&base_url, http.clone(), state);
        Ok(Client {
            inner: Arc::new(Inner {
                api,
                http,
                base_url,
                key,
                retry: self.retry,
            }),
        })
    }
}

impl Client {
    /// A builder to configure a client.
    pub fn builder() -> ClientBuilder {
        ClientBuilder::new()
    }

    /// A client configured from `CROSSBORDER_API_KEY` and
    /// `CROSSBORDER_BASE_URL` (both required: the API's spec names no host),
    /// with the default timeouts and retries.
    pub fn from_env() -> Result<Client, Error> {
        ClientBuilder::from_env().build()
    }
}

/// The message of a production key with a plain `http` base URL whose host
/// is not loopback (ASSUMPTIONS D41).
const INSECURE_PRODUCTION_BASE_URL: &str = "a production (live_) API key needs an https base URL, \
     unless its host is loopback (localhost, 127.0.0.0/8, [::1]): over plain http the key \
     and every request would cross the network unencrypted";

/// Refuses a production key over plain `http` to a host that is not
/// loopback, as C25 refuses a production webhook URL: the key would travel
/// in clear text. A staging key, or a local sandbox, may use `http`.
fn check_transport(base_url: &str, key: &ApiKey) -> Result<(), Error> {
    if key.environment() != Environment::Production {
        return Ok(());
    }
    let url = reqwest::Url::parse(base_url)
        .map_err(|error| Error::Config(format!("invalid base URL `{base_url}`: {error}")))?;
    // `host_str` writes an IPv6 address in brackets.
    let host = url
        .host_str()
        .unwrap_or_default()
        .trim_start_matches('[')
        .trim_end_matches(']');
    let loopback = host.eq_ignore_ascii_case("localhost")
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback());
    if url.scheme() == "http" && !loopback {
        return Err(Error::Config(format!(
            "{INSECURE_PRODUCTION_BASE_URL} (base URL {base_url})"
        )));
    }
    Ok(())
}

/// What every request carries, whichever HTTP client sends it: the
/// sensitive `x-api-key` and the `User-Agent`.
fn client_state(key: &ApiKey) -> Result<ClientState, Error> {
    Ok(ClientState::new()
        .with_api_key_value(key.header_value()?)
        .with_user_agent(HeaderValue::from_static(ClientBuilder::USER_AGENT)))
}

/// Checks a base URL and drops its trailing slashes, so that paths can be
/// appended as `{base}/api/...` without producing `//`.
fn normalise_base_url(url: &str) -> Result<String, Error> {
    let trimmed = url.trim();
    let parsed = reqwest::Url::parse(trimmed)
        .map_err(|error| Error::Config(format!("invalid base URL `{trimmed}`: {error}")))?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err(Error::Config(format!(
            "invalid base URL `{trimmed}`: the scheme must be http or https"
        )));
    }
    if parsed.query().is_some() || parsed.fragment().is_some() {
        return Err(Error::Config(format!(
            "invalid base URL `{trimmed}`: it must not have a query or a fragment"
        )));
    }
    if !parsed.username().is_empty() || parsed.password().is_some() {
        return Err(Error::Config(
            "invalid base URL: it must not carry credentials".to_owned(),
        ));
    }
    Ok(parsed.as_str().trim_end_matches('/').to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Environment;

    #[test]
    fn base_url_loses_its_trailing_slashes() {
        assert_eq!(
            normalise_base_url("http://127.0.0.1:8080/v1/").unwrap(),
            "http://127.0.0.1:8080/v1"
        );
        assert_eq!(
            normalise_base_url(" https://api.example.org/v1// ").unwrap(),
            "https://api.example.org/v1"
        );
        assert_eq!(
            normalise_base_url("https://api.example.org").unwrap(),
            "https://api.example.org"
        );
        for bad in [
            "",
            "api.example.org/v1",
            "ftp://example.org/v1",
            "https://example.org/v1?x=1",
            "https://u:p@example.org/v1",
        ] {
            assert!(
                matches!(normalise_base_url(bad), Err(Error::Config(_))),
                "{bad}"
            );
        }
    }

    /// A client built from these environment variables alone.
    fn built_from(variables: &[(&str, &str)]) -> Result<Client, Error> {
        ClientBuilder::from_lookup(|name| {
            variables
                .iter()
                .find(|(variable, _)| *variable == name)
                .map(|(_, value)| (*value).to_owned())
        })
        .build()
    }

    #[test]
    fn from_lookup_reads_both_variables() {
        let client = built_from(&[
            (ClientBuilder::API_KEY_ENV, "live_abc"),
            (ClientBuilder::BASE_URL_ENV, "https://api.example.org/v1/"),
        ])
        .unwrap();
        assert_eq!(client.environment(), Environment::Production);
        assert_eq!(client.base_url(), "https://api.example.org/v1");

        let no_base_url = built_from(&[(ClientBuilder::API_KEY_ENV, "test_x")]).unwrap_err();
        assert_eq!(
            no_base_url.to_string(),
            format!("configuration error: {PLACEHOLDER}")
        );

        let missing =
            built_from(&[(ClientBuilder::BASE_URL_ENV, "https://api.example.org/v1")]).unwrap_err();
        assert_eq!(
            missing.to_string(),
            "configuration error: no API key: call ClientBuilder::api_key or set CROSSBORDER_API_KEY"
        );
    }

    const PLACEHOLDER: &str = "no base URL (the API's spec names no host): call \
        ClientBuilder::base_url with https://<your API host>/v1 or set CROSSBORDER_BASE_URL";

    /// The placeholder default answers nothing: a client without its real
    /// host is refused when built, however the placeholder is written, and
    /// before the key is looked at.
    #[test]
    fn the_placeholder_base_url_is_refused_at_build() {
        for base_url in [
            None,
            Some(SPEC_PLACEHOLDER_URL),
            Some("https://api.crossborder.invalid/v1/"),
            Some(" https://API.crossborder.invalid/v1// "),
        ] {
            let mut builder = ClientBuilder::new().api_key("test_0123456789abcdef");
            if let Some(url) = base_url {
                builder = builder.base_url(url);
            }
            match builder.build() {
                Err(Error::Config(message)) => assert_eq!(message, PLACEHOLDER, "{base_url:?}"),
                other => panic!("{base_url:?}: {other:?}"),
            }
        }
        match ClientBuilder::new().build() {
            Err(Error::Config(message)) => assert_eq!(message, PLACEHOLDER),
            other => panic!("{other:?}"),
        }
        // Another host, or another path on the placeholder host, is the
        // caller's choice.
        for other in [
            "https://api.example.org/v1",
            "https://api.crossborder.invalid/v2",
        ] {
            let client = ClientBuilder::new()
                .api_key("test_0123456789abcdef")
                .base_url(other)
                .build()
                .unwrap();
            assert_eq!(client.base_url(), other);
        }
    }

    #[test]
    fn keys_of_unknown_environments_are_refused_at_build() {
        let error = ClientBuilder::new()
            .api_key("sk_live_abc")
            .base_url("https://api.example.org/v1")
            .build()
            .unwrap_err();
        assert!(matches!(error, Error::Config(_)));
        assert!(!error.to_string().contains("sk_live_abc"));
    }

    #[test]
    fn debug_hides_the_key() {
        let builder = ClientBuilder::new()
            .api_key("live_hidden")
            .base_url("https://api.example.org/v1");
        let text = format!("{builder:?}");
        assert!(!text.contains("hidden"), "{text}");
        let client = builder.build().unwrap();
        let text = format!("{client:?}");
        assert!(!text.contains("hidden"), "{text}");
        let state = client.low_level().state();
        assert!(state.has_api_key());
        assert!(!format!("{state:?}").contains("hidden"));
        assert_eq!(state.user_agent().unwrap(), ClientBuilder::USER_AGENT);
    }
}
