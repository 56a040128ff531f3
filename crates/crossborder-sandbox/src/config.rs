//! The sandbox's configuration: API keys, starting balances, lifetimes and
//! limits.

use std::collections::BTreeMap;
use std::fmt;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::str::FromStr;
use std::time::Duration;

use crossborder_core::Currency;
use rust_decimal::Decimal;

use crate::clock::Clock;
use crate::faults::FaultConfig;
use crate::http::request_log::RequestLog;
use crate::settlement::PayoutSettlement;

/// The default keys (staging, production, staging without API access) and
/// the environment of a key, as the SDK and the CLI know them.
pub use crossborder_core::environment::{
    Environment, SANDBOX_NO_ACCESS_KEY as NO_ACCESS_KEY, SANDBOX_PRODUCTION_KEY as PRODUCTION_KEY,
    SANDBOX_STAGING_KEY as STAGING_KEY,
};

/// One API key the sandbox accepts, with the business behind it.
///
/// Every key has its own business: its own balances, quotes, collections,
/// payouts, sub-businesses and webhook URL.
///
/// Parsed from text as `KEY` or `KEY noaccess` (also `KEY:noaccess`), the
/// form of `--key` and of a line of a keys file.
///
/// ```
/// use crossborder_sandbox::{ApiKeySpec, Environment};
///
/// let key: ApiKeySpec = "live_merchant_1".parse().unwrap();
/// assert_eq!(key.environment(), Environment::Production);
/// assert!(key.has_api_access());
/// let blocked: ApiKeySpec = "test_blocked noaccess".parse().unwrap();
/// assert!(!blocked.has_api_access());
/// assert!("merchant".parse::<ApiKeySpec>().is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiKeySpec {
    key: String,
    environment: Environment,
    api_access: bool,
}

/// Why a text is not a usable API key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KeyError {
    /// The key does not start with `test_` or `live_`.
    #[error("API key `{0}` must start with `test_` (staging) or `live_` (production)")]
    Prefix(String),
    /// The key has characters a header value cannot carry plainly.
    #[error("API key `{0}` must be printable ASCII without spaces")]
    Characters(String),
    /// A flag after the key is not `noaccess`.
    #[error("unknown flag `{flag}` after API key `{key}` (the only flag is `noaccess`)")]
    Flag {
        /// The key.
        key: String,
        /// The flag that was not understood.
        flag: String,
    },
}

impl ApiKeySpec {
    /// A key with API access; its environment comes from its prefix.
    pub fn new(key: impl Into<String>) -> Result<ApiKeySpec, KeyError> {
        let key = key.into();
        if !key.bytes().all(|b| b.is_ascii_graphic()) || key.is_empty() {
            return Err(KeyError::Characters(key));
        }
        let environment = Environment::of_key(&key).ok_or_else(|| KeyError::Prefix(key.clone()))?;
        Ok(ApiKeySpec {
            key,
            environment,
            api_access: true,
        })
    }

    /// The same key for a business that has not been granted API access.
    pub fn without_api_access(mut self) -> ApiKeySpec {
        self.api_access = false;
        self
    }

    /// The key as sent in `x-api-key`.
    pub fn key(&self) -> &str {
        &self.key
    }

    /// The environment, from the prefix.
    pub fn environment(&self) -> Environment {
        self.environment
    }

    /// Whether the business behind the key may use the API.
    pub fn has_api_access(&self) -> bool {
        self.api_access
    }

    /// The three default keys: [`STAGING_KEY`], [`PRODUCTION_KEY`] and
    /// [`NO_ACCESS_KEY`].
    pub fn defaults() -> Vec<ApiKeySpec> {
        vec![
            ApiKeySpec::known(STAGING_KEY, Environment::Staging, true),
            ApiKeySpec::known(PRODUCTION_KEY, Environment::Production, true),
            ApiKeySpec::known(NO_ACCESS_KEY, Environment::Staging, false),
        ]
    }

    fn known(key: &str, environment: Environment, api_access: bool) -> ApiKeySpec {
        ApiKeySpec {
            key: key.to_owned(),
            environment,
            api_access,
        }
    }
}

impl FromStr for ApiKeySpec {
    type Err = KeyError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let text = text.trim();
        let (key, flag) = match text.split_once(|c: char| c == ':' || c.is_whitespace()) {
            Some((key, flag)) => (key, Some(flag.trim())),
            None => (text, None),
        };
        let spec = ApiKeySpec::new(key)?;
        match flag {
            None => Ok(spec),
            Some("noaccess") => Ok(spec.without_api_access()),
            Some(flag) => Err(KeyError::Flag {
                key: key.to_owned(),
                flag: flag.to_owned(),
            }),
        }
    }
}

