//! Per-client state of the generated [`Client`](crate::Client) and the hook
//! that puts it on every request.
//!
//! progenitor generates the client with `ClientState` as its inner type and
//! [`ClientState::apply`] as its pre-request hook, so the API key reaches the
//! server whichever `reqwest::Client` carries the request: one built by the
//! SDK or one the caller brought (whose default headers cannot be changed
//! once built).

use std::fmt;

use reqwest::header::{HeaderName, HeaderValue, InvalidHeaderValue, USER_AGENT};

/// Name of the header that carries the API key on every request.
pub const API_KEY_HEADER: &str = "x-api-key";

/// The default limit of a response body: 1 MiB, a hundred times the largest
/// answer of the API (a bank list).
pub const DEFAULT_MAX_RESPONSE_BYTES: u64 = 1024 * 1024;

/// What every request of one client carries: the API key (a sensitive
/// header value) and, optionally, a `User-Agent`; and the limit of every
/// response body it reads ([`ClientState::with_max_response_bytes`]).
///
/// Its `Debug` output never shows the key.
///
/// ```
/// use crossborder_api::ClientState;
///
/// let state = ClientState::new()
///     .with_api_key("test_0123456789abcdef")
///     .unwrap();
/// assert!(state.has_api_key());
/// assert!(!format!("{state:?}").contains("0123456789abcdef"));
/// let client = crossborder_api::Client::new("http://127.0.0.1:8080/v1", state);
/// # let _ = client;
/// ```
#[derive(Clone)]
pub struct ClientState {
    api_key: Option<HeaderValue>,
    user_agent: Option<HeaderValue>,
    max_response_bytes: u64,
}

impl Default for ClientState {
    fn default() -> ClientState {
        ClientState {
            api_key: None,
            user_agent: None,
            max_response_bytes: DEFAULT_MAX_RESPONSE_BYTES,
        }
    }
}

impl ClientState {
    /// A state that adds nothing to requests.
    pub fn new() -> ClientState {
        ClientState::default()
    }

    /// Sends `key` as `x-api-key` on every request. The header value is
    /// marked sensitive, so HTTP libraries never print it. Fails when the key
    /// cannot be a header value; the error does not contain the key.
    pub fn with_api_key(self, key: &str) -> Result<ClientState, InvalidHeaderValue> {
        Ok(self.with_api_key_value(HeaderValue::from_str(key)?))
    }

    /// Sends `value` as `x-api-key` on every request, marked sensitive.
    pub fn with_api_key_value(mut self, mut value: HeaderValue) -> ClientState {
        value.set_sensitive(true);
        self.api_key = Some(value);
        self
    }

    /// Sends `value` as `User-Agent` on every request, replacing the HTTP
    /// client's own.
    pub fn with_user_agent(mut self, value: HeaderValue) -> ClientState {
        self.user_agent = Some(value);
        self
    }

    /// Reads no response body larger than `limit` bytes (default
    /// [`DEFAULT_MAX_RESPONSE_BYTES`], 1 MiB): a longer body ends the
    /// operation with an error instead (see [`crate::response`]).
    pub fn with_max_response_bytes(mut self, limit: u64) -> ClientState {
        self.max_response_bytes = limit;
        self
    }

    /// The limit of a response body, in bytes.
    pub fn max_response_bytes(&self) -> u64 {
        self.max_response_bytes
    }

    /// Whether an API key is set.
    pub fn has_api_key(&self) -> bool {
        self.api_key.is_some()
    }

    /// The `User-Agent` sent, if one is set.
    pub fn user_agent(&self) -> Option<&HeaderValue> {
        self.user_agent.as_ref()
    }

    /// Adds the state's headers to `request`, replacing any of the same name.
    ///
    /// The generated client calls this before sending each operation;
    /// hand-written requests (the multipart upload) call it too.
    pub fn apply(&self, request: &mut reqwest::Request) {
        let headers = request.headers_mut();
        if let Some(key) = &self.api_key {
            headers.insert(HeaderName::from_static(API_KEY_HEADER), key.clone());
        }
        if let Some(agent) = &self.user_agent {
            headers.insert(USER_AGENT, agent.clone());
        }
    }
}

impl fmt::Debug for ClientState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClientState")
            .field("api_key", &self.api_key.as_ref().map(|_| "[redacted]"))
            .field("user_agent", &self.user_agent)
            .field("max_response_bytes", &self.max_response_bytes)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn apply_inserts_a_sensitive_key_and_the_user_agent() {
        let state = ClientState::new()
            .with_api_key("live_hidden")
            .unwrap()
            .with_user_agent(HeaderValue::from_static("crossborder-test/1"));
        let mut request =
            reqwest::Request::new(reqwest::Method::GET, "http://127.0.0.1/v1".parse().unwrap());
        request
            .headers_mut()
            .insert(API_KEY_HEADER, HeaderValue::from_static("stale"));
        state.apply(&mut request);
        let key = &request.headers()[API_KEY_HEADER];
        assert_eq!(key, "live_hidden");
        assert!(key.is_sensitive());
        assert_eq!(request.headers()[USER_AGENT], "crossborder-test/1");
        assert!(!format!("{request:?}").contains("hidden"));
    }

    #[test]
    fn debug_hides_the_key() {
        let state = ClientState::new().with_api_key("live_hidden").unwrap();
        let text = format!("{state:?} {state:#?}");
        assert!(!text.contains("hidden"), "{text}");
        assert!(text.contains("[redacted]"), "{text}");
        assert!(!format!("{:?}", ClientState::new()).contains("redacted"));
        let client = crate::Client::new("http://127.0.0.1/v1", state);
        assert!(!format!("{client:?}").contains("hidden"));
        assert!(client.state().has_api_key());
    }

    #[test]
    fn invalid_keys_are_refused_without_echo() {
        let error = ClientState::new()
            .with_api_key("live_bad\nkey")
            .unwrap_err();
        assert!(!error.to_string().contains("bad"));
    }
}
