//! Validation failures, shared by every validator of the crate (payouts,
//! businesses, directors and UBOs).
//!
//! Validators report every problem of a request at once, in a fixed order, as
//! a non-empty [`Violations`] list; each [`Violation`] names the wire field,
//! the [`Rule`] that failed (for code to match on) and a message (for people).

use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::fmt;
use std::ops::Deref;

/// Which rule a field broke. Callers match on this rather than on messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Rule {
    /// A required field is absent, empty or only whitespace. The message says
    /// when a conditional field is required (`is required when toCurrency is NGN`).
    Required,
    /// The value does not have the expected shape (decimal, email, E.164
    /// phone number, date, URL, identifier).
    InvalidFormat,
    /// The value has the expected shape but its check digits do not match
    /// (an IBAN's mod-97 digits, an EIP-55 or base58check address checksum):
    /// most often a typo or a value copied in part.
    InvalidChecksum,
    /// A value contradicts another it must agree with (a payout to a
    /// currency other than its quote's).
    Mismatch,
    /// An amount is zero where it must be greater than zero.
    NotPositive,
    /// An amount has more decimal places than its currency's minor unit.
    TooPrecise,
    /// A text is longer than allowed.
    TooLong,
    /// A value is outside its allowed range (a calendar date, a percentage).
    OutOfRange,
    /// A currency code is not one of the 13 supported codes.
    UnknownCurrency,
    /// A value is not one of a closed list (business type, ID type, proof of
    /// address type).
    NotOneOf,
    /// A key of the documents map matches no document type.
    UnknownDocumentKey,
    /// Two keys of the documents map name the same document type.
    DuplicateDocument,
    /// A document the business type requires is missing.
    MissingDocument,
    /// An optional field of an update is present but empty.
    Empty,
    /// A field that cannot be changed after creation was sent in an update.
    NotUpdatable,
    /// A field of a JSON body that the request does not have (most often a
    /// misspelling; the message names the nearest field).
    UnknownField,
    /// An update that changes nothing.
    NothingToUpdate,
}

/// One failed rule on one field.
///
/// ```
/// use crossborder_core::{Rule, Violation};
///
/// let violation = Violation::new("amount", Rule::Required, "is required");
/// assert_eq!(violation.to_string(), "amount: is required");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct Violation {
    /// The field's wire name, with a dot for nested fields
    /// (`accountNumber`, `businessAddress.city`, `documents.cac`).
    pub field: Cow<'static, str>,
    /// The rule that failed.
    pub rule: Rule,
    /// What is wrong, phrased to follow the field name (`is required`).
    pub message: String,
}

impl Violation {
    /// Creates a violation.
    pub fn new(
        field: impl Into<Cow<'static, str>>,
        rule: Rule,
        message: impl Into<String>,
    ) -> Violation {
        Violation {
            field: field.into(),
            rule,
            message: message.into(),
        }
    }
}

impl fmt::Display for Violation {
    /// Formats as `<field>: <message>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

/// A non-empty list of violations, in the order the validator checked the
/// fields (the wire order of the request).
///
/// It dereferences to a slice, so `len`, `iter` and indexing work as usual.
///
/// ```
/// use crossborder_core::{Rule, Violation, Violations};
///
/// let violations = Violations::from_vec(vec![
///     Violation::new("amount", Rule::Required, "is required"),
///     Violation::new("sessionId", Rule::Required, "is required"),
/// ])
/// .unwrap();
/// assert_eq!(violations.len(), 2);
/// assert_eq!(violations.to_string(), "amount: is required; sessionId: is required");
/// assert!(Violations::from_vec(Vec::new()).is_none());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[serde(transparent)]
pub struct Violations(Vec<Violation>);

impl Violations {
    /// Wraps `violations`, or returns `None` when it is empty.
    pub fn from_vec(violations: Vec<Violation>) -> Option<Violations> {
        if violations.is_empty() {
            None
        } else {
            Some(Violations(violations))
        }
    }

    /// The violations as a vector.
    pub fn into_vec(self) -> Vec<Violation> {
        self.0
    }

    /// The violations on one field, in order.
    pub fn on<'a>(&'a self, field: &'a str) -> impl Iterator<Item = &'a Violation> + 'a {
        self.0
            .iter()
            .filter(move |violation| violation.field == field)
    }

    /// The field names, in order (a field may appear more than once).
    pub fn fields(&self) -> impl Iterator<Item = &str> + '_ {
        self.0.iter().map(|violation| violation.field.as_ref())
    }
}

impl From<Violation> for Violations {
    /// The list of one violation (a single rule, such as
    /// [`validate_amount`](crate::validate_amount), reports one).
    ///
    /// ```
    /// use crossborder_core::{Rule, Violation, Violations};
    ///
    /// let one = Violations::from(Violation::new("amount", Rule::Required, "is required"));
    /// assert_eq!(one.to_string(), "amount: is required");
    /// ```
    fn from(violation: Violation) -> Violations {
        Violations(vec![violation])
    }
}

