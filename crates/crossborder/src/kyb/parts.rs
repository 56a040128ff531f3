//! The parts a business request is made of: its addresses, what it does,
//! its proof of address, its expected volume and its source of funds.

use crossborder_api::decimal::DecimalString;
use crossborder_api::types as wire;
use rust_decimal::Decimal;

use super::convert::Wire;
use crate::{Currency, ProofOfAddressType, Violation};

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

impl Wire for Address {
    type Wire = wire::Address;

    fn to_wire(&self) -> wire::Address {
        wire::Address {
            house_number: self.house_number.clone(),
            street: self.street.clone(),
            city: self.city.clone(),
            state: self.state.clone(),
            zip_code: self.zip_code.clone(),
            subdivision: self.subdivision.clone(),
        }
    }

    fn from_wire(wire: wire::Address, _: &'static str) -> Result<Address, Violation> {
        Ok(Address {
            house_number: wire.house_number,
            street: wire.street,
            city: wire.city,
            state: wire.state,
            zip_code: wire.zip_code,
            subdivision: wire.subdivision,
        })
    }
}

impl Wire for NatureOfBusiness {
    type Wire = wire::NatureOfBusiness;

    fn to_wire(&self) -> wire::NatureOfBusiness {
        wire::NatureOfBusiness {
            nature: self.nature.clone(),
            code: self.code.clone(),
        }
    }

    fn from_wire(wire: wire::NatureOfBusiness, _: &'static str) -> Result<Self, Violation> {
        let wire::NatureOfBusiness { nature, code } = wire;
        Ok(NatureOfBusiness { nature, code })
    }
}

impl Wire for ProofOfAddress {
    type Wire = wire::ProofOfAddress;

    fn to_wire(&self) -> wire::ProofOfAddress {
        wire::ProofOfAddress {
            url: self.url.clone(),
            key: self.key.clone(),
            type_: self.kind,
        }
    }

    fn from_wire(wire: wire::ProofOfAddress, _: &'static str) -> Result<Self, Violation> {
        let wire::ProofOfAddress { url, key, type_ } = wire;
        Ok(ProofOfAddress {
            url,
            key,
            kind: type_,
        })
    }
}

impl Wire for MonthlyTransactionVolume {
    type Wire = wire::MonthlyTransactionVolume;

    fn to_wire(&self) -> wire::MonthlyTransactionVolume {
        wire::MonthlyTransactionVolume {
            currency: self.currency,
            amount: DecimalString::new(self.amount),
        }
    }

    fn from_wire(wire: wire::MonthlyTransactionVolume, _: &'static str) -> Result<Self, Violation> {
        Ok(MonthlyTransactionVolume {
            currency: wire.currency,
            amount: wire.amount.0,
        })
    }
}

impl Wire for SourceOfFund {
    type Wire = wire::SourceOfFund;

    fn to_wire(&self) -> wire::SourceOfFund {
        wire::SourceOfFund {
            url: self.url.clone(),
            type_: self.kind.clone(),
            name: self.name.clone(),
        }
    }

    fn from_wire(wire: wire::SourceOfFund, _: &'static str) -> Result<Self, Violation> {
        let wire::SourceOfFund { url, type_, name } = wire;
        Ok(SourceOfFund {
            url,
            kind: type_,
            name,
        })
    }
}
