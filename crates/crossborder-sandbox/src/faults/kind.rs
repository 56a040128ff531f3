//! The kinds of fault, the stream each is drawn from, and the named
//! profiles of rates.

use std::fmt;
use std::str::FromStr;

use rust_decimal::Decimal;

use super::FaultConfigError;

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
    /// A webhook event is POSTed [`WEBHOOK_DELAY`](super::WEBHOOK_DELAY) late.
    WebhookDelayed,
    /// A payout accepted (`200`) that would have completed fails and is
    /// refunded in full, as the control API's `fail` does.
    PayoutFailed,
    /// A payout accepted under `instant` settlement stays `PENDING` and
    /// settles [`PAYOUT_LATE`](super::PAYOUT_LATE) later on the sandbox's clock.
    PayoutSettledLate,
    /// A converting payout's quote lapses before its `validUntil`: the
    /// payout is refused `rateKey is unknown or expired`, and so is every
    /// later use of that rateKey.
    QuoteLapsedEarly,
    /// A webhook event is held and POSTed right after its collection's next
    /// event (an older status after a newer one), or on its own
    /// [`REORDER_HOLD`](super::REORDER_HOLD) later if none comes.
    WebhookReordered,
    /// A write is refused before it is read: its connection is closed
    /// without an answer, and nothing is applied.
    WriteRefusedClose,
    /// A write is applied, then its answer held [`ANSWER_HOLD`](super::ANSWER_HOLD) (past the
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
    pub(super) fn stream(self) -> Stream {
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
    pub(super) fn standard_rate(self) -> Decimal {
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

    pub(super) fn names() -> String {
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

/// The draw streams of one business.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Stream {
    Write,
    Read,
    Webhook,
    Payout,
    Quote,
}
