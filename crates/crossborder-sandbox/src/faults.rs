//! Fault modes: production's failures, injected on purpose and
//! reproducibly, so that an integration's tests meet them before launch.
//!
//! A [`FaultConfig`] names a [`FaultProfile`] (`off` or `standard`), a seed,
//! and the rate (0 to 1) of each [`FaultKind`]. Each business draws its
//! faults from its own three streams of a small deterministic generator
//! (SplitMix64), seeded from the seed and the business's place among the
//! configured keys: one stream for its API requests, one for its webhook
//! deliveries, one for its accepted payouts. One draw is made per request
//! (per delivery, per payout) in the order the sandbox receives them, so
//! the same seed and the same sequence of requests give the same faults.
//! Concurrent requests of one business draw in the order they reach the
//! sandbox, which the network decides: a test that wants the same fault
//! list twice sends each business's requests one at a time (requests of
//! different businesses never affect each other's draws).
//!
//! ```
//! use crossborder_sandbox::faults::{FaultConfig, FaultKind, FaultProfile};
//! use rust_decimal::Decimal;
//!
//! let config = FaultConfig::standard(42).with_rate(FaultKind::PayoutFailed, Decimal::new(5, 1)).unwrap();
//! assert_eq!(config.profile(), FaultProfile::Standard);
//! assert_eq!(config.seed(), 42);
//! assert_eq!(config.rate(FaultKind::PayoutFailed), Decimal::new(5, 1));
//! assert!("chaos".parse::<FaultProfile>().unwrap_err().to_string().contains("off, standard"));
//! ```

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::fmt;
use std::str::FromStr;
use std::sync::Mutex;
use std::time::{Duration, SystemTime};

use rust_decimal::Decimal;

use crate::store::account::BusinessId;
use crate::sync::lock;

/// How long a delayed webhook waits before its one POST.
pub const WEBHOOK_DELAY: Duration = Duration::from_secs(2);

/// How long a `write_applied_held` answer is held: past the SDK's default
/// 30 s timeout and most clients'.
pub const ANSWER_HOLD: Duration = Duration::from_secs(60);

/// How long a `webhook_reordered` event waits for its collection's next
/// event before it is sent on its own.
pub const REORDER_HOLD: Duration = Duration::from_secs(5);

/// How late a `payout_settled_late` payout settles, on the sandbox's clock.
pub const PAYOUT_LATE: Duration = Duration::from_secs(60);

/// The `Retry-After` of a `write_refused_429` or `read_429`, in seconds.
pub const RETRY_AFTER_SECS: u64 = 1;

/// How many injected faults each business keeps (older ones are forgotten).
pub const MAX_FAULTS_KEPT: usize = 1000;

/// The write kinds, in the order of their draw.
const WRITE_KINDS: [FaultKind; 7] = [
    FaultKind::WriteApplied502,
    FaultKind::WriteApplied504,
    FaultKind::WriteAppliedClose,
    FaultKind::WriteRefused503,
    FaultKind::WriteRefused429,
    FaultKind::WriteRefusedClose,
    FaultKind::WriteAppliedHeld,
];

/// The webhook kinds, in the order of their draw.
const WEBHOOK_KINDS: [FaultKind; 4] = [
    FaultKind::WebhookDropped,
    FaultKind::WebhookDuplicated,
    FaultKind::WebhookDelayed,
    FaultKind::WebhookReordered,
];

/// Rates are held in parts per million: a rate is rounded to 6 decimals.
const PPM: u64 = 1_000_000;

