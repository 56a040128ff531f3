//! The 13 currencies the API accepts in every currency parameter and field:
//! ten fiat currencies and three cryptocurrencies (stablecoins). Parsing
//! accepts the exact uppercase code only, as the API does.
//!
//! ```
//! use crossborder_core::Currency;
//!
//! let ngn: Currency = "NGN".parse().unwrap();
//! assert_eq!(ngn, Currency::Ngn);
//! assert_eq!(ngn.minor_unit_exponent(), 2);
//! assert!(Currency::Usdt.is_crypto());
//! assert_eq!("ngn".parse::<Currency>().unwrap_err().to_string(), "Invalid currency: ngn");
//! ```

pub use crate::enums::{Currency, UnknownCurrency};

/// Whether a currency is a fiat currency or a cryptocurrency.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CurrencyKind {
    /// A government-issued currency, paid out to bank accounts.
    Fiat,
    /// A stablecoin, paid out to wallet addresses on a network.
    Crypto,
}

impl Currency {
    /// The ISO-style code, as sent on the wire (`"NGN"`).
    pub const fn code(self) -> &'static str {
        self.as_str()
    }

    /// Whether this is a fiat currency or a cryptocurrency.
    pub const fn kind(self) -> CurrencyKind {
        match self {
            Currency::Usdt | Currency::Usdc | Currency::Cngn => CurrencyKind::Crypto,
            _ => CurrencyKind::Fiat,
        }
    }

    /// True for USDT, USDC and CNGN.
    pub const fn is_crypto(self) -> bool {
        matches!(self.kind(), CurrencyKind::Crypto)
    }

    /// How many decimal places an amount in this currency may carry:
    /// 0 for UGX, XOF and XAF, 2 for other fiat currencies, 6 for the
    /// stablecoins.
    pub const fn minor_unit_exponent(self) -> u32 {
        match self {
            Currency::Ugx | Currency::Xof | Currency::Xaf => 0,
            Currency::Usdt | Currency::Usdc | Currency::Cngn => 6,
            _ => 2,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_round_trips() {
        for currency in Currency::ALL {
            assert_eq!(currency.code().parse::<Currency>(), Ok(currency));
            assert_eq!(currency.to_string(), currency.code());
        }
        assert_eq!(Currency::ALL.len(), 13);
    }

    #[test]
    fn codes_are_exact_and_uppercase() {
        for text in ["ngn", "Ngn", " NGN", "NGN ", "", "BTC", "US D"] {
            let error = text.parse::<Currency>().unwrap_err();
            assert_eq!(error.to_string(), format!("Invalid currency: {text}"));
        }
    }

    #[test]
    fn kinds_and_exponents() {
        let table = [
            (Currency::Ngn, CurrencyKind::Fiat, 2),
            (Currency::Eur, CurrencyKind::Fiat, 2),
            (Currency::Gbp, CurrencyKind::Fiat, 2),
            (Currency::Usd, CurrencyKind::Fiat, 2),
            (Currency::Kes, CurrencyKind::Fiat, 2),
            (Currency::Ugx, CurrencyKind::Fiat, 0),
            (Currency::Ghs, CurrencyKind::Fiat, 2),
            (Currency::Cad, CurrencyKind::Fiat, 2),
            (Currency::Xof, CurrencyKind::Fiat, 0),
            (Currency::Xaf, CurrencyKind::Fiat, 0),
            (Currency::Usdt, CurrencyKind::Crypto, 6),
            (Currency::Usdc, CurrencyKind::Crypto, 6),
            (Currency::Cngn, CurrencyKind::Crypto, 6),
        ];
        assert_eq!(table.len(), Currency::ALL.len());
        for (currency, kind, exponent) in table {
            assert_eq!(currency.kind(), kind, "{currency}");
            assert_eq!(currency.is_crypto(), kind == CurrencyKind::Crypto);
            assert_eq!(currency.minor_unit_exponent(), exponent, "{currency}");
        }
    }

    #[test]
    fn serde_uses_the_code_and_the_api_message() {
        assert_eq!(serde_json::to_string(&Currency::Cngn).unwrap(), "\"CNGN\"");
        assert_eq!(
            serde_json::from_str::<Currency>("\"XAF\"").unwrap(),
            Currency::Xaf
        );
        let error = serde_json::from_str::<Currency>("\"XYZ\"").unwrap_err();
        assert!(
            error.to_string().starts_with("Invalid currency: XYZ"),
            "{error}"
        );
    }
}
