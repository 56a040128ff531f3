//! Shapes of contact details: email addresses and E.164 phone numbers.

/// The message for an email address of the wrong shape.
pub(crate) const EMAIL_MESSAGE: &str = "must be an email address such as name@example.com";

/// The message for a phone number not in E.164 format.
pub(crate) const PHONE_MESSAGE: &str = "must be in E.164 format, such as +2348012345678";

/// True when `text` has the shape of an email address: no whitespace, exactly
/// one `@` with text on both sides, and a domain containing a `.` that neither
/// starts nor ends it. Deliverability is not checked.
///
/// ```
/// use crossborder_core::kyb::is_email;
///
/// assert!(is_email("ops@example.com"));
/// assert!(!is_email("ops@localhost"));
/// ```
pub fn is_email(text: &str) -> bool {
    if text.chars().any(char::is_whitespace) {
        return false;
    }
    let Some((local, domain)) = text.split_once('@') else {
        return false;
    };
    !local.is_empty()
        && !domain.contains('@')
        && domain.contains('.')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && !domain.contains("..")
}

/// True when `text` is an E.164 phone number: `+`, then 8 to 15 digits, the
/// first of which is not 0.
///
/// ```
/// use crossborder_core::kyb::is_e164_phone_number;
///
/// assert!(is_e164_phone_number("+2348012345678"));
/// assert!(!is_e164_phone_number("08012345678"));
/// ```
pub fn is_e164_phone_number(text: &str) -> bool {
    let Some(digits) = text.strip_prefix('+') else {
        return false;
    };
    (8..=15).contains(&digits.len())
        && digits.bytes().all(|b| b.is_ascii_digit())
        && !digits.starts_with('0')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn email_shapes() {
        let table = [
            ("ops@example.com", true),
            ("first.last+tag@sub.example.ng", true),
            ("a@b.co", true),
            ("", false),
            ("ops", false),
            ("ops@", false),
            ("@example.com", false),
            ("ops@example", false),
            ("ops@@example.com", false),
            ("ops@ex@ample.com", false),
            ("ops @example.com", false),
            ("ops@example.com ", false),
            ("ops@.example.com", false),
            ("ops@example.com.", false),
            ("ops@example..com", false),
        ];
        for (text, valid) in table {
            assert_eq!(is_email(text), valid, "{text:?}");
        }
    }

    #[test]
    fn phone_shapes() {
        let table = [
            ("+2348012345678", true),
            ("+14155552671", true),
            ("+12345678", true),
            ("+123456789012345", true),
            ("+1234567", false),
            ("+1234567890123456", false),
            ("+0348012345678", false),
            ("2348012345678", false),
            ("+234 801 234 5678", false),
            ("+234-8012345678", false),
            ("++2348012345678", false),
            ("", false),
            ("+", false),
        ];
        for (text, valid) in table {
            assert_eq!(is_e164_phone_number(text), valid, "{text:?}");
        }
    }
}
