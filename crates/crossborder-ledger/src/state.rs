//! The payout's states and the one function that says which change is
//! allowed.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// Where a payout stands, as the CLI and `--json` name it.
///
/// ```text
/// recorded ──▶ sending ──▶ accepted ──▶ completed
///                │  ▲          │
///                │  │          └──────▶ failed
///                ▼  │
///             unknown ──▶ accepted
///   sending, recorded, unknown ──▶ refused
/// ```
///
/// `sending` and `unknown` are resolved by reading the payout by its
/// session id before anything is sent again; `completed`, `failed` and
/// `refused` are final and never left.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum PayoutState {
    /// Recorded, nothing sent yet.
    Recorded,
    /// Claimed by a dispatcher that is sending it (or was, when it stopped).
    Sending,
    /// Sent, but no answer says whether the service made it; it is read
    /// before it is sent again.
    Unknown,
    /// The service holds it (pending or processing).
    Accepted,
    /// The service reports it `COMPLETED`.
    Completed,
    /// The service reports it `FAILED`; never sent again by the ledger.
    Failed,
    /// Ended unpaid, final: the API refused it (a 4xx), or the ledger
    /// would not send it (the rate guard's deadline passed, the caller's
    /// own quote expired); [`PayoutRecord::reason`](crate::PayoutRecord::reason)
    /// says which.
    Refused,
}

/// Why a state change was refused by [`PayoutState::transition`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("a payout cannot go from {from} to {to}")]
pub struct InvalidTransition {
    /// The state it was in.
    pub from: PayoutState,
    /// The state asked for.
    pub to: PayoutState,
}

impl PayoutState {
    /// Every state, in the order of the lifecycle.
    pub const ALL: [PayoutState; 7] = [
        PayoutState::Recorded,
        PayoutState::Sending,
        PayoutState::Unknown,
        PayoutState::Accepted,
        PayoutState::Completed,
        PayoutState::Failed,
        PayoutState::Refused,
    ];

    /// The lower-case word (`recorded`, `sending`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            PayoutState::Recorded => "recorded",
            PayoutState::Sending => "sending",
            PayoutState::Unknown => "unknown",
            PayoutState::Accepted => "accepted",
            PayoutState::Completed => "completed",
            PayoutState::Failed => "failed",
            PayoutState::Refused => "refused",
        }
    }

    /// Whether the payout is done with: nothing will change it again.
    pub fn is_final(self) -> bool {
        matches!(
            self,
            PayoutState::Completed | PayoutState::Failed | PayoutState::Refused
        )
    }

    /// The one rule of the lifecycle: `to` if a payout in `self` may move
    /// there, else the refusal.
    ///
    /// ```
    /// use crossborder_ledger::PayoutState;
    ///
    /// assert_eq!(PayoutState::Recorded.transition(PayoutState::Sending), Ok(PayoutState::Sending));
    /// // A failed payout is never sent again by itself.
    /// assert!(PayoutState::Failed.transition(PayoutState::Sending).is_err());
    /// ```
    pub fn transition(self, to: PayoutState) -> Result<PayoutState, InvalidTransition> {
        use PayoutState::*;
        let allowed = matches!(
            (self, to),
            (Recorded, Sending)
                | (Sending, Accepted | Unknown | Refused)
                // Reading found nothing: sent again, with the same session id.
                | (Unknown, Sending | Accepted)
                // Never sent (or read back and not found), and not to be:
                // a quote refused, or the rate guard's deadline passed.
                | (Recorded | Unknown, Refused)
                | (Accepted, Completed | Failed)
        );
        if allowed {
            Ok(to)
        } else {
            Err(InvalidTransition { from: self, to })
        }
    }
}

impl fmt::Display for PayoutState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A word that names no [`PayoutState`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown payout state {0:?}; expected one of recorded, sending, unknown, accepted, completed, failed, refused")]
pub struct UnknownState(pub String);

impl FromStr for PayoutState {
    type Err = UnknownState;

    fn from_str(word: &str) -> Result<PayoutState, UnknownState> {
        PayoutState::ALL
            .into_iter()
            .find(|state| state.as_str() == word)
            .ok_or_else(|| UnknownState(word.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::PayoutState::{self, *};

    /// Every pair of states, and whether the lifecycle allows it.
    #[test]
    fn each_transition_is_allowed_or_refused_by_the_one_rule() {
        let allowed = [
            (Recorded, Sending),
            (Sending, Accepted),
            (Sending, Unknown),
            (Sending, Refused),
            (Unknown, Sending),
            (Unknown, Accepted),
            (Recorded, Refused),
            (Unknown, Refused),
            (Accepted, Completed),
            (Accepted, Failed),
        ];
        for from in PayoutState::ALL {
            for to in PayoutState::ALL {
                let result = from.transition(to);
                if allowed.contains(&(from, to)) {
                    assert_eq!(result, Ok(to), "{from} -> {to}");
                } else {
                    let refused = result.expect_err(&format!("{from} -> {to} must be refused"));
                    assert_eq!(
                        refused.to_string(),
                        format!("a payout cannot go from {from} to {to}")
                    );
                }
            }
        }
    }

    #[test]
    fn final_states_are_never_left() {
        for from in PayoutState::ALL.into_iter().filter(|s| s.is_final()) {
            assert!(
                PayoutState::ALL
                    .iter()
                    .all(|&to| from.transition(to).is_err()),
                "{from}"
            );
        }
        assert_eq!(
            PayoutState::ALL
                .iter()
                .filter(|s| s.is_final())
                .collect::<Vec<_>>(),
            [&Completed, &Failed, &Refused]
        );
    }

    #[test]
    fn words_round_trip_through_display_from_str_and_serde() {
        let words: Vec<String> = PayoutState::ALL.iter().map(|s| s.to_string()).collect();
        assert_eq!(
            words,
            [
                "recorded",
                "sending",
                "unknown",
                "accepted",
                "completed",
                "failed",
                "refused"
            ]
        );
        for state in PayoutState::ALL {
            assert_eq!(state.as_str().parse::<PayoutState>(), Ok(state));
            assert_eq!(
                serde_json::to_string(&state).unwrap(),
                format!("\"{state}\"")
            );
        }
        assert_eq!(
            "Sent".parse::<PayoutState>().unwrap_err().to_string(),
            "unknown payout state \"Sent\"; expected one of recorded, sending, unknown, accepted, completed, failed, refused"
        );
    }
}