/// One kind of failure the sandbox can inject. More may come: match with a
/// wildcard arm.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum FaultKind {
    /// A write (`POST`, `PUT`, `PATCH`) is applied, then answered `502`.
    WriteApplied502,
    /// A write is applied, then answered `504`.
    WriteApplied504,
    /// A write is applied, then its connection is closed without an answer.
    WriteAppliedClose,
    /// A write is refused before it is applied: `503`.
    WriteRefused503,
    /// A write is refused before it is applied: `429` with `Retry-After`.
    WriteRefused429,
    /// A read (`GET`) is answered `502` without being served.
    Read502,
    /// A read is answered `503`.
    Read503,
    /// A read is answered `429` with `Retry-After`.
    Read429,
    /// A read's connection is closed without an answer.
    ReadClose,
    /// A webhook event is never POSTed.
    WebhookDropped,
    /// A webhook event is POSTed twice (two deliveries, the same body).
    WebhookDuplicated,
    /// A webhook event is POSTed [`WEBHOOK_DELAY`] late.
    WebhookDelayed,
    /// A payout accepted (`200`) that would have completed fails and is
    /// refunded in full, as the control API's `fail` does.
    PayoutFailed,
    /// A payout accepted under `instant` settlement stays `PENDING` and
    /// settles [`PAYOUT_LATE`] later on the sandbox's clock.
    PayoutSettledLate,
    /// A converting payout's quote lapses before its `validUntil`: the
    /// payout is refused `rateKey is unknown or expired`, and so is every
    /// later use of that rateKey.
    QuoteLapsedEarly,
    /// A webhook event is held and POSTed right after its collection's next
    /// event (an older status after a newer one), or on its own
    /// [`REORDER_HOLD`] later if none comes.
    WebhookReordered,
    /// A write is refused before it is read: its connection is closed
    /// without an answer, and nothing is applied.
    WriteRefusedClose,
    /// A write is applied, then its answer held [`ANSWER_HOLD`] (past the
    /// client's timeout). Not in the `standard` profile (each would cost a
    /// test its client's whole timeout): set its rate.
    WriteAppliedHeld,
}

impl FaultKind {
    /// Every kind, in the order of their names' list.
    pub const ALL: [FaultKind; 18] = [
        FaultKind::WriteApplied502,
        FaultKind::WriteApplied504,
        FaultKind::WriteAppliedClose,
        FaultKind::WriteRefused503,
        FaultKind::WriteRefused429,
        FaultKind::Read502,
        FaultKind::Read503,
        FaultKind::Read429,
        FaultKind::ReadClose,
        FaultKind::WebhookDropped,
        FaultKind::WebhookDuplicated,
        FaultKind::WebhookDelayed,
        FaultKind::PayoutFailed,
        FaultKind::PayoutSettledLate,
        FaultKind::QuoteLapsedEarly,
        FaultKind::WebhookReordered,
        FaultKind::WriteRefusedClose,
        FaultKind::WriteAppliedHeld,
    ];

    /// The kind's name: `write_applied_502`, `webhook_dropped`...
    pub fn as_str(self) -> &'static str {
        match self {
            FaultKind::WriteApplied502 => "write_applied_502",
            FaultKind::WriteApplied504 => "write_applied_504",
            FaultKind::WriteAppliedClose => "write_applied_close",
            FaultKind::WriteRefused503 => "write_refused_503",
            FaultKind::WriteRefused429 => "write_refused_429",
            FaultKind::Read502 => "read_502",
            FaultKind::Read503 => "read_503",
            FaultKind::Read429 => "read_429",
            FaultKind::ReadClose => "read_close",
            FaultKind::WebhookDropped => "webhook_dropped",
            FaultKind::WebhookDuplicated => "webhook_duplicated",
            FaultKind::WebhookDelayed => "webhook_delayed",
            FaultKind::PayoutFailed => "payout_failed",
            FaultKind::PayoutSettledLate => "payout_settled_late",
            FaultKind::QuoteLapsedEarly => "quote_lapsed_early",
            FaultKind::WebhookReordered => "webhook_reordered",
            FaultKind::WriteRefusedClose => "write_refused_close",
            FaultKind::WriteAppliedHeld => "write_applied_held",
        }
    }

    /// The stream the kind is drawn from.
    fn stream(self) -> Stream {
        match self {
            FaultKind::WriteApplied502
            | FaultKind::WriteApplied504
            | FaultKind::WriteAppliedClose
            | FaultKind::WriteRefused503
            | FaultKind::WriteRefused429
            | FaultKind::WriteRefusedClose
            | FaultKind::WriteAppliedHeld => Stream::Write,
            FaultKind::Read502 | FaultKind::Read503 | FaultKind::Read429 | FaultKind::ReadClose => {
                Stream::Read
            }
            FaultKind::WebhookDropped
            | FaultKind::WebhookDuplicated
            | FaultKind::WebhookDelayed
            | FaultKind::WebhookReordered => Stream::Webhook,
            FaultKind::PayoutFailed | FaultKind::PayoutSettledLate => Stream::Payout,
            FaultKind::QuoteLapsedEarly => Stream::Quote,
        }
    }

    /// The rate of the kind under the `standard` profile.
    fn standard_rate(self) -> Decimal {
        if self == FaultKind::WriteAppliedHeld {
            return Decimal::ZERO;
        }
        match self.stream() {
            // 18 % of writes and 12 % of reads fail, 3 % each kind; 5 % of
            // webhooks, payouts and quotes for each kind.
            Stream::Write | Stream::Read => Decimal::new(3, 2),
            Stream::Webhook | Stream::Payout | Stream::Quote => Decimal::new(5, 2),
        }
    }

    fn names() -> String {
        FaultKind::ALL.map(FaultKind::as_str).join(", ")
    }
}

