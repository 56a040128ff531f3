//! The sandbox's bank fixtures: the banks of each destination currency and
//! the deterministic name of any account at them. The bank-list and
//! resolve-bank handlers answer from them, and payouts check against them,
//! without one handler reaching into another.
//!
//! Resolution is deterministic: a few fixed accounts have fixed names
//! (`0123456789` is `ADAEZE OKAFOR` at any bank), every other account gets a
//! name derived from a hash of the bank code and the number, and the
//! account [`UNRESOLVABLE_ACCOUNT`] (`0000000000`) never resolves (404) and
//! makes a payout to it fail.

use crossborder_core::Currency;

/// The account number that never resolves and whose payouts fail.
pub const UNRESOLVABLE_ACCOUNT: &str = "0000000000";

/// The banks a payout in `to` can be sent to, as `(code, name)`.
///
/// NGN has the ten largest Nigerian banks; KES, UGX, GHS, USD, GBP, EUR,
/// CAD, XOF and XAF a few each; the cryptocurrencies none (they are paid to
/// wallet addresses).
pub fn banks(to: Currency) -> &'static [(&'static str, &'static str)] {
    match to {
        Currency::Ngn => &[
            ("044", "Access Bank"),
            ("058", "Guaranty Trust Bank"),
            ("057", "Zenith Bank"),
            ("011", "First Bank of Nigeria"),
            ("033", "United Bank for Africa"),
            ("070", "Fidelity Bank"),
            ("032", "Union Bank of Nigeria"),
            ("221", "Stanbic IBTC Bank"),
            ("232", "Sterling Bank"),
            ("035", "Wema Bank"),
        ],
        Currency::Kes => &[
            ("01", "KCB Bank Kenya"),
            ("68", "Equity Bank Kenya"),
            ("11", "Co-operative Bank of Kenya"),
            ("07", "NCBA Bank Kenya"),
            ("03", "Absa Bank Kenya"),
        ],
        Currency::Ugx => &[
            ("031", "Stanbic Bank Uganda"),
            ("006", "Centenary Bank"),
            ("005", "dfcu Bank"),
            ("002", "Absa Bank Uganda"),
        ],
        Currency::Ghs => &[
            ("040100", "GCB Bank"),
            ("130100", "Ecobank Ghana"),
            ("240100", "Fidelity Bank Ghana"),
            ("190100", "Stanbic Bank Ghana"),
        ],
        Currency::Usd => &[
            ("021000021", "JPMorgan Chase Bank"),
            ("026009593", "Bank of America"),
            ("121000248", "Wells Fargo Bank"),
        ],
        Currency::Gbp => &[
            ("200000", "Barclays Bank"),
            ("400000", "HSBC UK Bank"),
            ("300000", "Lloyds Bank"),
        ],
        Currency::Eur => &[
            ("DEUTDEFF", "Deutsche Bank"),
            ("BNPAFRPP", "BNP Paribas"),
            ("INGBNL2A", "ING Bank"),
        ],
        Currency::Cad => &[
            ("003", "Royal Bank of Canada"),
            ("004", "Toronto-Dominion Bank"),
            ("002", "Bank of Nova Scotia"),
        ],
        Currency::Xof => &[
            ("SN010", "Ecobank Senegal"),
            ("SN011", "Societe Generale Senegal"),
        ],
        Currency::Xaf => &[
            ("CM001", "Afriland First Bank"),
            ("CM029", "Ecobank Cameroon"),
        ],
        Currency::Usdt | Currency::Usdc | Currency::Cngn => &[],
    }
}

/// The name of the bank with `code` for payouts in `to`.
pub fn bank_name(to: Currency, code: &str) -> Option<&'static str> {
    banks(to)
        .iter()
        .find(|(known, _)| *known == code)
        .map(|(_, name)| *name)
}

const FIRST_NAMES: [&str; 12] = [
    "ADAEZE",
    "CHINEDU",
    "FUNMILAYO",
    "IBRAHIM",
    "NGOZI",
    "OLUWASEUN",
    "AMINA",
    "EMEKA",
    "KEMI",
    "TUNDE",
    "ZAINAB",
    "OBINNA",
];
const LAST_NAMES: [&str; 12] = [
    "OKAFOR", "ADEYEMI", "BELLO", "EZE", "OKONKWO", "BALOGUN", "MUSA", "NWOSU", "ADEBAYO",
    "ABUBAKAR", "OKEKE", "LAWAL",
];

/// The account name of `account_number` at bank `bank_code`, or `None` for
/// [`UNRESOLVABLE_ACCOUNT`].
pub fn account_name(bank_code: &str, account_number: &str) -> Option<String> {
    if account_number == UNRESOLVABLE_ACCOUNT {
        return None;
    }
    if account_number == "0123456789" {
        return Some("ADAEZE OKAFOR".to_owned());
    }
    // FNV-1a: stable across runs and platforms, unlike the std hasher.
    let hash = format!("{bank_code}/{account_number}")
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
            (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
        });
    let first = FIRST_NAMES[(hash % 12) as usize];
    let last = LAST_NAMES[((hash >> 32) % 12) as usize];
    Some(format!("{first} {last}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_deterministic() {
        assert_eq!(
            account_name("058", "0123456789").as_deref(),
            Some("ADAEZE OKAFOR")
        );
        assert_eq!(account_name("058", UNRESOLVABLE_ACCOUNT), None);
        let once = account_name("044", "1234567890");
        assert_eq!(once, account_name("044", "1234567890"));
        assert!(once.is_some());
        assert_eq!(bank_name(Currency::Ngn, "058"), Some("Guaranty Trust Bank"));
        assert_eq!(bank_name(Currency::Kes, "058"), None);
        assert!(banks(Currency::Usdt).is_empty());
    }
}
