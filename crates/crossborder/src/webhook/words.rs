//! The service's status words, as a caller learns them.
//!
//! The API description does not show the words the service uses for a
//! collection's status (ASSUMPTIONS.md A1 chose `COMPLETED`,
//! `PARTIALLY_PAID`...). A word this SDK does not know must not turn every
//! genuine event into a failure: [`verify`](super::verify) then checks the
//! event against the transaction's amounts, and [`StatusWords`] lets a caller
//! who knows the service's words say what they mean, once.

/// What a status word means.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum StatusMeaning {
    /// The collection is fully paid.
    Completed,
    /// Part of the amount is paid and the collection is still open.
    PartiallyPaid,
    /// The collection failed or lapsed.
    Failed,
}

/// Status words the caller has learnt from the service, each with what it
/// means. They are read in the event's `status` and in the transaction's
/// `status` (ASSUMPTIONS.md B70), in any case and with spaces around, before
/// the words this SDK knows; a word mapped here is taken at its word.
///
/// By default nothing is added: the transaction's status is read as A1
/// says, and a transaction status outside A1 (`SUCCESSFUL`, `PAID`, an empty
/// string) is judged by its amounts.
///
/// ```
/// use crossborder::webhook::{StatusMeaning, StatusWords};
///
/// let words = StatusWords::new()
///     .with("SUCCESSFUL", StatusMeaning::Completed)
///     .with("PART_PAID", StatusMeaning::PartiallyPaid);
/// assert_eq!(words.meaning(" successful "), Some(StatusMeaning::Completed));
/// assert_eq!(words.meaning("PAID"), None);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StatusWords {
    words: Vec<(String, StatusMeaning)>,
}

impl StatusWords {
    /// No words beyond the SDK's own.
    pub fn new() -> StatusWords {
        StatusWords::default()
    }

    /// `word` means `meaning` (a later mapping of the same word wins).
    pub fn with(mut self, word: impl Into<String>, meaning: StatusMeaning) -> StatusWords {
        let word = word.into().trim().to_owned();
        self.words
            .retain(|(known, _)| !known.eq_ignore_ascii_case(&word));
        self.words.push((word, meaning));
        self
    }

    /// What `word` means to the caller, if they mapped it.
    pub fn meaning(&self, word: &str) -> Option<StatusMeaning> {
        let word = word.trim();
        self.words
            .iter()
            .find(|(known, _)| known.eq_ignore_ascii_case(word))
            .map(|(_, meaning)| *meaning)
    }
}
