//! The wire-level view of a payout request.

/// A borrowed, unparsed view of the fields of `POST /api/payout`.
///
/// Every field is the raw string as sent (or `None` when absent), so the
/// sandbox can validate a request before parsing it (and report an unknown
/// currency with the API's message), and the SDK can validate its typed
/// request by lending its strings to this view.
///
/// ```
/// use crossborder_core::payout::PayoutFields;
///
/// let fields = PayoutFields {
///     amount: Some("1500.50"),
///     from_currency: Some("NGN"),
///     to_currency: Some("NGN"),
///     session_id: Some("payout-0001"),
///     ..PayoutFields::default()
/// };
/// assert_eq!(fields.get("fromCurrency"), Some("NGN"));
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PayoutFields<'a> {
    /// `amount`: the amount to pay out, a decimal string in `fromCurrency`.
    pub amount: Option<&'a str>,
    /// `fromCurrency`: the source currency code.
    pub from_currency: Option<&'a str>,
    /// `toCurrency`: the destination currency code.
    pub to_currency: Option<&'a str>,
    /// `narration`: free text, at most 140 characters.
    pub narration: Option<&'a str>,
    /// `sessionId`: the caller's unique ID for this payout attempt.
    pub session_id: Option<&'a str>,
    /// `rateKey`: the quote's key, required when the currencies differ.
    pub rate_key: Option<&'a str>,
    /// `accountNumber`: the destination bank account.
    pub account_number: Option<&'a str>,
    /// `accountName`: the name on the destination bank account.
    pub account_name: Option<&'a str>,
    /// `bankName`: the destination bank's name.
    pub bank_name: Option<&'a str>,
    /// `bankCode`: the destination bank's code (see the bank list).
    pub bank_code: Option<&'a str>,
    /// `address`: the destination wallet address.
    pub address: Option<&'a str>,
    /// `network`: the network of a same-currency crypto payout.
    pub network: Option<&'a str>,
    /// `fromNetwork`: the source network of a crypto-to-crypto or
    /// crypto-to-fiat payout.
    pub from_network: Option<&'a str>,
    /// `toNetwork`: the destination network of a crypto-to-crypto payout.
    pub to_network: Option<&'a str>,
    /// `transitNumber`: the Canadian bank transit number.
    pub transit_number: Option<&'a str>,
    /// `institutionNumber`: the Canadian bank institution number.
    pub institution_number: Option<&'a str>,
    /// `sortCode`: the UK bank sort code.
    pub sort_code: Option<&'a str>,
    /// `swiftCode`: the bank's SWIFT/BIC code.
    pub swift_code: Option<&'a str>,
    /// `recipientName`: the recipient's name (no rule is attached to it).
    pub recipient_name: Option<&'a str>,
}

impl<'a> PayoutFields<'a> {
    /// Wire name of [`PayoutFields::amount`].
    pub const AMOUNT: &'static str = "amount";
    /// Wire name of [`PayoutFields::from_currency`].
    pub const FROM_CURRENCY: &'static str = "fromCurrency";
    /// Wire name of [`PayoutFields::to_currency`].
    pub const TO_CURRENCY: &'static str = "toCurrency";
    /// Wire name of [`PayoutFields::narration`].
    pub const NARRATION: &'static str = "narration";
    /// Wire name of [`PayoutFields::session_id`].
    pub const SESSION_ID: &'static str = "sessionId";
    /// Wire name of [`PayoutFields::rate_key`].
    pub const RATE_KEY: &'static str = "rateKey";
    /// Wire name of [`PayoutFields::account_number`].
    pub const ACCOUNT_NUMBER: &'static str = "accountNumber";
    /// Wire name of [`PayoutFields::account_name`].
    pub const ACCOUNT_NAME: &'static str = "accountName";
    /// Wire name of [`PayoutFields::bank_name`].
    pub const BANK_NAME: &'static str = "bankName";
    /// Wire name of [`PayoutFields::bank_code`].
    pub const BANK_CODE: &'static str = "bankCode";
    /// Wire name of [`PayoutFields::address`].
    pub const ADDRESS: &'static str = "address";
    /// Wire name of [`PayoutFields::network`].
    pub const NETWORK: &'static str = "network";
    /// Wire name of [`PayoutFields::from_network`].
    pub const FROM_NETWORK: &'static str = "fromNetwork";
    /// Wire name of [`PayoutFields::to_network`].
    pub const TO_NETWORK: &'static str = "toNetwork";
    /// Wire name of [`PayoutFields::transit_number`].
    pub const TRANSIT_NUMBER: &'static str = "transitNumber";
    /// Wire name of [`PayoutFields::institution_number`].
    pub const INSTITUTION_NUMBER: &'static str = "institutionNumber";
    /// Wire name of [`PayoutFields::sort_code`].
    pub const SORT_CODE: &'static str = "sortCode";
    /// Wire name of [`PayoutFields::swift_code`].
    pub const SWIFT_CODE: &'static str = "swiftCode";
    /// Wire name of [`PayoutFields::recipient_name`].
    pub const RECIPIENT_NAME: &'static str = "recipientName";