impl fmt::Display for FaultKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for FaultKind {
    type Err = FaultConfigError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        FaultKind::ALL
            .into_iter()
            .find(|kind| kind.as_str() == text.trim())
            .ok_or_else(|| FaultConfigError::UnknownKind(text.trim().to_owned()))
    }
}

/// A named set of rates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FaultProfile {
    /// No faults (the default).
    #[default]
    Off,
    /// Every kind but `write_applied_held` at a rate a test of a few
    /// hundred calls meets: 3 % of writes and of reads for each request
    /// kind, 5 % for each webhook, payout and quote kind.
    Standard,
}

impl FaultProfile {
    /// `off` or `standard`.
    pub fn as_str(self) -> &'static str {
        match self {
            FaultProfile::Off => "off",
            FaultProfile::Standard => "standard",
        }
    }
}

impl fmt::Display for FaultProfile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for FaultProfile {
    type Err = FaultConfigError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text.trim() {
            "off" => Ok(FaultProfile::Off),
            "standard" => Ok(FaultProfile::Standard),
            other => Err(FaultConfigError::UnknownProfile(other.to_owned())),
        }
    }
}

/// Why a fault setting was refused; each message names the valid choices.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FaultConfigError {
    /// Not `off` or `standard`.
    #[error("unknown fault profile `{0}` (valid: off, standard)")]
    UnknownProfile(String),
    /// Not one of [`FaultKind::ALL`].
    #[error("unknown fault kind `{0}` (valid: {kinds})", kinds = FaultKind::names())]
    UnknownKind(String),
    /// Not a decimal from 0 to 1.
    #[error("fault rate of {kind} must be a decimal from 0 to 1, such as 0.05; got {rate}")]
    Rate {
        /// The kind.
        kind: String,
        /// The rate as given.
        rate: String,
    },
    /// The kinds drawn from one stream add up to more than 1.
    #[error("the rates of {kinds} add up to {sum}, more than 1")]
    Sum {
        /// The kinds of the stream.
        kinds: String,
        /// Their sum.
        sum: Decimal,
    },
    /// A `--fault-rate` that is not `KIND=RATE`.
    #[error("fault rate `{0}` must be KIND=RATE, such as payout_failed=0.1")]
    Form(String),
}

/// A fault rate given as `KIND=RATE` (the form of `--fault-rate`).
///
/// ```
/// use crossborder_sandbox::faults::{FaultKind, FaultRate};
/// let rate: FaultRate = "webhook_dropped=0.5".parse().unwrap();
/// assert_eq!(rate.kind, FaultKind::WebhookDropped);
/// assert!("webhook_dropped=1.5".parse::<FaultRate>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FaultRate {
    /// The kind.
    pub kind: FaultKind,
    /// Its rate, 0 to 1.
    pub rate: Decimal,
}

impl FromStr for FaultRate {
    type Err = FaultConfigError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let (kind, rate) = text
            .split_once('=')
            .ok_or_else(|| FaultConfigError::Form(text.to_owned()))?;
        let kind: FaultKind = kind.parse()?;
        let rate = parse_rate(kind, rate)?;
        Ok(FaultRate { kind, rate })
    }
}

