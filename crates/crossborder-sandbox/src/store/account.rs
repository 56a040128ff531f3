//! The state of the business behind one API key: wallets, quotes,
//! collections, payouts, simulated fundings, sub-businesses and webhook URL.
//!
//! One account sits behind one lock (see [`crate::store::state::KeyEntry`]), so
//! each request's read-check-write on it is atomic.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::time::SystemTime;

use crossborder_api::types::MessageResponse;
use crossborder_core::Currency;
use rust_decimal::Decimal;

use crate::http::error::ApiError;
use crate::rates::QuoteRecord;
use crate::settlement::PayoutSettlement;
use crate::store::business::BusinessRecord;
use crate::store::idempotency::IdempotentRequest;
use crate::store::records::{CollectionRecord, PayoutRecord};

/// Which business a key belongs to (one business per key), for state kept
/// outside the account, such as uploaded documents.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct BusinessId(usize);

impl BusinessId {
    /// The business of the `index`th configured key.
    pub(crate) fn new(index: usize) -> BusinessId {
        BusinessId(index)
    }

    /// The place of its key among the configured keys.
    pub(crate) fn index(self) -> usize {
        self.0
    }
}

/// Quotes kept before expired ones are first pruned.
const QUOTES_BEFORE_PRUNING: usize = 1024;

/// One business's state.
#[derive(Debug, Default)]
pub(crate) struct Account {
    balances: BTreeMap<Currency, Decimal>,
    quotes: HashMap<String, QuoteRecord>,
    /// How many quotes are kept before the next pruning of expired ones:
    /// twice what the last pruning kept (at least
    /// [`QUOTES_BEFORE_PRUNING`]), so a burst of unexpired quotes is scanned
    /// once per doubling, not on every new quote.
    prune_quotes_at: usize,
    /// Collections by the caller's paymentReference.
    pub(crate) collections: HashMap<String, CollectionRecord>,
    /// paymentReference of each collection by its payRefrence memo.
    pub(crate) memos: HashMap<String, String>,
    /// Payouts by sessionId.
    pub(crate) payouts: HashMap<String, PayoutRecord>,
    /// Simulated fundings by sessionId.
    pub(crate) fundings: HashMap<String, IdempotentRequest<MessageResponse>>,
    /// Sub-businesses by id.
    pub(crate) businesses: BTreeMap<String, BusinessRecord>,
    /// The registered webhook URL.
    pub(crate) webhook_url: Option<String>,
    /// How this business's new payouts settle.
    pub(crate) settlement: PayoutSettlement,
    /// Payouts that settle on their own, by when and sessionId (see
    /// [`crate::store::settlement`]).
    pub(crate) due: BTreeSet<(SystemTime, String)>,
    /// How many collections, payouts and sub-businesses were created: each
    /// gets the next number, which orders them newest first in the control
    /// API's lists even when the clock stands still.
    created: u64,
}

impl Account {
    /// A fresh account with the configured starting balances, settling
    /// its payouts as `settlement` says.
    pub(crate) fn new(
        starting_balances: &BTreeMap<Currency, Decimal>,
        settlement: PayoutSettlement,
    ) -> Account {
        Account {
            balances: starting_balances.clone(),
            settlement,
            ..Account::default()
        }
    }

    /// The creation number of the next collection, payout or sub-business.
    pub(crate) fn next_sequence(&mut self) -> u64 {
        self.created += 1;
        self.created
    }

    /// Every wallet that was ever credited or configured, by currency.
    pub(crate) fn balances(&self) -> &BTreeMap<Currency, Decimal> {
        &self.balances
    }

    /// Sets a wallet's balance.
    pub(crate) fn set_balance(&mut self, currency: Currency, amount: Decimal) {
        self.balances.insert(currency, amount);
    }

    /// The balance of one wallet (0 when never credited).
    pub(crate) fn balance(&self, currency: Currency) -> Decimal {
        self.balances.get(&currency).copied().unwrap_or_default()
    }

    /// Adds `amount` to a wallet.
    pub(crate) fn credit(&mut self, currency: Currency, amount: Decimal) -> Result<(), ApiError> {
        let balance = self
            .balance(currency)
            .checked_add(amount)
            .ok_or_else(|| ApiError::bad_request("amount: would overflow the wallet balance"))?;
        self.balances.insert(currency, balance);
        Ok(())
    }

