//! Money is shown with its currency's minor units (ASSUMPTIONS B80), by one
//! rule for `Money` and `Balance`.

use crossborder::{types::Balance, Currency, Decimal, Money};

fn decimal(text: &str) -> Decimal {
    text.parse().unwrap()
}

#[test]
fn a_balance_and_money_show_their_minor_units() {
    for (amount, currency, shown) in [
        ("9899.5", Currency::Usd, "9899.50 USD"),
        ("5000000", Currency::Ngn, "5000000.00 NGN"),
        ("1500", Currency::Ugx, "1500 UGX"),
        ("12.5", Currency::Usdt, "12.500000 USDT"),
        ("0.000001", Currency::Cngn, "0.000001 CNGN"),
    ] {
        let balance = Balance {
            currency,
            amount: decimal(amount),
        };
        assert_eq!(balance.to_string(), shown);
        assert_eq!(
            Money::new(decimal(amount), currency).unwrap().to_string(),
            shown
        );
    }
}

#[test]
fn a_balance_with_more_decimals_than_its_currency_is_not_rounded() {
    let balance = Balance {
        currency: Currency::Usd,
        amount: decimal("0.1250"),
    };
    assert_eq!(balance.to_string(), "0.125 USD");
}