impl Deref for Violations {
    type Target = [Violation];

    fn deref(&self) -> &[Violation] {
        &self.0
    }
}

impl IntoIterator for Violations {
    type Item = Violation;
    type IntoIter = std::vec::IntoIter<Violation>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl<'a> IntoIterator for &'a Violations {
    type Item = &'a Violation;
    type IntoIter = std::slice::Iter<'a, Violation>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl fmt::Display for Violations {
    /// Formats as `<field>: <message>; <field>: <message>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (index, violation) in self.0.iter().enumerate() {
            if index > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{violation}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Violations {}

impl<'de> serde::Deserialize<'de> for Violations {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let violations = Vec::<Violation>::deserialize(deserializer)?;
        Violations::from_vec(violations)
            .ok_or_else(|| serde::de::Error::custom("a list of violations must not be empty"))
    }
}

/// Collects violations while a validator walks the fields in wire order.
#[derive(Debug, Default)]
pub(crate) struct Collector(Vec<Violation>);

impl Collector {
    /// Records one violation.
    pub(crate) fn push(
        &mut self,
        field: impl Into<Cow<'static, str>>,
        rule: Rule,
        message: impl Into<String>,
    ) {
        self.0.push(Violation::new(field, rule, message));
    }

    /// Records a violation made elsewhere.
    pub(crate) fn add(&mut self, violation: Violation) {
        self.0.push(violation);
    }

    /// Records `is required` on `field` when `value` is missing, and returns
    /// the value when it is there.
    pub(crate) fn require<'a>(
        &mut self,
        field: impl Into<Cow<'static, str>>,
        value: Option<&'a str>,
    ) -> Option<&'a str> {
        let value = present(value);
        if value.is_none() {
            self.push(field, Rule::Required, "is required");
        }
        value
    }

    /// Reads an optional field: absent is fine, but a value sent blank is
    /// `must not be empty` (it would stand for nothing, or erase a stored
    /// value). Returns the value when it is there and not blank.
    pub(crate) fn optional<'a>(
        &mut self,
        field: impl Into<Cow<'static, str>>,
        value: Option<&'a str>,
    ) -> Option<&'a str> {
        let kept = present(value);
        if value.is_some() && kept.is_none() {
            self.push(field, Rule::Empty, "must not be empty");
        }
        kept
    }

    /// The recorded violations, for a validator that already knows it failed
    /// (a field it needs is missing, so something was recorded). Should that
    /// ever not hold, a generic violation is returned rather than a panic.
    pub(crate) fn into_violations(self) -> Violations {
        Violations::from_vec(self.0).unwrap_or_else(|| {
            Violations(vec![Violation::new(
                "request",
                Rule::InvalidFormat,
                "could not be validated",
            )])
        })
    }

    /// `Ok(value())` when nothing was recorded, otherwise every violation.
    pub(crate) fn finish<T>(self, value: impl FnOnce() -> T) -> Result<T, Violations> {
        match Violations::from_vec(self.0) {
            Some(violations) => Err(violations),
            None => Ok(value()),
        }
    }
}

/// The value when it is present and not blank: a required string that is
/// empty or only whitespace counts as missing.
pub(crate) fn present(value: Option<&str>) -> Option<&str> {
    value.filter(|text| !text.trim().is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_joins_with_semicolons() {
        let violations = Violations::from_vec(vec![
            Violation::new("amount", Rule::NotPositive, "must be greater than zero"),
            Violation::new(
                "documents.foo",
                Rule::UnknownDocumentKey,
                "Unrecognized document key: foo",
            ),
        ])
        .unwrap();
        assert_eq!(
            violations.to_string(),
            "amount: must be greater than zero; documents.foo: Unrecognized document key: foo"
        );
        assert_eq!(
            violations.fields().collect::<Vec<_>>(),
            ["amount", "documents.foo"]
        );
        assert_eq!(violations.on("amount").count(), 1);
        let error: Box<dyn std::error::Error> = Box::new(violations);
        assert!(error.to_string().starts_with("amount:"));
    }

    #[test]
    fn serde_is_a_plain_list_and_refuses_empty() {
        let violations = Violations::from_vec(vec![Violation::new(
            "sessionId",
            Rule::Required,
            "is required",
        )])
        .unwrap();
        let json = serde_json::to_string(&violations).unwrap();
        assert_eq!(
            json,
            r#"[{"field":"sessionId","rule":"required","message":"is required"}]"#
        );
        assert_eq!(
            serde_json::from_str::<Violations>(&json).unwrap(),
            violations
        );
        assert!(serde_json::from_str::<Violations>("[]").is_err());
    }

    #[test]
    fn blank_counts_as_missing() {
        assert_eq!(present(None), None);
        assert_eq!(present(Some("")), None);
        assert_eq!(present(Some(" \t\n")), None);
        assert_eq!(present(Some(" x ")), Some(" x "));
    }
}
