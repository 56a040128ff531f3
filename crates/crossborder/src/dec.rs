//! `dec!`: a decimal literal checked and built at compile time, without a
//! proc-macro. rust_decimal's own `dec!` (rust_decimal_macros) expands to a
//! path through the `rust_decimal` crate, so a user of this SDK would have to
//! depend on rust_decimal too; this one goes through `$crate`.

use rust_decimal::Decimal;

/// An exact [`Decimal`](crate::Decimal) from a decimal literal, checked at
/// compile time: `dec!(100.50)` is 100.50 with its two decimal places, and
/// a literal that is not a decimal number (`dec!(1e3)`, `dec!(0x10)`) or
/// does not fit (more than 28 decimal places, 96 bits of digits) does not
/// compile.
///
/// ```
/// use crossborder::{dec, Decimal};
///
/// assert_eq!(dec!(100.50), Decimal::new(10_050, 2));
/// assert_eq!(dec!(100.50).to_string(), "100.50");
/// assert_eq!(dec!(-0.000001), Decimal::new(-1, 6));
/// assert_eq!(dec!(1_000_000), Decimal::new(1_000_000, 0));
/// const FEE: Decimal = dec!(1.5);
/// assert_eq!(FEE, Decimal::new(15, 1));
/// ```
///
/// ```compile_fail
/// let _ = crossborder::dec!(1e3);
/// ```
#[macro_export]
macro_rules! dec {
    ($($literal:tt)+) => {{
        const VALUE: $crate::Decimal = $crate::__private::parse_decimal(stringify!($($literal)+));
        VALUE
    }};
}

/// Parses a decimal literal as `stringify!` writes it (`100.50`,
/// `- 0.5`, `1_000`); panics, which in a `const` is a compile error, on
/// anything else.
#[doc(hidden)]
pub const fn parse_decimal(text: &str) -> Decimal {
    let bytes = text.as_bytes();
    let mut i = 0;
    let mut negative = false;
    while i < bytes.len() && bytes[i] == b' ' {
        i += 1;
    }
    if i < bytes.len() && bytes[i] == b'-' {
        negative = true;
        i += 1;
    }
    let mut mantissa: u128 = 0;
    let mut scale: u32 = 0;
    let mut digits = 0;
    let mut point = false;
    while i < bytes.len() {
        let byte = bytes[i];
        i += 1;
        match byte {
            b'0'..=b'9' => {
                mantissa = match mantissa.checked_mul(10) {
                    Some(shifted) => shifted + (byte - b'0') as u128,
                    None => panic!("dec!: too many digits for a Decimal"),
                };
                if mantissa >= 1 << 96 {
                    panic!("dec!: too many digits for a Decimal (at most 96 bits)");
                }
                digits += 1;
                if point {
                    scale += 1;
                }
            }
            b'_' | b' ' => {}
            b'.' if !point => point = true,
            _ => panic!("dec!: not a decimal literal (digits, one `.`, an optional `-`)"),
        }
    }
    if digits == 0 {
        panic!("dec!: not a decimal literal (no digits)");
    }
    if scale > 28 {
        panic!("dec!: more than 28 decimal places");
    }
    // Below 2^96, so the three 32-bit words hold it.
    Decimal::from_parts(
        mantissa as u32,
        (mantissa >> 32) as u32,
        (mantissa >> 64) as u32,
        negative,
        scale,
    )
}

#[cfg(test)]
mod tests {
    use super::parse_decimal;
    use rust_decimal::Decimal;

    #[test]
    fn literals_as_stringify_writes_them() {
        let d = |text| Decimal::from_str_exact(text).unwrap();
        assert_eq!(parse_decimal("100.50"), d("100.50"));
        assert_eq!(parse_decimal("- 0.5"), d("-0.5"));
        assert_eq!(parse_decimal("1_000_000"), d("1000000"));
        assert_eq!(parse_decimal("0"), Decimal::ZERO);
        assert_eq!(parse_decimal("79228162514264337593543950335"), Decimal::MAX);
        assert_eq!(
            parse_decimal("0.0000000000000000000000000001"),
            Decimal::new(1, 28)
        );
        assert_eq!(crate::dec!(2500.00).to_string(), "2500.00");
    }

    #[test]
    fn anything_else_is_refused() {
        for text in [
            "1e3",
            "0x10",
            "1.2.3",
            "",
            "-",
            "79228162514264337593543950336",
            "0.00000000000000000000000000001",
        ] {
            assert!(
                std::panic::catch_unwind(|| parse_decimal(text)).is_err(),
                "{text}"
            );
        }
    }
}
