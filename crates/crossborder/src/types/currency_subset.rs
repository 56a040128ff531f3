//! The error of reading a [`Currency`] as one of the closed subsets typed
//! payouts take ([`LocalBankCurrency`](super::LocalBankCurrency),
//! [`CryptoCurrency`](super::CryptoCurrency),
//! [`OtherFiatCurrency`](super::OtherFiatCurrency),
//! [`FiatCurrency`](super::FiatCurrency)).

use std::fmt;

use crate::Currency;

/// A currency outside the subset it was read as: `KES is not a
/// CryptoCurrency (one of USDT, USDC, CNGN)`.
///
/// ```
/// use crossborder::Currency;
/// use crossborder::types::{CryptoCurrency, LocalBankCurrency};
///
/// // A CSV's currency column, read into a typed destination.
/// let kes: Currency = "KES".parse()?;
/// assert_eq!(LocalBankCurrency::try_from(kes)?, LocalBankCurrency::Kes);
///
/// let error = CryptoCurrency::try_from(kes).unwrap_err();
/// assert_eq!(error.to_string(), "KES is not a CryptoCurrency (one of USDT, USDC, CNGN)");
/// assert_eq!(error.currency, Currency::Kes);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct NotInCurrencySubset {
    /// The currency that was read.
    pub currency: Currency,
    /// The subset's type name (`CryptoCurrency`).
    pub subset: &'static str,
    /// The currencies the subset holds, in its order.
    pub allowed: &'static [Currency],
}

impl fmt::Display for NotInCurrencySubset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} is not a {} (one of ", self.currency, self.subset)?;
        for (index, currency) in self.allowed.iter().enumerate() {
            if index > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{currency}")?;
        }
        f.write_str(")")
    }
}

impl std::error::Error for NotInCurrencySubset {}

#[cfg(test)]
mod tests {
    use crate::types::{CryptoCurrency, FiatCurrency, LocalBankCurrency, OtherFiatCurrency};
    use crate::Currency;

    /// Every currency reads as each subset exactly when the subset's
    /// `From` gives it back: the two directions list the same variants.
    #[test]
    fn try_from_is_the_inverse_of_from_on_every_currency() {
        fn check<T>(name: &str)
        where
            T: TryFrom<Currency, Error = super::NotInCurrencySubset> + Into<Currency> + Copy,
        {
            for currency in Currency::ALL.iter().copied() {
                match T::try_from(currency) {
                    Ok(subset) => assert_eq!(subset.into(), currency, "{name}"),
                    Err(error) => {
                        assert_eq!(error.currency, currency);
                        assert_eq!(error.subset, name);
                        assert!(
                            !error.allowed.contains(&currency),
                            "{name} refused {currency}"
                        );
                    }
                }
            }
        }
        check::<LocalBankCurrency>("LocalBankCurrency");
        check::<CryptoCurrency>("CryptoCurrency");
        check::<OtherFiatCurrency>("OtherFiatCurrency");
        check::<FiatCurrency>("FiatCurrency");
    }

    #[test]
    fn the_refusal_names_the_currency_and_the_subset() {
        let error = LocalBankCurrency::try_from(Currency::Usdt).unwrap_err();
        assert_eq!(
            error.to_string(),
            "USDT is not a LocalBankCurrency (one of NGN, KES, UGX)"
        );
        assert_eq!(
            FiatCurrency::try_from(Currency::Cngn)
                .unwrap_err()
                .allowed
                .len(),
            10
        );
        assert_eq!(
            OtherFiatCurrency::try_from(Currency::Xof),
            Ok(OtherFiatCurrency::Xof)
        );
    }
}