impl fmt::Display for ApiKeySpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let environment = self.environment;
        let access = if self.api_access {
            "API access"
        } else {
            "no API access"
        };
        write!(f, "{} ({environment}, {access})", self.key)
    }
}

/// A line of a keys file that is not a key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {error}")]
pub struct KeysFileError {
    /// The 1-based line number.
    pub line: usize,
    /// What is wrong with it.
    pub error: KeyError,
}

/// Parses a keys file: one key per line as `KEY` or `KEY noaccess`; blank
/// lines and lines starting with `#` are ignored.
///
/// ```
/// let keys = crossborder_sandbox::parse_keys_file("# mine\ntest_a\nlive_b noaccess\n").unwrap();
/// assert_eq!(keys.len(), 2);
/// assert!(!keys[1].has_api_access());
/// ```
pub fn parse_keys_file(text: &str) -> Result<Vec<ApiKeySpec>, KeysFileError> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| {
            let line = line.trim();
            !line.is_empty() && !line.starts_with('#')
        })
        .map(|(index, line)| {
            line.parse().map_err(|error| KeysFileError {
                line: index + 1,
                error,
            })
        })
        .collect()
}

/// The starting balance of every business with API access: NGN 5,000,000,
/// USD 10,000 and USDT 10,000; every other currency starts at 0.
pub fn default_starting_balances() -> BTreeMap<Currency, Decimal> {
    BTreeMap::from([
        (Currency::Ngn, Decimal::new(5_000_000, 0)),
        (Currency::Usd, Decimal::new(10_000, 0)),
        (Currency::Usdt, Decimal::new(10_000, 0)),
    ])
}

/// How to run a sandbox. Build it with [`SandboxConfig::default`] and the
/// `with_*` methods.
///
/// ```
/// use std::time::Duration;
/// use crossborder_sandbox::{ApiKeySpec, SandboxConfig};
///
/// let config = SandboxConfig::default()
///     .with_quote_ttl(Duration::from_secs(2))
///     .with_key(ApiKeySpec::new("test_second_merchant").unwrap());
/// assert_eq!(config.keys.len(), 4);
/// ```
#[derive(Debug, Clone)]
pub struct SandboxConfig {
    /// Address to listen on; default `127.0.0.1:0` (a free loopback port).
    pub addr: SocketAddr,
    /// Accepted API keys; default [`ApiKeySpec::defaults`].
    pub keys: Vec<ApiKeySpec>,
    /// Wallet balances every business starts with; default
    /// [`default_starting_balances`]. Missing currencies start at 0.
    pub starting_balances: BTreeMap<Currency, Decimal>,
    /// How long a quote's rateKey is accepted; default 300 s.
    pub quote_ttl: Duration,
    /// How long a collection's payment instruction is valid (the collection
    /// is EXPIRED after that if unpaid); default 24 h.
    pub instruction_ttl: Duration,
    /// Timeout of the one webhook delivery attempt; default 5 s.
    pub webhook_timeout: Duration,
    /// How often lapsed collections are marked `EXPIRED` (and announced by
    /// webhook) without waiting for a read; default 1 s.
    pub expiry_sweep_interval: Duration,
    /// Largest JSON request body accepted; default 1 MiB (413 above).
    pub max_json_body_bytes: usize,
    /// Largest uploaded document accepted; default 20 MB, 20,000,000 bytes (413 above).
    pub max_upload_bytes: usize,
    /// How long a request body may stall (no byte received) before the
    /// request is answered 408; default 30 s.
    pub body_idle_timeout: Duration,
    /// How long a client may take to send a request head before its
    /// connection is closed; default 10 s (see [`crate::limits`]).
    pub head_timeout: Duration,
    /// How many connections are served at once; one over it is answered
    /// `503` and closed; default 1024.
    pub max_connections: usize,
    /// Where the sandbox reads the time; default [`Clock::system`].
    pub clock: Clock,
    /// How every business settles its payouts until it changes its own
    /// setting (`PUT /_sandbox/settings`); default
    /// [`PayoutSettlement::Instant`].
    pub payout_settlement: PayoutSettlement,
    /// Receives one line per answered request; default none.
    pub request_log: Option<RequestLog>,
    /// The faults every business meets until it changes its own
    /// (`PUT /_sandbox/faults`); default [`FaultConfig::off`].
    pub faults: FaultConfig,
}