    /// Takes `amount` from a wallet, or refuses with 400
    /// `Insufficient balance: available 100.00 USD, required 150.00 USD`.
    pub(crate) fn debit(&mut self, currency: Currency, amount: Decimal) -> Result<(), ApiError> {
        let balance = self.balance(currency);
        if balance < amount {
            return Err(ApiError::bad_request(format!(
                "Insufficient balance: available {} {currency}, required {} {currency}",
                in_minor_units(balance, currency),
                in_minor_units(amount, currency),
            )));
        }
        self.balances.insert(currency, balance - amount);
        Ok(())
    }

    /// Remembers a quote, pruning expired ones once there are many (in
    /// amortised constant time per quote).
    pub(crate) fn add_quote(&mut self, quote: QuoteRecord, now: SystemTime) {
        if self.quotes.len() >= self.prune_quotes_at.max(QUOTES_BEFORE_PRUNING) {
            self.quotes.retain(|_, kept| kept.expires_at >= now);
            self.prune_quotes_at = self.quotes.len().saturating_mul(2);
        }
        self.quotes.insert(quote.rate_key.clone(), quote);
    }

    /// Whether a rate key is already taken.
    pub(crate) fn has_quote(&self, rate_key: &str) -> bool {
        self.quotes.contains_key(rate_key)
    }

    /// The quote of `rate_key` if it is known, unexpired and issued for
    /// `from`/`to`; otherwise 400 `rateKey is unknown or expired` or
    /// `rateKey was issued for USD/NGN, not EUR/NGN`.
    /// Forgets the quote `rate_key` before its time (the fault
    /// `quote_lapsed_early`): every later use is refused as expired.
    pub(crate) fn lapse_quote(&mut self, rate_key: &str) {
        self.quotes.remove(rate_key);
    }

    pub(crate) fn usable_quote(
        &self,
        rate_key: &str,
        from: Currency,
        to: Currency,
        now: SystemTime,
    ) -> Result<&QuoteRecord, ApiError> {
        let quote = self
            .quotes
            .get(rate_key)
            .filter(|quote| quote.expires_at >= now)
            .ok_or_else(|| ApiError::bad_request("rateKey is unknown or expired"))?;
        if quote.from != from || quote.to != to {
            return Err(ApiError::bad_request(format!(
                "rateKey was issued for {}/{}, not {from}/{to}",
                quote.from, quote.to
            )));
        }
        Ok(quote)
    }
}

/// `amount` written with exactly the currency's minor-unit digits
/// (`100.00 USD`, `3700 UGX`).
pub(crate) fn in_minor_units(amount: Decimal, currency: Currency) -> String {
    let mut shown = amount;
    shown.rescale(currency.minor_unit_exponent());
    shown.to_string()
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, UNIX_EPOCH};

    use super::*;
    use crate::rates::convert;

    fn quote(n: usize, expires_at: SystemTime) -> QuoteRecord {
        let amount = Decimal::ONE_HUNDRED;
        QuoteRecord {
            rate_key: format!("rk_{n}"),
            from: Currency::Usd,
            to: Currency::Ngn,
            amount,
            rail: None,
            conversion: convert(amount, Currency::Usd, Currency::Ngn).unwrap(),
            expires_at,
        }
    }

    /// Expired quotes go once there are many; unexpired ones are kept, and a
    /// burst of them is scanned once per doubling, not once per quote.
    #[test]
    fn quotes_are_pruned_in_amortised_constant_time() {
        let start = UNIX_EPOCH + Duration::from_secs(1_795_262_400);
        let mut account = Account::default();
        for n in 0..QUOTES_BEFORE_PRUNING {
            account.add_quote(quote(n, start), start);
        }
        assert_eq!(account.quotes.len(), QUOTES_BEFORE_PRUNING);
        // Past their expiry, the next quote prunes all of them.
        let later = start + Duration::from_secs(1);
        let live = later + Duration::from_secs(300);
        account.add_quote(quote(100_000, live), later);
        assert_eq!(account.quotes.len(), 1);

        // 5,000 live quotes: prunings at 1,024, 2,048 and 4,096 kept
        // everything, and the next one waits for 8,192.
        for n in 0..5_000 {
            account.add_quote(quote(n, live), later);
        }
        assert_eq!(account.quotes.len(), 5_001);
        assert_eq!(account.prune_quotes_at, 8_192);
        assert!(account
            .usable_quote("rk_0", Currency::Usd, Currency::Ngn, later)
            .is_ok());
    }
}
