//! How each part of a typed KYB request goes to and comes from the wire:
//! the generated requests (`business_request.rs`, `person_request.rs`)
//! convert every field with [`Wire`], so they name no type's conversion.

use crossborder_core::kyb::BusinessFields;
use crossborder_core::parse_amount;
use rust_decimal::Decimal;

use crate::error::{Rule, Violation};
use crate::types::{BusinessType, IdType, ProofOfAddressType};

/// A part of a typed request and its wire form.
pub(crate) trait Wire: Sized {
    type Wire;

    fn to_wire(&self) -> Self::Wire;

    /// The part a wire value (the JSON checks passed) reads as; `field`
    /// names it in a violation.
    fn from_wire(wire: Self::Wire, field: &'static str) -> Result<Self, Violation>;

    /// True for a wire value that counts as absent where the part is
    /// optional (a blank decimal, as the rules treat it).
    fn is_blank(_wire: &Self::Wire) -> bool {
        false
    }
}

impl<T: Wire> Wire for Option<T> {
    type Wire = Option<T::Wire>;

    fn to_wire(&self) -> Option<T::Wire> {
        self.as_ref().map(T::to_wire)
    }

    fn from_wire(wire: Option<T::Wire>, field: &'static str) -> Result<Self, Violation> {
        wire.filter(|wire| !T::is_blank(wire))
            .map(|wire| T::from_wire(wire, field))
            .transpose()
    }
}

/// Parts held as they are sent.
macro_rules! as_sent {
    ($($type:ty),+) => {
        $(impl Wire for $type {
            type Wire = $type;

            fn to_wire(&self) -> $type {
                self.clone()
            }

            fn from_wire(wire: $type, _: &'static str) -> Result<$type, Violation> {
                Ok(wire)
            }
        })+
    };
}
as_sent!(
    String,
    bool,
    Vec<String>,
    BusinessType,
    IdType,
    ProofOfAddressType
);

/// A decimal string on the wire (`ownershipPercentage`), held exact. The
/// rules read it with the same function, so a body they passed parses.
impl Wire for Decimal {
    type Wire = String;

    fn to_wire(&self) -> String {
        self.to_string()
    }

    fn from_wire(text: String, field: &'static str) -> Result<Decimal, Violation> {
        parse_amount(&text)
            .map_err(|error| Violation::new(field, Rule::InvalidFormat, error.to_string()))
    }

    fn is_blank(text: &String) -> bool {
        text.trim().is_empty()
    }
}

/// The one TIN of a body that may give it as `tin`, `TIN` or both: a blank
/// one counts as not given (as the rules treat it), and two given values
/// must be the same (`TIN: differs from tin: give one tax identification
/// number`), since the SDK holds one TIN and sends it under both spellings.
pub(crate) fn one_tin<'t>(
    lower: Option<&'t str>,
    upper: Option<&'t str>,
) -> Result<Option<&'t str>, Violation> {
    let given = |tin: Option<&str>| tin.is_some_and(|t| !t.trim().is_empty());
    match (given(lower), given(upper)) {
        (true, true) if lower != upper => Err(Violation::new(
            BusinessFields::TIN_UPPERCASE,
            Rule::Mismatch,
            "differs from tin: give one tax identification number",
        )),
        (false, true) => Ok(upper),
        _ => Ok(lower.or(upper)),
    }
}
