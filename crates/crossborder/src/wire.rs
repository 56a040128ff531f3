//! Helpers for reading the generated wire types into the SDK's types.

use rust_decimal::Decimal;

use crate::error::{body_prefix, Error};

/// A response whose content broke an expectation the generated types could
/// not express (a decimal sent as malformed text).
pub(crate) fn mismatch<T: serde::Serialize>(status: u16, message: String, value: &T) -> Error {
    let body = serde_json::to_vec(value).unwrap_or_default();
    Error::Decode {
        status: Some(status),
        message,
        body_prefix: body_prefix(&body),
    }
}

/// Parses a decimal sent as a JSON string (`amountToTransfer`) exactly.
pub(crate) fn parse_decimal_text(field: &str, text: &str) -> Result<Decimal, String> {
    let trimmed = text.trim();
    trimmed
        .parse::<crossborder_api::decimal::DecimalString>()
        .map(|value| value.get())
        .map_err(|error| format!("`{field}` is not a decimal: {error}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimal_text() {
        assert_eq!(
            parse_decimal_text("a", "50000.10").unwrap().to_string(),
            "50000.10"
        );
        assert!(parse_decimal_text("a", "fifty").is_err());
    }
}
