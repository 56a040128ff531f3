//! Payouts: the typed request and its receipt.

use crossborder_api::types as wire;
use crossborder_core::payout::{validate_payout, PayoutFields, ValidatedPayout};
use rust_decimal::Decimal;

use crate::error::Error;
use crate::{Currency, Violations};

/// Declares [`PayoutRequest`] with the optional destination fields that
/// `crossborder-core` lists from the spec (`payout_text_fields!`), so a
/// field added to the spec needs no edit here: its struct field, setter,
/// validation and wire mapping all come from this one macro.
macro_rules! payout_request {
    ($(($field:ident, $wire:literal, $doc:literal)),+ $(,)?) => {
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
            $(
                #[doc = $doc]
                pub $field: Option<String>,
            )+
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
                    $($field: None,)+
                }
            }

            /// Sets `narration`.
            pub fn narration(mut self, value: impl Into<String>) -> PayoutRequest {
                self.narration = Some(value.into());
                self
            }

            $(
                #[doc = concat!("Sets `", $wire, "`.")]
                pub fn $field(mut self, value: impl Into<String>) -> PayoutRequest {
                    self.$field = Some(value.into());
                    self
                }
            )+

            /// Checks the request against every payout rule of the API and returns
            /// all violations at once.
            pub fn validate(&self) -> Result<ValidatedPayout, Violations> {
                let amount = self.amount.to_string();
                validate_payout(&PayoutFields {
                    amount: Some(&amount),
                    from_currency: Some(self.from_currency.as_str()),
                    to_currency: Some(self.to_currency.as_str()),
                    narration: self.narration.as_deref(),
                    session_id: Some(&self.session_id),
                    $($field: self.$field.as_deref(),)+
                })
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
                    $($field: self.$field.clone(),)+
                })
            }
        }
    };
}

crossborder_core::payout_text_fields!(payout_request);

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
