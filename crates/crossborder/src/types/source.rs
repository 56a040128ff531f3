//! Where a typed payout is funded from: a fiat wallet, or a crypto wallet on
//! a network.
//!
//! The API needs the source network (`fromNetwork`) of every payout from a
//! cryptocurrency into another currency, so a crypto source is a
//! [`CryptoSource`], which cannot be built without its network; a plain
//! cryptocurrency is not a [`PayoutSource`], and a typed payout from one without
//! its network does not compile:
//!
//! ```compile_fail,E0277
//! use crossborder::{Currency, Decimal, types::{LocalBank, LocalBankCurrency, PayoutRequest}};
//!
//! // USDT to NGN needs the network the USDT is on.
//! let payout = PayoutRequest::pay(
//!     Decimal::new(100, 0),
//!     Currency::Usdt,
//!     LocalBank {
//!         currency: LocalBankCurrency::Ngn,
//!         account_number: "0123456789".into(),
//!         account_name: "ADAEZE OKAFOR".into(),
//!         bank_name: "Guaranty Trust Bank".into(),
//!         bank_code: "058".into(),
//!     },
//! );
//! ```

use crate::types::CryptoCurrency;
use crate::Currency;

currency_subset! {
    /// The fiat currencies a payout can be funded from.
    pub enum FiatCurrency {
        /// Nigerian naira.
        Ngn,
        /// Kenyan shilling.
        Kes,
        /// Ugandan shilling.
        Ugx,
        /// US dollar.
        Usd,
        /// Pound sterling.
        Gbp,
        /// Euro.
        Eur,
        /// Canadian dollar.
        Cad,
        /// Ghanaian cedi.
        Ghs,
        /// West African CFA franc.
        Xof,
        /// Central African CFA franc.
        Xaf,
    }
}

/// A crypto wallet a payout is funded from: the cryptocurrency debited and
/// the network it is on (`fromNetwork`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CryptoSource {
    /// The cryptocurrency debited.
    pub currency: CryptoCurrency,
    /// The network the funds are on: `ethereum`, `tron`, `solana`, ... (see
    /// [`KNOWN_NETWORKS`](crate::rules::payout::KNOWN_NETWORKS); others are
    /// sent as given).
    pub network: String,
}

/// The wallet a typed payout ([`PayoutRequest::pay`](crate::types::PayoutRequest::pay))
/// is funded from, built with `into()` from a [`FiatCurrency`] or a
/// [`CryptoSource`]; its currency is the payout's `fromCurrency`.
///
/// A crypto source's network is sent as `fromNetwork` when the payout
/// converts (crypto to fiat, or to another cryptocurrency). A payout between
/// wallets of the same cryptocurrency names one network, the destination
/// wallet's, as `network`; the source's is then sent as `fromNetwork` only
/// when it is another one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PayoutSource {
    /// A fiat wallet.
    Fiat(FiatCurrency),
    /// A crypto wallet on a network.
    Crypto(CryptoSource),
}

impl PayoutSource {
    /// The currency debited (`fromCurrency`).
    pub fn currency(&self) -> Currency {
        match self {
            PayoutSource::Fiat(currency) => (*currency).into(),
            PayoutSource::Crypto(source) => source.currency.into(),
        }
    }

    /// The network of a crypto source.
    pub fn network(&self) -> Option<&str> {
        match self {
            PayoutSource::Fiat(_) => None,
            PayoutSource::Crypto(source) => Some(&source.network),
        }
    }
}

impl From<FiatCurrency> for PayoutSource {
    fn from(value: FiatCurrency) -> PayoutSource {
        PayoutSource::Fiat(value)
    }
}

impl From<CryptoSource> for PayoutSource {
    fn from(value: CryptoSource) -> PayoutSource {
        PayoutSource::Crypto(value)
    }
}
