//! The status words of the API, as open enums: a word this version does not
//! know is kept in an `Unknown` variant instead of failing, so a status the
//! service adds later never breaks reading a response. The SDK and the
//! sandbox both use these.

use std::convert::Infallible;
use std::fmt;
use std::str::FromStr;

/// The status of a collection or payout. The set is open: a value this
/// version does not know is kept in [`TransactionStatus::Unknown`].
///
/// ```
/// use crossborder_core::status::TransactionStatus;
///
/// assert_eq!("PARTIALLY_PAID".parse(), Ok(TransactionStatus::PartiallyPaid));
/// assert!(TransactionStatus::Completed.is_terminal());
/// let new: TransactionStatus = "ON_HOLD".parse().unwrap();
/// assert_eq!(new, TransactionStatus::Unknown("ON_HOLD".into()));
/// assert!(!new.is_terminal());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum TransactionStatus {
    /// `PENDING`: created, nothing paid yet.
    Pending,
    /// `PROCESSING`: a payout is on its way.
    Processing,
    /// `PARTIALLY_PAID`: a collection received part of its amount.
    PartiallyPaid,
    /// `COMPLETED`: fully paid (terminal).
    Completed,
    /// `EXPIRED`: the payment instruction lapsed unpaid (terminal).
    Expired,
    /// `FAILED`: the payout failed (terminal).
    Failed,
    /// A status this version does not know, as sent.
    Unknown(String),
}

impl TransactionStatus {
    /// The wire spelling.
    pub fn as_str(&self) -> &str {
        match self {
            TransactionStatus::Pending => "PENDING",
            TransactionStatus::Processing => "PROCESSING",
            TransactionStatus::PartiallyPaid => "PARTIALLY_PAID",
            TransactionStatus::Completed => "COMPLETED",
            TransactionStatus::Expired => "EXPIRED",
            TransactionStatus::Failed => "FAILED",
            TransactionStatus::Unknown(other) => other,
        }
    }

    /// True for `COMPLETED`, `EXPIRED` and `FAILED`: the status will not
    /// change any more. Unknown statuses are not terminal.
    pub fn is_terminal(&self) -> bool {
        matches!(
            self,
            TransactionStatus::Completed | TransactionStatus::Expired | TransactionStatus::Failed
        )
    }
}

impl FromStr for TransactionStatus {
    type Err = Infallible;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Ok(match text {
            "PENDING" => TransactionStatus::Pending,
            "PROCESSING" => TransactionStatus::Processing,
            "PARTIALLY_PAID" => TransactionStatus::PartiallyPaid,
            "COMPLETED" => TransactionStatus::Completed,
            "EXPIRED" => TransactionStatus::Expired,
            "FAILED" => TransactionStatus::Failed,
            other => TransactionStatus::Unknown(other.to_owned()),
        })
    }
}

impl fmt::Display for TransactionStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The verification status of a business, or of one of its fields. The set
/// is open: a value this version does not know is kept in
/// [`BusinessStatus::Unknown`].
///
/// ```
/// use crossborder_core::status::BusinessStatus;
///
/// assert_eq!("APPROVED".parse(), Ok(BusinessStatus::Approved));
/// assert!(BusinessStatus::Rejected.is_decided());
/// let new: BusinessStatus = "ESCALATED".parse().unwrap();
/// assert_eq!(new.as_str(), "ESCALATED");
/// assert!(!new.is_decided());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum BusinessStatus {
    /// `PENDING`: waiting for a director and a UBO, or for review.
    Pending,
    /// `SUBMITTED`: submitted for verification.
    Submitted,
    /// `APPROVED`.
    Approved,
    /// `REJECTED`: verification refused, with a reason.
    Rejected,
    /// A status this version does not know, as sent.
    Unknown(String),
}

impl BusinessStatus {
    /// The wire spelling.
    pub fn as_str(&self) -> &str {
        match self {
            BusinessStatus::Pending => "PENDING",
            BusinessStatus::Submitted => "SUBMITTED",
            BusinessStatus::Approved => "APPROVED",
            BusinessStatus::Rejected => "REJECTED",
            BusinessStatus::Unknown(other) => other,
        }
    }

    /// True once verification is decided (`APPROVED` or `REJECTED`).
    pub fn is_decided(&self) -> bool {
        matches!(self, BusinessStatus::Approved | BusinessStatus::Rejected)
    }
}

impl FromStr for BusinessStatus {
    type Err = Infallible;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Ok(match text {
            "PENDING" => BusinessStatus::Pending,
            "SUBMITTED" => BusinessStatus::Submitted,
            "APPROVED" => BusinessStatus::Approved,
            "REJECTED" => BusinessStatus::Rejected,
            other => BusinessStatus::Unknown(other.to_owned()),
        })
    }
}

impl fmt::Display for BusinessStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_known_word_reads_back_as_itself() {
        for word in [
            "PENDING",
            "PROCESSING",
            "PARTIALLY_PAID",
            "COMPLETED",
            "EXPIRED",
            "FAILED",
        ] {
            let status: TransactionStatus = word.parse().unwrap();
            assert!(!matches!(status, TransactionStatus::Unknown(_)), "{word}");
            assert_eq!(status.to_string(), word);
        }
        for word in ["PENDING", "SUBMITTED", "APPROVED", "REJECTED"] {
            let status: BusinessStatus = word.parse().unwrap();
            assert!(!matches!(status, BusinessStatus::Unknown(_)), "{word}");
            assert_eq!(status.to_string(), word);
        }
        assert_eq!(
            "completed".parse::<TransactionStatus>(),
            Ok(TransactionStatus::Unknown("completed".into()))
        );
    }
}