impl Default for SandboxConfig {
    fn default() -> Self {
        SandboxConfig {
            addr: SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), 0),
            keys: ApiKeySpec::defaults(),
            starting_balances: default_starting_balances(),
            quote_ttl: crossborder_core::quote::QUOTE_LIFETIME,
            instruction_ttl: Duration::from_secs(24 * 60 * 60),
            webhook_timeout: Duration::from_secs(5),
            expiry_sweep_interval: Duration::from_secs(1),
            max_json_body_bytes: 1024 * 1024,
            max_upload_bytes: crossborder_core::kyb::MAX_UPLOAD_BYTES,
            body_idle_timeout: Duration::from_secs(30),
            head_timeout: Duration::from_secs(10),
            max_connections: 1024,
            clock: Clock::system(),
            payout_settlement: PayoutSettlement::Instant,
            request_log: None,
            faults: FaultConfig::off(),
        }
    }
}

impl SandboxConfig {
    /// Listens on `addr` instead of `127.0.0.1:0`.
    pub fn with_addr(mut self, addr: SocketAddr) -> Self {
        self.addr = addr;
        self
    }

    /// Accepts one more key (keeping the others).
    pub fn with_key(mut self, key: ApiKeySpec) -> Self {
        self.keys.retain(|existing| existing.key() != key.key());
        self.keys.push(key);
        self
    }

    /// Accepts exactly `keys`.
    pub fn with_keys(mut self, keys: Vec<ApiKeySpec>) -> Self {
        self.keys = keys;
        self
    }

    /// Sets the starting balance of one currency for every business.
    pub fn with_starting_balance(mut self, currency: Currency, amount: Decimal) -> Self {
        self.starting_balances.insert(currency, amount);
        self
    }

    /// Sets how long a rateKey is accepted.
    pub fn with_quote_ttl(mut self, ttl: Duration) -> Self {
        self.quote_ttl = ttl;
        self
    }

    /// Sets how long a payment instruction is valid.
    pub fn with_instruction_ttl(mut self, ttl: Duration) -> Self {
        self.instruction_ttl = ttl;
        self
    }

    /// Sets how long a request head may take (default 10 s).
    pub fn with_head_timeout(mut self, timeout: Duration) -> Self {
        self.head_timeout = timeout;
        self
    }

    /// Sets how many connections are served at once (default 1024).
    pub fn with_max_connections(mut self, max: usize) -> Self {
        self.max_connections = max;
        self
    }

    /// Sets the webhook delivery timeout.
    pub fn with_webhook_timeout(mut self, timeout: Duration) -> Self {
        self.webhook_timeout = timeout;
        self
    }

    /// Sets how often lapsed collections are swept (at least every 1 ms).
    pub fn with_expiry_sweep_interval(mut self, interval: Duration) -> Self {
        self.expiry_sweep_interval = interval;
        self
    }

    /// Sets the largest JSON body accepted.
    pub fn with_max_json_body_bytes(mut self, bytes: usize) -> Self {
        self.max_json_body_bytes = bytes;
        self
    }

    /// Sets the largest uploaded document accepted.
    pub fn with_max_upload_bytes(mut self, bytes: usize) -> Self {
        self.max_upload_bytes = bytes;
        self
    }

    /// Sets how long a request body may stall before the request is
    /// answered 408.
    pub fn with_body_idle_timeout(mut self, timeout: Duration) -> Self {
        self.body_idle_timeout = timeout;
        self
    }

    /// Hands one [`RequestLine`](crate::RequestLine) per answered request
    /// to `sink` (the binaries print them).
    pub fn with_request_log(
        mut self,
        sink: impl Fn(&crate::RequestLine) + Send + Sync + 'static,
    ) -> Self {
        self.request_log = Some(RequestLog::new(sink));
        self
    }

    /// Settles payouts as `settlement` says (default
    /// [`PayoutSettlement::Instant`]).
    pub fn with_payout_settlement(mut self, settlement: PayoutSettlement) -> Self {
        self.payout_settlement = settlement;
        self
    }

    /// Injects the faults of `faults` (see [`crate::faults`]) into every
    /// business's requests, webhooks and payouts.
    pub fn with_faults(mut self, faults: FaultConfig) -> Self {
        self.faults = faults;
        self
    }

    /// Reads the time from `clock`.
    pub fn with_clock(mut self, clock: Clock) -> Self {
        self.clock = clock;
        self
    }
}