/// A rate from its text: a decimal from 0 to 1.
pub(crate) fn parse_rate(kind: FaultKind, text: &str) -> Result<Decimal, FaultConfigError> {
    let refused = || FaultConfigError::Rate {
        kind: kind.to_string(),
        rate: text.to_owned(),
    };
    let rate = Decimal::from_str(text.trim()).map_err(|_| refused())?;
    check_rate(kind, rate).map_err(|_| refused())
}

fn check_rate(kind: FaultKind, rate: Decimal) -> Result<Decimal, FaultConfigError> {
    if rate < Decimal::ZERO || rate > Decimal::ONE {
        return Err(FaultConfigError::Rate {
            kind: kind.to_string(),
            rate: rate.to_string(),
        });
    }
    Ok(rate.round_dp(6).normalize())
}

/// Which faults a business meets, and the seed they are drawn with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FaultConfig {
    profile: FaultProfile,
    seed: u64,
    rates: BTreeMap<FaultKind, Decimal>,
}

impl Default for FaultConfig {
    /// [`FaultConfig::off`] with seed 0.
    fn default() -> Self {
        FaultConfig::off()
    }
}

impl FaultConfig {
    /// No faults.
    pub fn off() -> FaultConfig {
        FaultConfig::profile_with_seed(FaultProfile::Off, 0)
    }

    /// The `standard` profile, drawn with `seed`.
    pub fn standard(seed: u64) -> FaultConfig {
        FaultConfig::profile_with_seed(FaultProfile::Standard, seed)
    }

    /// `profile`'s rates, drawn with `seed`.
    pub fn profile_with_seed(profile: FaultProfile, seed: u64) -> FaultConfig {
        let rates = FaultKind::ALL
            .into_iter()
            .map(|kind| {
                let rate = match profile {
                    FaultProfile::Off => Decimal::ZERO,
                    FaultProfile::Standard => kind.standard_rate(),
                };
                (kind, rate)
            })
            .collect();
        FaultConfig {
            profile,
            seed,
            rates,
        }
    }

    /// Sets one kind's rate (0 to 1); refused when out of range or when the
    /// kinds of its stream (writes, reads, webhooks) would add up to more
    /// than 1.
    pub fn with_rate(mut self, kind: FaultKind, rate: Decimal) -> Result<Self, FaultConfigError> {
        let rate = check_rate(kind, rate)?;
        self.rates.insert(kind, rate);
        let stream = kind.stream();
        let kinds: Vec<FaultKind> = FaultKind::ALL
            .into_iter()
            .filter(|other| other.stream() == stream)
            .collect();
        let sum: Decimal = kinds.iter().map(|kind| self.rate(*kind)).sum();
        if sum > Decimal::ONE {
            return Err(FaultConfigError::Sum {
                kinds: kinds
                    .iter()
                    .map(|kind| kind.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
                sum,
            });
        }
        Ok(self)
    }

    /// Draws with `seed` instead.
    pub fn with_seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// The profile the rates started from.
    pub fn profile(&self) -> FaultProfile {
        self.profile
    }

    /// The seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The rate of `kind`, 0 to 1.
    pub fn rate(&self, kind: FaultKind) -> Decimal {
        self.rates.get(&kind).copied().unwrap_or_default()
    }

    /// Every kind's rate.
    pub fn rates(&self) -> &BTreeMap<FaultKind, Decimal> {
        &self.rates
    }

    /// Whether any rate is above 0.
    pub fn is_active(&self) -> bool {
        self.rates.values().any(|rate| !rate.is_zero())
    }

    fn ppm(&self, kind: FaultKind) -> u64 {
        let scaled = self.rate(kind) * Decimal::from(PPM);
        u64::try_from(scaled.round()).unwrap_or(0)
    }
}

/// The draw streams of one business.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stream {
    Write,
    Read,
    Webhook,
    Payout,
    Quote,
}

