//! Payouts: the typed request and its receipt.

use crossborder_api::types as wire;
use crossborder_core::payout::{validate_payout, PayoutFields, ValidatedPayout};
use rust_decimal::Decimal;

use crate::error::Error;
use crate::{Currency, Violations};

macro_rules! optional_setters {
    ($($(#[$doc:meta])* $name:ident),+ $(,)?) => {
        $(
            $(#[$doc])*
            pub fn $name(mut self, value: impl Into<String>) -> PayoutRequest {
                self.$name = Some(value.into());
                self
            }
        )+
    };
}

/// A payout to a bank account or a crypto wallet (`POST /api/payout`).
///
/// The `session_id` is the payout's idempotency key and tracking id: keep it,
/// and send the same id again if you retry, so the payout is never made
/// twice. Which destination fields are required depends on the currencies;
/// [`PayoutRequest::validate`] (called by `payouts().create`) reports every
/// missing or malformed field at once, with the rules of
/// [`crossborder_core::payout`].
///
/// ```
/// use crossborder::{Currency, Decimal, PayoutRequest};
///
/// let payout = PayoutRequest::new("payout-0001", Decimal::new(10000, 2), Currency::Usd, Currency::Ngn)
///     .rate_key("rk_9f2c4e1a7b3d4c5e")
///     .account_number("0123456789")
///     .account_name("ADAEZE OKAFOR")
///     .bank_name("Guaranty Trust Bank")
///     .bank_code("058")
///     .narration("Invoice 2291");
/// assert!(payout.validate().is_ok());
///
/// let incomplete = PayoutRequest::new("payout-0002", Decimal::new(10000, 2), Currency::Usd, Currency::Ngn);
/// let violations = incomplete.validate().unwrap_err();
/// assert_eq!(
///     violations.fields().collect::<Vec<_>>(),
///     ["rateKey", "accountNumber", "accountName", "bankName", "bankCode"]
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PayoutRequest {
    /// `sessionId`: the caller's unique id for this payout.
    pub session_id: String,
    /// `amount`: the amount debited, in `from_currency`.
    pub amount: Decimal,
    /// `fromCurrency`: the wallet debited.
    pub from_currency: Currency,
    /// `toCurrency`: the currency the recipient receives.
    pub to_currency: Currency,
    /// `narration`: free text, at most 140 characters.
    pub narration: Option<String>,
    /// `rateKey`: the quote's key, required when the currencies differ.
    pub rate_key: Option<String>,
    /// `accountNumber`.
    pub account_number: Option<String>,
    /// `accountName`.
    pub account_name: Option<String>,
    /// `bankName`.
    pub bank_name: Option<String>,
    /// `bankCode`.
    pub bank_code: Option<String>,
    /// `address`: the destination wallet address.
    pub address: Option<String>,
    /// `network`: the network of a same-currency crypto payout.
    pub network: Option<String>,
    /// `fromNetwork`: the source network of a crypto payout.
    pub from_network: Option<String>,
    /// `toNetwork`: the destination network of a crypto-to-crypto payout.
    pub to_network: Option<String>,
    /// `transitNumber` (CAD).
    pub transit_number: Option<String>,
    /// `institutionNumber` (CAD).
    pub institution_number: Option<String>,
    /// `sortCode` (GBP).
    pub sort_code: Option<String>,
    /// `swiftCode` (EUR, GBP).
    pub swift_code: Option<String>,
    /// `recipientName`.
    pub recipient_name: Option<String>,
}

impl PayoutRequest {
    /// A payout of `amount` from the `from` wallet, received in `to`, under
    /// the caller's `session_id`.
    pub fn new(
        session_id: impl Into<String>,
        amount: Decimal,
        from: Currency,
        to: Currency,
    ) -> PayoutRequest {
        PayoutRequest {
            session_id: session_id.into(),
            amount,
            from_currency: from,
            to_currency: to,
            narration: None,
            rate_key: None,
            account_number: None,
            account_name: None,
            bank_name: None,
            bank_code: None,
            address: None,
            network: None,
            from_network: None,
            to_network: None,
            transit_number: None,
            institution_number: None,
            sort_code: None,
            swift_code: None,
            recipient_name: None,
        }
    }

    optional_setters! {
        /// Sets `narration`.
        narration,
        /// Sets `rateKey`.
        rate_key,
        /// Sets `accountNumber`.
        account_number,
        /// Sets `accountName`.
        account_name,
        /// Sets `bankName`.
        bank_name,
        /// Sets `bankCode`.
        bank_code,
        /// Sets `address`.
        address,
        /// Sets `network`.
        network,
        /// Sets `fromNetwork`.
        from_network,
        /// Sets `toNetwork`.
        to_network,
        /// Sets `transitNumber`.
        transit_number,
        /// Sets `institutionNumber`.
        institution_number,
        /// Sets `sortCode`.
        sort_code,
        /// Sets `swiftCode`.
        swift_code,
        /// Sets `recipientName`.
        recipient_name,
    }

    /// Checks the request against every payout rule of the API and returns
    /// all violations at once.
    pub fn validate(&self) -> Result<ValidatedPayout, Violations> {
        let amount = self.amount.to_string();
        let fields = PayoutFields {
            amount: Some(&amount),
            from_currency: Some(self.from_currency.as_str()),
            to_currency: Some(self.to_currency.as_str()),
            narration: self.narration.as_deref(),
            session_id: Some(&self.session_id),
            rate_key: self.rate_key.as_deref(),
            account_number: self.account_number.as_deref(),
            account_name: self.account_name.as_deref(),
            bank_name: self.bank_name.as_deref(),
            bank_code: self.bank_code.as_deref(),
            address: self.address.as_deref(),
            network: self.network.as_deref(),
            from_network: self.from_network.as_deref(),
            to_network: self.to_network.as_deref(),
            transit_number: self.transit_number.as_deref(),
            institution_number: self.institution_number.as_deref(),
            sort_code: self.sort_code.as_deref(),
            swift_code: self.swift_code.as_deref(),
            recipient_name: self.recipient_name.as_deref(),
        };
        validate_payout(&fields)
    }

    /// The generated request body (after validation).
    pub(crate) fn to_wire(&self) -> Result<wire::PayoutRequest, Error> {
        let invalid = |message: String| Error::InvalidRequest { message };
        Ok(wire::PayoutRequest {
            amount: crossborder_api::decimal::DecimalString::new(self.amount),
            from_currency: self.from_currency,
            to_currency: self.to_currency,
            session_id: self
                .session_id
                .as_str()
                .try_into()
                .map_err(|e| invalid(format!("sessionId: {e}")))?,
            narration: self
                .narration
                .as_deref()
                .map(|text| {
                    text.try_into()
                        .map_err(|e| invalid(format!("narration: {e}")))
                })
                .transpose()?,
            rate_key: self.rate_key.clone(),
            account_number: self.account_number.clone(),
            account_name: self.account_name.clone(),
            bank_name: self.bank_name.clone(),
            bank_code: self.bank_code.clone(),
            address: self.address.clone(),
            network: self.network.clone(),
            from_network: self.from_network.clone(),
            to_network: self.to_network.clone(),
            transit_number: self.transit_number.clone(),
            institution_number: self.institution_number.clone(),
            sort_code: self.sort_code.clone(),
            swift_code: self.swift_code.clone(),
            recipient_name: self.recipient_name.clone(),
        })
    }
}

/// The acknowledgement of an accepted payout. Completion is not pushed by
/// webhook: track it with `payouts().get(&receipt.session_id)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PayoutReceipt {
    /// The payout's session id, as echoed by the server.
    pub session_id: String,
    /// The server's summary.
    pub message: String,
}

impl From<wire::PayoutResponse> for PayoutReceipt {
    fn from(value: wire::PayoutResponse) -> Self {
        PayoutReceipt {
            session_id: value.session_id,
            message: value.message,
        }
    }
}
