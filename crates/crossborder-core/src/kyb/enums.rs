//! The enums of the KYB requests: business type, proof-of-address type, ID
//! type (closed: the wire strings keep the specification's exact, mixed
//! capitalisation), and the role a person is added in (open). Only Nigerian
//! businesses of the three business types are supported.
//!
//! ```
//! use crossborder_core::kyb::{BusinessType, PersonRole};
//!
//! assert_eq!("SoleProprietorship".parse::<BusinessType>().unwrap(), BusinessType::SoleProprietorship);
//! assert!("llc".parse::<BusinessType>().is_err());
//!
//! // A person is added as a director or as an ultimate beneficial owner (the
//! // same person may be added as both); a role this version does not know,
//! // read from a response, is kept as sent.
//! assert_eq!("UBO".parse(), Ok(PersonRole::Ubo));
//! assert_eq!(PersonRole::Director.as_str(), "DIRECTOR");
//! assert_eq!(PersonRole::Ubo.path_segment(), Some("ubo"));
//! assert_eq!("SIGNATORY".parse(), Ok(PersonRole::Unknown("SIGNATORY".into())));
//! ```

use std::fmt;

pub use crate::enums::{
    BusinessType, IdType, PersonRole, ProofOfAddressType, UnknownBusinessType, UnknownIdType,
    UnknownProofOfAddressType,
};

impl PersonRole {
    /// The last path segment of the endpoint that adds this role; none for
    /// an unknown role.
    pub fn path_segment(&self) -> Option<&'static str> {
        match self {
            PersonRole::Director => Some("director"),
            PersonRole::Ubo => Some("ubo"),
            PersonRole::Unknown(_) => None,
        }
    }
}

impl fmt::Display for PersonRole {
    /// `director` or `UBO` (an unknown role as sent), for messages.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PersonRole::Director => "director",
            PersonRole::Ubo => "UBO",
            PersonRole::Unknown(other) => other,
        })
    }
}
