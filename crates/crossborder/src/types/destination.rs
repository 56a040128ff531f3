//! Typed payout destinations: one type per family of account, each with the
//! fields the API requires for its currencies as plain (not optional)
//! fields, so a payout missing one does not compile.
//!
//! ```compile_fail,E0063
//! use crossborder::types::{LocalBank, LocalBankCurrency};
//!
//! // A Nigerian payout without a bank code is not a LocalBank.
//! let bank = LocalBank {
//!     currency: LocalBankCurrency::Ngn,
//!     account_number: "0123456789".into(),
//!     account_name: "ADAEZE OKAFOR".into(),
//!     bank_name: "Guaranty Trust Bank".into(),
//! };
//! ```
//!
//! The formats of the values (a 10-digit NUBAN, a 6-digit sort code, an IBAN
//! with its check digits, a wallet address on its network) are checked with
//! the rest of the payout by [`PayoutRequest::validate`](crate::types::PayoutRequest::validate),
//! because they come from data at run time; see `crossborder_core::payout`.

use crate::Currency;

currency_subset! {
    /// The currencies paid to a bank account identified by a bank code from the
    /// bank list.
    pub enum LocalBankCurrency {
        /// Nigerian naira.
        Ngn,
        /// Kenyan shilling.
        Kes,
        /// Ugandan shilling.
        Ugx,
    }
}

currency_subset! {
    /// The cryptocurrencies paid to a wallet address.
    pub enum CryptoCurrency {
        /// Tether.
        Usdt,
        /// USD Coin.
        Usdc,
        /// cNGN, the naira stablecoin.
        Cngn,
    }
}

currency_subset! {
    /// The fiat currencies for which the API requires no destination field.
    pub enum OtherFiatCurrency {
        /// Ghanaian cedi.
        Ghs,
        /// West African CFA franc.
        Xof,
        /// Central African CFA franc.
        Xaf,
    }
}

/// A bank account in Nigeria, Kenya or Uganda, identified by the bank's code
/// from `banks().list` (`accountNumber`, `accountName`, `bankName`,
/// `bankCode`). Kenyan and Ugandan mobile-money accounts are paid the same
/// way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocalBank {
    /// The currency received: NGN, KES or UGX.
    pub currency: LocalBankCurrency,
    /// The account number (NGN: the 10-digit NUBAN).
    pub account_number: String,
    /// The name on the account.
    pub account_name: String,
    /// The bank's name.
    pub bank_name: String,
    /// The bank's code from the bank list.
    pub bank_code: String,
}

/// A US bank account, paid in USD (`accountNumber`, `accountName`,
/// `bankName`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsBank {
    /// The account number (4 to 17 digits, or an IBAN).
    pub account_number: String,
    /// The name on the account.
    pub account_name: String,
    /// The bank's name.
    pub bank_name: String,
}

/// A UK bank account, paid in GBP.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UkBank {
    /// The 8-digit account number, or an IBAN.
    pub account_number: String,
    /// The name on the account.
    pub account_name: String,
    /// The bank's name.
    pub bank_name: String,
    /// The 6-digit sort code; `12-34-56` and `12 34 56` are sent as `123456`.
    pub sort_code: String,
    /// The bank's BIC.
    pub swift_code: String,
}

/// A bank account in the euro area, paid in EUR (the IBAN is sent as
/// `accountNumber`).
///
/// The API requires only the BIC for EUR; this type also requires the
/// IBAN and the account holder's name, without which a euro transfer credits
/// no one (ASSUMPTIONS B18). A payout that must omit them can be built field
/// by field with [`PayoutRequest::new`](crate::types::PayoutRequest::new).
///
/// ```compile_fail,E0063
/// use crossborder::types::EurBank;
///
/// // No IBAN: not an EurBank.
/// let bank = EurBank {
///     account_name: "MAX MUSTERMANN".into(),
///     swift_code: "DEUTDEFF".into(),
///     bank_name: None,
/// };
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EurBank {
    /// The IBAN, in paper (`DE89 3704 ...`) or electronic form; sent
    /// electronic.
    pub iban: String,
    /// The name on the account.
    pub account_name: String,
    /// The bank's BIC.
    pub swift_code: String,
    /// The bank's name, when known.
    pub bank_name: Option<String>,
}

