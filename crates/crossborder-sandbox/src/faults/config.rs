//! A business's fault configuration: its profile, its seed and the rate of
//! each kind, each rate checked when set.

use std::collections::BTreeMap;
use std::str::FromStr;

use rust_decimal::Decimal;

use super::{FaultKind, FaultProfile, PPM};

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

    pub(super) fn ppm(&self, kind: FaultKind) -> u64 {
        let scaled = self.rate(kind) * Decimal::from(PPM);
        u64::try_from(scaled.round()).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