/// SplitMix64: small, fast and the same on every platform.
#[derive(Debug, Clone)]
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// An injected fault, as the control API lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FaultRecord {
    pub(crate) id: String,
    pub(crate) at: SystemTime,
    pub(crate) kind: FaultKind,
    /// What it hit: `POST /v1/api/payout`, a delivery id, a sessionId.
    pub(crate) target: String,
    /// What the sandbox did: whether the request was applied and what it
    /// answered before the fault.
    pub(crate) applied: String,
}

/// One business's fault state.
#[derive(Debug)]
struct BusinessFaults {
    config: FaultConfig,
    requests: SplitMix64,
    webhooks: SplitMix64,
    payouts: SplitMix64,
    quotes: SplitMix64,
    log: VecDeque<FaultRecord>,
    next_id: u64,
}

impl BusinessFaults {
    fn new(config: FaultConfig, business: BusinessId) -> BusinessFaults {
        let mut seeds =
            SplitMix64(config.seed ^ (business.index() as u64).wrapping_mul(0xA24B_AED4_963E_E407));
        BusinessFaults {
            requests: SplitMix64(seeds.next()),
            webhooks: SplitMix64(seeds.next()),
            payouts: SplitMix64(seeds.next()),
            quotes: SplitMix64(seeds.next()),
            config,
            log: VecDeque::new(),
            next_id: 1,
        }
    }

    /// One draw from `stream`'s generator among `kinds`.
    fn draw(&mut self, stream: Stream, kinds: &[FaultKind]) -> Option<FaultKind> {
        let generator = match stream {
            Stream::Write | Stream::Read => &mut self.requests,
            Stream::Webhook => &mut self.webhooks,
            Stream::Payout => &mut self.payouts,
            Stream::Quote => &mut self.quotes,
        };
        let roll = generator.next() % PPM;
        let mut bound = 0;
        for kind in kinds {
            bound += self.config.ppm(*kind);
            if roll < bound {
                return Some(*kind);
            }
        }
        None
    }

    fn record(
        &mut self,
        at: SystemTime,
        kind: FaultKind,
        target: String,
        applied: String,
    ) -> String {
        let id = format!("flt_{:06}", self.next_id);
        self.next_id += 1;
        if self.log.len() >= MAX_FAULTS_KEPT {
            self.log.pop_front();
        }
        self.log.push_back(FaultRecord {
            id: id.clone(),
            at,
            kind,
            target,
            applied,
        });
        id
    }
}

/// Every business's fault state.
#[derive(Debug)]
pub(crate) struct FaultEngine {
    default: FaultConfig,
    businesses: Mutex<HashMap<BusinessId, BusinessFaults>>,
}

impl FaultEngine {
    pub(crate) fn new(default: FaultConfig) -> FaultEngine {
        FaultEngine {
            default,
            businesses: Mutex::new(HashMap::new()),
        }
    }

    fn with<T>(&self, business: BusinessId, act: impl FnOnce(&mut BusinessFaults) -> T) -> T {
        let mut all = lock(&self.businesses);
        let faults = all
            .entry(business)
            .or_insert_with(|| BusinessFaults::new(self.default.clone(), business));
        act(faults)
    }

    /// The fault a request of `business` meets, if any: one draw per
    /// request.
    pub(crate) fn draw_request(&self, business: BusinessId, write: bool) -> Option<FaultKind> {
        let (stream, kinds): (Stream, &[FaultKind]) = if write {
            (Stream::Write, &WRITE_KINDS)
        } else {
            (Stream::Read, &FaultKind::ALL[5..9])
        };
        self.with(business, |faults| {
            faults
                .config
                .is_active()
                .then(|| faults.draw(stream, kinds))
                .flatten()
        })
    }

    /// The fault a webhook event of `business` meets, if any.
    pub(crate) fn draw_webhook(&self, business: BusinessId) -> Option<FaultKind> {
        self.with(business, |faults| {
            faults
                .config
                .is_active()
                .then(|| faults.draw(Stream::Webhook, &WEBHOOK_KINDS))
                .flatten()
        })
    }