/// A Canadian bank account, paid in CAD (`transitNumber`,
/// `institutionNumber`, `accountNumber`, `accountName`).
///
/// The API requires only the transit and institution numbers for CAD; this
/// type also requires the account number and holder's name, which a
/// Canadian transfer needs (ASSUMPTIONS B18).
///
/// ```compile_fail,E0063
/// use crossborder::types::CanadianBank;
///
/// // No account number: not a CanadianBank.
/// let bank = CanadianBank {
///     account_name: "ALEX MARTIN".into(),
///     transit_number: "00012".into(),
///     institution_number: "003".into(),
///     bank_name: None,
/// };
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CanadianBank {
    /// The account number (7 to 12 digits).
    pub account_number: String,
    /// The name on the account.
    pub account_name: String,
    /// The 5-digit branch transit number.
    pub transit_number: String,
    /// The bank's 3-digit institution number.
    pub institution_number: String,
    /// The bank's name, when known.
    pub bank_name: Option<String>,
}

/// A wallet address on a network, paid in USDT, USDC or cNGN (`address`, and
/// the network as `network` for a same-currency payout or `toNetwork`
/// otherwise). The network the payout is funded from, when crypto, is the
/// source's ([`CryptoSource`](crate::types::CryptoSource)).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CryptoWallet {
    /// The cryptocurrency received.
    pub currency: CryptoCurrency,
    /// The wallet address, checked against the network.
    pub address: String,
    /// The network: `ethereum`, `tron`, `solana`, ... (see
    /// [`KNOWN_NETWORKS`](crate::rules::payout::KNOWN_NETWORKS); others are
    /// sent as given).
    pub network: String,
}

/// A payout in GHS, XOF or XAF, for which the API requires no destination
/// field; whatever account details are known can be added.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OtherFiatAccount {
    /// The currency received.
    pub currency: OtherFiatCurrency,
    /// The account number, when known.
    pub account_number: Option<String>,
    /// The name on the account, when known.
    pub account_name: Option<String>,
    /// The bank's name, when known.
    pub bank_name: Option<String>,
    /// The bank's code, when known.
    pub bank_code: Option<String>,
}

/// Where a payout goes. Built from one of the destination types
/// (`LocalBank`, `UsBank`, `UkBank`, `EurBank`, `CanadianBank`,
/// `CryptoWallet`, `OtherFiatAccount`) with `into()`; its currency is the
/// payout's `toCurrency`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Destination {
    /// A Nigerian, Kenyan or Ugandan bank account.
    LocalBank(LocalBank),
    /// A US bank account.
    UsBank(UsBank),
    /// A UK bank account.
    UkBank(UkBank),
    /// A euro-area bank account.
    EurBank(EurBank),
    /// A Canadian bank account.
    CanadianBank(CanadianBank),
    /// A crypto wallet.
    CryptoWallet(CryptoWallet),
    /// A GHS, XOF or XAF account.
    OtherFiat(OtherFiatAccount),
}

impl Destination {
    /// The currency the recipient receives (`toCurrency`).
    pub fn currency(&self) -> Currency {
        match self {
            Destination::LocalBank(bank) => bank.currency.into(),
            Destination::UsBank(_) => Currency::Usd,
            Destination::UkBank(_) => Currency::Gbp,
            Destination::EurBank(_) => Currency::Eur,
            Destination::CanadianBank(_) => Currency::Cad,
            Destination::CryptoWallet(wallet) => wallet.currency.into(),
            Destination::OtherFiat(account) => account.currency.into(),
        }
    }
}

macro_rules! into_destination {
    ($($type:ident => $variant:ident),+ $(,)?) => {
        $(impl From<$type> for Destination {
            fn from(value: $type) -> Destination {
                Destination::$variant(value)
            }
        })+
    };
}
into_destination!(
    LocalBank => LocalBank,
    UsBank => UsBank,
    UkBank => UkBank,
    EurBank => EurBank,
    CanadianBank => CanadianBank,
    CryptoWallet => CryptoWallet,
    OtherFiatAccount => OtherFiat,
);
