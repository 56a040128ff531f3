//! The postal address object shared by businesses, directors and UBOs.

use crate::kyb::Mode;
use crate::views::AddressFields;
use crate::violation::{present, Collector};

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