    /// The fault an accepted payout of `business` that would complete
    /// meets, if any: it fails, or it settles late.
    pub(crate) fn draw_payout(&self, business: BusinessId) -> Option<FaultKind> {
        self.with(business, |faults| {
            faults
                .config
                .is_active()
                .then(|| faults.draw(Stream::Payout, &FaultKind::ALL[12..14]))
                .flatten()
        })
    }

    /// Whether the usable quote of a converting payout of `business`
    /// lapses now.
    pub(crate) fn draw_quote(&self, business: BusinessId) -> bool {
        self.with(business, |faults| {
            faults.config.is_active()
                && faults
                    .draw(Stream::Quote, &[FaultKind::QuoteLapsedEarly])
                    .is_some()
        })
    }

    /// Records a fault injected on `business` and returns its id.
    pub(crate) fn record(
        &self,
        business: BusinessId,
        at: SystemTime,
        kind: FaultKind,
        target: impl Into<String>,
        applied: impl Into<String>,
    ) -> String {
        self.with(business, |faults| {
            faults.record(at, kind, target.into(), applied.into())
        })
    }

    /// The faults injected on `business`, newest first.
    pub(crate) fn of(&self, business: BusinessId) -> Vec<FaultRecord> {
        self.with(business, |faults| {
            faults.log.iter().rev().cloned().collect()
        })
    }

    /// The configuration of `business`.
    pub(crate) fn config(&self, business: BusinessId) -> FaultConfig {
        self.with(business, |faults| faults.config.clone())
    }

    /// Forgets the faults injected on `business` and restarts its draws
    /// from its seed (a reset of its business): the same requests after a
    /// reset meet the same faults again.
    pub(crate) fn restart(&self, business: BusinessId) {
        self.with(business, |faults| {
            *faults = BusinessFaults::new(faults.config.clone(), business);
        });
    }

    /// Sets the configuration of `business` and restarts its streams from
    /// the seed (the faults already injected stay listed).
    pub(crate) fn set(&self, business: BusinessId, config: FaultConfig) {
        self.with(business, |faults| {
            let fresh = BusinessFaults::new(config, business);
            faults.config = fresh.config;
            faults.requests = fresh.requests;
            faults.webhooks = fresh.webhooks;
            faults.payouts = fresh.payouts;
            faults.quotes = fresh.quotes;
        });
    }
}

/// Marks a response the fault middleware changed, for the request log and
/// the control API's request list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct InjectedFault(pub(crate) FaultKind);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_draws_the_same_faults_and_another_seed_others() {
        let draws = |seed: u64| {
            let engine = FaultEngine::new(FaultConfig::standard(seed));
            (0..500)
                .map(|index| engine.draw_request(BusinessId::new(0), index % 2 == 0))
                .collect::<Vec<_>>()
        };
        assert_eq!(draws(7), draws(7));
        assert_ne!(draws(7), draws(8));
        let hits = draws(7).into_iter().flatten().count();
        // About 13.5 % of 500.
        assert!((30..110).contains(&hits), "{hits}");
    }

    #[test]
    fn off_draws_nothing() {
        let engine = FaultEngine::new(FaultConfig::off());
        assert!((0..200).all(|_| engine.draw_request(BusinessId::new(0), true).is_none()));
        assert_eq!(engine.draw_payout(BusinessId::new(0)), None);
        assert!(!engine.draw_quote(BusinessId::new(0)));
    }

    #[test]
    fn rates_are_refused_outside_0_to_1_and_above_1_in_sum() {
        let error = FaultConfig::off()
            .with_rate(FaultKind::Read429, Decimal::new(15, 1))
            .unwrap_err();
        assert_eq!(
            error.to_string(),
            "fault rate of read_429 must be a decimal from 0 to 1, such as 0.05; got 1.5"
        );
        let error = FaultConfig::off()
            .with_rate(FaultKind::Read429, Decimal::new(6, 1))
            .and_then(|config| config.with_rate(FaultKind::Read503, Decimal::new(6, 1)))
            .unwrap_err();
        assert_eq!(
            error.to_string(),
            "the rates of read_502, read_503, read_429, read_close add up to 1.2, more than 1"
        );
    }
}
