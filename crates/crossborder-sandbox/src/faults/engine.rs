//! The draws: each business's deterministic generators, the faults they
//! inject, and the log the control API lists.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::time::SystemTime;

use super::kind::Stream;
use super::{FaultConfig, FaultKind, MAX_FAULTS_KEPT, PPM};
use crate::store::account::BusinessId;
use crate::sync::lock;

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
        let mut seeds = SplitMix64(
            config.seed() ^ (business.index() as u64).wrapping_mul(0xA24B_AED4_963E_E407),
        );
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
}
