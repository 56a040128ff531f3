//! The status words of the API, as open enums: a word this version does not
//! know is kept in an `Unknown` variant instead of failing, so a status the
//! service adds later never breaks reading a response. The SDK and the
//! sandbox both use these.
//!
//! ```
//! use crossborder_core::status::{BusinessStatus, TransactionStatus, TransactionType};
//!
//! assert_eq!("PARTIALLY_PAID".parse(), Ok(TransactionStatus::PartiallyPaid));
//! assert!(TransactionStatus::Completed.is_terminal());
//! let new: TransactionStatus = "ON_HOLD".parse().unwrap();
//! assert_eq!(new, TransactionStatus::Unknown("ON_HOLD".into()));
//! assert!(!new.is_terminal());
//!
//! assert_eq!("APPROVED".parse(), Ok(BusinessStatus::Approved));
//! assert!(BusinessStatus::Rejected.is_decided());
//! let new: BusinessStatus = "ESCALATED".parse().unwrap();
//! assert_eq!(new.as_str(), "ESCALATED");
//! assert!(!new.is_decided());
//!
//! assert_eq!("PAYOUT".parse(), Ok(TransactionType::Payout));
//! ```

pub use crate::enums::{BusinessStatus, TransactionStatus, TransactionType};

impl TransactionStatus {
    /// True for `COMPLETED`, `EXPIRED` and `FAILED`: the status will not
    /// change any more. Unknown statuses are not terminal.
    pub fn is_terminal(&self) -> bool {
        matches!(
            self,
            TransactionStatus::Completed | TransactionStatus::Expired | TransactionStatus::Failed
        )
    }
}

impl BusinessStatus {
    /// True once verification is decided (`APPROVED` or `REJECTED`).
    pub fn is_decided(&self) -> bool {
        matches!(self, BusinessStatus::Approved | BusinessStatus::Rejected)
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
