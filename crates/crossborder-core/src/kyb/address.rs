//! The postal address object shared by businesses, directors and UBOs.

use crate::kyb::Mode;
use crate::violation::{present, Collector};

/// A borrowed, unparsed view of an address object:
/// `{ houseNumber, street, city, state, zipCode, subdivision? }`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AddressFields<'a> {
    /// `houseNumber` (required).
    pub house_number: Option<&'a str>,
    /// `street` (required).
    pub street: Option<&'a str>,
    /// `city` (required).
    pub city: Option<&'a str>,
    /// `state` (required).
    pub state: Option<&'a str>,
    /// `zipCode` (required).
    pub zip_code: Option<&'a str>,
    /// `subdivision` (optional).
    pub subdivision: Option<&'a str>,
}

impl AddressFields<'_> {
    /// True when no field is present, as when the object was not sent.
    pub fn is_empty(&self) -> bool {
        [
            self.house_number,
            self.street,
            self.city,
            self.state,
            self.zip_code,
            self.subdivision,
        ]
        .iter()
        .all(Option::is_none)
    }

    /// Checks the required parts, reporting them as `<prefix>.<part>`.
    pub(crate) fn check(&self, collector: &mut Collector, prefix: &str, mode: Mode) {
        let parts = [
            ("houseNumber", self.house_number),
            ("street", self.street),
            ("city", self.city),
            ("state", self.state),
            ("zipCode", self.zip_code),
        ];
        for (part, value) in parts {
            mode.field(collector, format!("{prefix}.{part}"), value);
        }
        // Optional everywhere; an update must still not blank it.
        if mode == Mode::Update && self.subdivision.is_some() && present(self.subdivision).is_none()
        {
            mode.field(collector, format!("{prefix}.subdivision"), self.subdivision);
        }
    }
}
