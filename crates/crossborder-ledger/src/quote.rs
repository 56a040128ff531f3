//! Quotes taken by the dispatcher for converting payouts recorded without
//! a `rateKey`, the rate guard that turns a quote down, and the typed
//! reason a payout ended unpaid.

use std::time::SystemTime;

use crossborder::types::Quote;
use crossborder::Decimal;
use serde::{Deserialize, Serialize};

use crate::time::{from_ms, to_ms};

/// The worst rate a caller accepts for a payout the ledger quotes, and
/// until when a better quote is waited for.
///
/// A quote whose `rate` (units of `toCurrency` per unit of
/// `fromCurrency`) is below `worst_rate` is not used: the payout stays
/// `recorded`, its history shows the quote turned down, and it is quoted
/// again with back-off ([`DispatchOptions::poll`](crate::DispatchOptions::poll)).
/// When a quote comes no better by `deadline`, the payout ends `refused`
/// with [`PayoutReason::RateGuard`]; nothing is paid.
///
/// ```
/// use std::time::{Duration, SystemTime};
/// use crossborder::Decimal;
/// use crossborder_ledger::RateGuard;
///
/// let guard = RateGuard::new(Decimal::new(1500, 0), SystemTime::now() + Duration::from_secs(3600));
/// assert!(guard.accepts(Decimal::new(153_025, 2)));
/// assert!(!guard.accepts(Decimal::new(1499, 0)));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateGuard {
    /// The lowest rate accepted: units of `toCurrency` per unit of
    /// `fromCurrency`, as the quote's `rate`.
    pub worst_rate: Decimal,
    /// When the payout stops waiting for a better quote and ends.
    pub deadline: SystemTime,
}

impl RateGuard {
    /// A guard accepting rates of `worst_rate` or better until `deadline`.
    pub fn new(worst_rate: Decimal, deadline: SystemTime) -> RateGuard {
        RateGuard {
            worst_rate,
            deadline,
        }
    }

    /// Whether a quote at `rate` may be used.
    pub fn accepts(&self, rate: Decimal) -> bool {
        rate >= self.worst_rate
    }
}

/// A quote the dispatcher took for a payout, as its history keeps it
/// ([`PayoutEvent::quote`](crate::PayoutEvent::quote)): the one it was sent
/// with (`recorded -> sending`, or a re-quote while `sending`), or one the
/// rate guard turned down.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PayoutQuote {
    /// Units of `toCurrency` per unit of `fromCurrency`.
    #[serde(with = "rust_decimal::serde::str")]
    pub rate: Decimal,
    /// The key the payout is sent with.
    pub rate_key: String,
    /// The fee, in `fromCurrency`, when the service gave it.
    #[serde(with = "rust_decimal::serde::str_option", default)]
    pub fee: Option<Decimal>,
    /// The amount received, in `toCurrency`, when the service gave it.
    #[serde(with = "rust_decimal::serde::str_option", default)]
    pub to_amount: Option<Decimal>,
    /// The amount debited (amount plus fee), in `fromCurrency`, when the
    /// service gave it.
    #[serde(with = "rust_decimal::serde::str_option", default)]
    pub total_amount: Option<Decimal>,
    /// When the rate key stops being used (the SDK's
    /// [`Quote::valid_until`]).
    #[serde(with = "crate::time::rfc3339", skip_deserializing, default = "epoch")]
    pub valid_until: SystemTime,
    /// Whether the payout was sent with it; false: the rate guard turned
    /// it down.
    pub used: bool,
    /// [`valid_until`](PayoutQuote::valid_until) as stored.
    #[serde(rename = "validUntilMs", skip_serializing)]
    pub(crate) valid_until_ms: i64,
}

fn epoch() -> SystemTime {
    SystemTime::UNIX_EPOCH
}

impl PayoutQuote {
    pub(crate) fn of(quote: &Quote, used: bool) -> PayoutQuote {
        PayoutQuote {
            used,
            rate: quote.rate,
            rate_key: quote.rate_key.clone(),
            fee: quote.fee,
            to_amount: quote.to_amount,
            total_amount: quote.total_amount,
            // To the millisecond, as stored.
            valid_until: from_ms(to_ms(quote.valid_until)),
            valid_until_ms: to_ms(quote.valid_until),
        }
    }

    /// As stored in the database (JSON, the time in ms).
    pub(crate) fn to_stored(&self) -> String {
        let mut value = serde_json::to_value(self).unwrap_or_default();
        if let Some(object) = value.as_object_mut() {
            object.remove("validUntil");
            object.insert("validUntilMs".into(), self.valid_until_ms.into());
        }
        value.to_string()
    }

    /// Read back from [`to_stored`](PayoutQuote::to_stored)'s text.
    pub(crate) fn from_stored(text: &str) -> Result<PayoutQuote, String> {
        let mut quote: PayoutQuote = serde_json::from_str(text).map_err(|e| e.to_string())?;
        quote.valid_until = from_ms(quote.valid_until_ms);
        Ok(quote)
    }
}

