//! The parts a business request is made of: its addresses, what it does,
//! its proof of address, its expected volume and its source of funds.

use crossborder_api::types as wire;
use crossborder_core::kyb::AddressFields;
use rust_decimal::Decimal;

use crate::{Currency, ProofOfAddressType};

/// A postal address: `{ houseNumber, street, city, state, zipCode, subdivision? }`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Address {
    /// `houseNumber`.
    pub house_number: String,
    /// `street`.
    pub street: String,
    /// `city`.
    pub city: String,
    /// `state`.
    pub state: String,
    /// `zipCode`.
    pub zip_code: String,
    /// `subdivision` (optional).
    pub subdivision: Option<String>,
}

impl Address {
    pub(crate) fn fields(&self) -> AddressFields<'_> {
        AddressFields {
            house_number: Some(&self.house_number),
            street: Some(&self.street),
            city: Some(&self.city),
            state: Some(&self.state),
            zip_code: Some(&self.zip_code),
            subdivision: self.subdivision.as_deref(),
        }
    }

    pub(crate) fn from_wire(wire: wire::Address) -> Address {
        let wire::Address {
            house_number,
            street,
            city,
            state,
            zip_code,
            subdivision,
        } = wire;
        Address {
            house_number,
            street,
            city,
            state,
            zip_code,
            subdivision,
        }
    }

    pub(crate) fn to_wire(&self) -> wire::Address {
        wire::Address {
            house_number: self.house_number.clone(),
            street: self.street.clone(),
            city: self.city.clone(),
            state: self.state.clone(),
            zip_code: self.zip_code.clone(),
            subdivision: self.subdivision.clone(),
        }
    }
}

/// `natureOfBusiness`: what the business does.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NatureOfBusiness {
    /// `nature`: free text.
    pub nature: String,
    /// `code`: the caller's own classification code.
    pub code: String,
}

/// `proofOfAddress`: an uploaded document proving the business address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProofOfAddress {
    /// The upload's link.
    pub url: String,
    /// The caller's identifier for the document.
    pub key: String,
    /// The kind of document (wire name `type`).
    pub kind: ProofOfAddressType,
}

/// The expected monthly volume of a business.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MonthlyTransactionVolume {
    /// The currency of the volume.
    pub currency: Currency,
    /// The amount, exact (sent as a decimal string).
    pub amount: Decimal,
}

/// `sourceOfFund`: where the business's funds come from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SourceOfFund {
    /// A supporting document's link.
    pub url: Option<String>,
    /// The kind of source (wire name `type`).
    pub kind: String,
    /// A name for it.
    pub name: Option<String>,
}