    /// Every wire name, in the order of the specification; validation
    /// reports violations in this order.
    pub const WIRE_NAMES: [&'static str; 19] = [
        Self::AMOUNT,
        Self::FROM_CURRENCY,
        Self::TO_CURRENCY,
        Self::NARRATION,
        Self::SESSION_ID,
        Self::RATE_KEY,
        Self::ACCOUNT_NUMBER,
        Self::ACCOUNT_NAME,
        Self::BANK_NAME,
        Self::BANK_CODE,
        Self::ADDRESS,
        Self::NETWORK,
        Self::FROM_NETWORK,
        Self::TO_NETWORK,
        Self::TRANSIT_NUMBER,
        Self::INSTITUTION_NUMBER,
        Self::SORT_CODE,
        Self::SWIFT_CODE,
        Self::RECIPIENT_NAME,
    ];

    /// The field with the given wire name (`None` for an unknown name or an
    /// absent field).
    pub fn get(&self, wire_name: &str) -> Option<&'a str> {
        *self.slot(wire_name)?
    }

    /// Builds the view by asking `lookup` for each wire name, for callers
    /// that hold the request as a map (a JSON object, CLI flags).
    ///
    /// ```
    /// use std::collections::HashMap;
    /// use crossborder_core::payout::PayoutFields;
    ///
    /// let body = HashMap::from([("amount", "10"), ("sessionId", "s-1")]);
    /// let fields = PayoutFields::from_fn(|name| body.get(name).copied());
    /// assert_eq!(fields.session_id, Some("s-1"));
    /// ```
    pub fn from_fn(mut lookup: impl FnMut(&'static str) -> Option<&'a str>) -> PayoutFields<'a> {
        let mut fields = PayoutFields::default();
        for name in Self::WIRE_NAMES {
            if let Some(slot) = fields.slot_mut(name) {
                *slot = lookup(name);
            }
        }
        fields
    }

    fn slot(&self, wire_name: &str) -> Option<&Option<&'a str>> {
        Some(match wire_name {
            Self::AMOUNT => &self.amount,
            Self::FROM_CURRENCY => &self.from_currency,
            Self::TO_CURRENCY => &self.to_currency,
            Self::NARRATION => &self.narration,
            Self::SESSION_ID => &self.session_id,
            Self::RATE_KEY => &self.rate_key,
            Self::ACCOUNT_NUMBER => &self.account_number,
            Self::ACCOUNT_NAME => &self.account_name,
            Self::BANK_NAME => &self.bank_name,
            Self::BANK_CODE => &self.bank_code,
            Self::ADDRESS => &self.address,
            Self::NETWORK => &self.network,
            Self::FROM_NETWORK => &self.from_network,
            Self::TO_NETWORK => &self.to_network,
            Self::TRANSIT_NUMBER => &self.transit_number,
            Self::INSTITUTION_NUMBER => &self.institution_number,
            Self::SORT_CODE => &self.sort_code,
            Self::SWIFT_CODE => &self.swift_code,
            Self::RECIPIENT_NAME => &self.recipient_name,
            _ => return None,
        })
    }

    fn slot_mut(&mut self, wire_name: &str) -> Option<&mut Option<&'a str>> {
        Some(match wire_name {
            Self::AMOUNT => &mut self.amount,
            Self::FROM_CURRENCY => &mut self.from_currency,
            Self::TO_CURRENCY => &mut self.to_currency,
            Self::NARRATION => &mut self.narration,
            Self::SESSION_ID => &mut self.session_id,
            Self::RATE_KEY => &mut self.rate_key,
            Self::ACCOUNT_NUMBER => &mut self.account_number,
            Self::ACCOUNT_NAME => &mut self.account_name,
            Self::BANK_NAME => &mut self.bank_name,
            Self::BANK_CODE => &mut self.bank_code,
            Self::ADDRESS => &mut self.address,
            Self::NETWORK => &mut self.network,
            Self::FROM_NETWORK => &mut self.from_network,
            Self::TO_NETWORK => &mut self.to_network,
            Self::TRANSIT_NUMBER => &mut self.transit_number,
            Self::INSTITUTION_NUMBER => &mut self.institution_number,
            Self::SORT_CODE => &mut self.sort_code,
            Self::SWIFT_CODE => &mut self.swift_code,
            Self::RECIPIENT_NAME => &mut self.recipient_name,
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_wire_name_maps_to_its_own_field() {
        let fields = PayoutFields::from_fn(Some);
        for name in PayoutFields::WIRE_NAMES {
            assert_eq!(fields.get(name), Some(name));
        }
        assert_eq!(fields.get("unknown"), None);
        assert_eq!(fields.recipient_name, Some("recipientName"));
        assert_eq!(fields.from_network, Some("fromNetwork"));
    }
}
