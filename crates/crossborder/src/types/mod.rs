//! The models: every request and response of the API, with exact
//! [`Decimal`] amounts, core [`Currency`]
//! codes and open status enums.
//!
//! Response types are converted from the generated wire types; fields the
//! SDK does not know are ignored, and status values it does not know are
//! kept in an `Unknown` variant instead of failing.

/// `From<$type> for Currency` for a closed subset of the currencies whose
/// variants carry the same names.
macro_rules! into_currency {
    ($type:ident { $($variant:ident),+ }) => {
        impl From<$type> for Currency {
            fn from(value: $type) -> Currency {
                match value {
                    $($type::$variant => Currency::$variant,)+
                }
            }
        }
    };
}

mod ack;
mod amount_text;
mod bank;
mod collection;
mod destination;
mod payout;
mod quote;
mod sandbox;
mod source;
mod transaction;
mod wallet;

/// The business onboarding (KYB) models, kept in `kyb/`.
pub use crate::kyb::{
    document_keys, Address, Business, BusinessDetails, BusinessStatus, BusinessUpdate,
    CreateBusinessRequest, DocumentKeyMapping, DocumentLink, Documents, MonthlyTransactionVolume,
    NatureOfBusiness, Person, PersonDetails, PersonRequest, PersonRole, ProofOfAddress,
    SourceOfFund, UpdateBusinessRequest, UploadedDocument,
};
pub use ack::Acknowledgement;
pub use amount_text::AmountText;
pub use bank::{Bank, ResolveAccountRequest, ResolvedAccount};
pub use collection::CollectionRequest;
/// Why an [`AmountText`] is not a decimal number.
pub use crossborder_api::decimal::ParseDecimalError;
pub use destination::{
    CanadianBank, CryptoCurrency, CryptoWallet, Destination, EurBank, LocalBank, LocalBankCurrency,
    OtherFiatAccount, OtherFiatCurrency, UkBank, UsBank,
};
pub use payout::{PayoutReceipt, PayoutRequest};
pub(crate) use quote::rfc3339;
pub use quote::{Quote, QuoteRequest};
pub use sandbox::SimulateFundingRequest;
pub use source::{CryptoSource, FiatCurrency, PayoutSource};
pub use transaction::{PaymentInstruction, Transaction, TransactionStatus, TransactionType};
pub use wallet::Balance;

pub use crossborder_core::kyb::{
    BusinessType, DocumentKind, DocumentType, IdType, ProofOfAddressType, UploadError,
};
pub use crossborder_core::payout::{PayoutKind, ValidatedPayout};
pub use crossborder_core::{Currency, CurrencyKind, Decimal, Money, Rail};
