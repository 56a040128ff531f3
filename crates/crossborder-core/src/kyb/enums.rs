//! The closed enums of the KYB requests: business type, proof-of-address
//! type, ID type, and the role a person is added in.

use std::fmt;
use std::str::FromStr;

use crate::wire_enum::{one_of, wire_enum};

wire_enum! {
    /// The legal form of a business; it decides the required documents.
    /// Only Nigerian businesses of these three types are supported.
    ///
    /// ```
    /// use crossborder_core::kyb::BusinessType;
    ///
    /// assert_eq!("SoleProprietorship".parse::<BusinessType>().unwrap(), BusinessType::SoleProprietorship);
    /// assert!("llc".parse::<BusinessType>().is_err());
    /// ```
    pub enum BusinessType {
        /// Limited liability company.
        Llc = "LLC",
        /// Limited liability partnership (needs the same documents as LLC).
        Llp = "LLP",
        /// Sole proprietorship (registered with a BN number).
        SoleProprietorship = "SoleProprietorship",
    }

    /// A business type that is not LLC, LLP or SoleProprietorship.
    #[error("Invalid business type: {0} (expected one of {expected})", expected = one_of(&BusinessType::ALL, BusinessType::as_str))]
    pub struct UnknownBusinessType(pub String);
}

wire_enum! {
    /// The kind of document given as a business's proof of address. The
    /// wire strings keep the specification's exact capitalisation.
    pub enum ProofOfAddressType {
        /// `Utility bill`.
        UtilityBill = "Utility bill",
        /// `Tax Bill`.
        TaxBill = "Tax Bill",
        /// `Electricity Bill`.
        ElectricityBill = "Electricity Bill",
        /// `Lease agreement`.
        LeaseAgreement = "Lease agreement",
        /// `Tenancy agreement`.
        TenancyAgreement = "Tenancy agreement",
        /// `Recent utility bill`.
        RecentUtilityBill = "Recent utility bill",
        /// `Council tax bill`.
        CouncilTaxBill = "Council tax bill",
    }

    /// A proof-of-address type that is not one of the seven accepted strings.
    #[error("Invalid proof of address type: {0} (expected one of {expected})", expected = one_of(&ProofOfAddressType::ALL, ProofOfAddressType::as_str))]
    pub struct UnknownProofOfAddressType(pub String);
}

wire_enum! {
    /// The kind of identity document of a director or UBO. The wire strings
    /// keep the specification's mixed capitalisation.
    pub enum IdType {
        /// `IdCard`.
        IdCard = "IdCard",
        /// `BioMetricResidencePermit`.
        BioMetricResidencePermit = "BioMetricResidencePermit",
        /// `BirthCertificate`.
        BirthCertificate = "BirthCertificate",
        /// `currentPassport`.
        CurrentPassport = "currentPassport",
        /// `driverLicense`.
        DriverLicense = "driverLicense",
        /// `bvnNumber` (Nigerian Bank Verification Number).
        BvnNumber = "bvnNumber",
        /// `nationalId`.
        NationalId = "nationalId",
    }

    /// An ID type that is not one of the seven accepted strings.
    #[error("Invalid ID type: {0} (expected one of {expected})", expected = one_of(&IdType::ALL, IdType::as_str))]
    pub struct UnknownIdType(pub String);
}

/// Whether a person is added as a director or as an ultimate beneficial
/// owner (the same person may be added as both), and the role a person was
/// recorded in. The set is open: a role this version does not know, read
/// from a response, is kept in [`PersonRole::Unknown`].
///
/// ```
/// use crossborder_core::kyb::PersonRole;
///
/// assert_eq!("UBO".parse(), Ok(PersonRole::Ubo));
/// assert_eq!(PersonRole::Director.as_str(), "DIRECTOR");
/// assert_eq!(PersonRole::Ubo.path_segment(), Some("ubo"));
/// assert_eq!("SIGNATORY".parse(), Ok(PersonRole::Unknown("SIGNATORY".into())));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum PersonRole {
    /// `DIRECTOR`: added with `POST /api/business/{businessId}/director`.
    Director,
    /// `UBO`: added with `POST /api/business/{businessId}/ubo`.
    Ubo,
    /// A role this version does not know, as sent.
    Unknown(String),
}

impl PersonRole {
    /// The wire spelling (`DIRECTOR`, `UBO`, or an unknown one as sent).
    pub fn as_str(&self) -> &str {
        match self {
            PersonRole::Director => "DIRECTOR",
            PersonRole::Ubo => "UBO",
            PersonRole::Unknown(other) => other,
        }
    }

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

impl FromStr for PersonRole {
    type Err = std::convert::Infallible;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Ok(match text {
            "DIRECTOR" => PersonRole::Director,
            "UBO" => PersonRole::Ubo,
            other => PersonRole::Unknown(other.to_owned()),
        })
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