/// Why a payout ended without being paid (`refused`), or why the service
/// failed it (`failed`): [`PayoutRecord::reason`](crate::PayoutRecord::reason).
/// Serialises with a stable `code` (`api_refused`, `quote_expired`,
/// `rate_guard`, `invalid`, `service_failed`) beside its details, as
/// `ledger list --json` and `ledger show --json` print it.
///
/// ```
/// use crossborder_ledger::PayoutReason;
///
/// let reason = PayoutReason::ApiRefused { status: Some(400), message: "Insufficient balance".into() };
/// assert_eq!(reason.code(), "api_refused");
/// assert_eq!(
///     serde_json::to_value(&reason).unwrap(),
///     serde_json::json!({"code": "api_refused", "status": 400, "message": "Insufficient balance"})
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    tag = "code",
    rename_all = "snake_case",
    rename_all_fields = "camelCase"
)]
#[non_exhaustive]
pub enum PayoutReason {
    /// The API refused the payout (a 4xx): its status and message.
    ApiRefused {
        /// The HTTP status, when the refusal came from the service.
        status: Option<u16>,
        /// The API's message.
        message: String,
    },
    /// The payout's own `rateKey` (given by the caller) expired before it
    /// was sent; the ledger does not renew a caller's quote.
    QuoteExpired {
        /// The expired key.
        rate_key: String,
        /// When it expired, RFC 3339.
        expired_at: String,
    },
    /// Every quote until the guard's deadline was worse than its worst
    /// accepted rate ([`RateGuard`]).
    RateGuard {
        /// The worst rate the guard accepted.
        #[serde(with = "rust_decimal::serde::str")]
        worst_rate: Decimal,
        /// The last quote's rate.
        #[serde(with = "rust_decimal::serde::str")]
        last_rate: Decimal,
        /// The guard's deadline, RFC 3339.
        deadline: String,
    },
    /// The request breaks the API's rules as the SDK checks them.
    Invalid {
        /// Every violation.
        message: String,
    },
    /// The service reports the payout `FAILED`.
    ServiceFailed {
        /// The ledger's account of it.
        message: String,
    },
}

impl PayoutReason {
    /// The stable code: `api_refused`, `quote_expired`, `rate_guard`,
    /// `invalid` or `service_failed`.
    pub fn code(&self) -> &'static str {
        match self {
            PayoutReason::ApiRefused { .. } => "api_refused",
            PayoutReason::QuoteExpired { .. } => "quote_expired",
            PayoutReason::RateGuard { .. } => "rate_guard",
            PayoutReason::Invalid { .. } => "invalid",
            PayoutReason::ServiceFailed { .. } => "service_failed",
        }
    }

    pub(crate) fn to_stored(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quote_round_trips_through_its_stored_text_to_the_millisecond() {
        let at = from_ms(1_790_000_000_123);
        let quote = PayoutQuote {
            rate: Decimal::new(153_025, 2),
            rate_key: "rk_7".into(),
            fee: Some(Decimal::new(50, 2)),
            to_amount: Some(Decimal::new(15_302_500, 2)),
            total_amount: Some(Decimal::new(10_050, 2)),
            valid_until: at,
            used: true,
            valid_until_ms: 1_790_000_000_123,
        };
        let stored = quote.to_stored();
        assert_eq!(PayoutQuote::from_stored(&stored), Ok(quote.clone()));
        assert_eq!(
            serde_json::to_value(&quote).unwrap(),
            serde_json::json!({"rate": "1530.25", "rateKey": "rk_7", "fee": "0.50",
                "toAmount": "153025.00", "totalAmount": "100.50",
                "validUntil": "2026-09-21T14:13:20.123Z", "used": true})
        );
    }

    #[test]
    fn each_reason_has_its_code_and_round_trips() {
        let reasons = [
            PayoutReason::ApiRefused {
                status: Some(400),
                message: "no".into(),
            },
            PayoutReason::QuoteExpired {
                rate_key: "rk".into(),
                expired_at: "2026-01-01T00:00:00Z".into(),
            },
            PayoutReason::RateGuard {
                worst_rate: Decimal::new(1600, 0),
                last_rate: Decimal::new(153_025, 2),
                deadline: "2026-01-01T00:00:00Z".into(),
            },
            PayoutReason::Invalid {
                message: "amount: is required".into(),
            },
            PayoutReason::ServiceFailed {
                message: "failed".into(),
            },
        ];
        for reason in reasons {
            let value = serde_json::to_value(&reason).unwrap();
            assert_eq!(value["code"], reason.code());
            let back: PayoutReason = serde_json::from_str(&reason.to_stored()).unwrap();
            assert_eq!(back, reason);
        }
    }
}
