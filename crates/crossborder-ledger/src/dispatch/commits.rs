//! Group commit of a dispatcher's changes: the changes its payouts make
//! while another is being written wait in a queue, and whichever takes the
//! turn next writes them all in one transaction (one `fsync` on SQLite).
//! Each caller goes on once its change is on disk, as when it wrote alone:
//! a quoted payout is `sending` with its quote before it is sent.

use crate::error::LedgerError;
use crate::lease::{Change, Claimed};
use crate::ledger::Ledger;
use crate::queue::{Queue, Turn};
use crate::record::PayoutRecord;

/// What applying one change gave: the payout's new record, or `None` when
/// it is no longer this dispatcher's ([`Ledger::apply`]).
type Applied = Result<Option<PayoutRecord>, LedgerError>;

/// The changes waiting for their turn.
#[derive(Debug, Default)]
pub(super) struct Commits {
    queue: Queue<(Claimed, Change), Applied>,
    /// Held by the caller writing a group.
    turn: tokio::sync::Mutex<()>,
}

impl Commits {
    /// Applies `change` to `claimed` for `owner`, with the changes queued
    /// meanwhile, in one transaction; returns once it is committed.
    pub(super) async fn apply(
        &self,
        ledger: &Ledger,
        owner: &str,
        claimed: &Claimed,
        change: Change,
    ) -> Applied {
        let ticket = self.queue.push((claimed.clone(), change.clone()));
        let _turn = self.turn.lock().await;
        let group = match self.queue.turn(ticket) {
            Turn::Answered(applied) => return applied,
            // If the transaction of the caller that took it did commit, the
            // payout is no longer in the state it was claimed in: `None`.
            Turn::Lost => return ledger.apply(owner, claimed, &change).await,
            Turn::Write(group) => group,
        };
        let changes: Vec<(&Claimed, Change)> = group
            .items()
            .iter()
            .map(|(claimed, change)| (claimed, change.clone()))
            .collect();
        let applied: Vec<Applied> = match ledger.apply_all(owner, &changes).await {
            Ok(records) => records.into_iter().map(Ok).collect(),
            // One change may be what failed: each alone, so every caller
            // gets its own outcome.
            Err(error) if changes.len() == 1 => vec![Err(error)],
            Err(_) => {
                let mut each = Vec::with_capacity(changes.len());
                for (claimed, change) in &changes {
                    each.push(ledger.apply(owner, claimed, change).await);
                }
                each
            }
        };
        match group.answer(applied) {
            Some(applied) => applied,
            None => ledger.apply(owner, claimed, &change).await,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::PayoutState;
    use crossborder::Decimal;
    use crossborder_testkit::fixtures;

    fn to(state: PayoutState) -> Change {
        Change::to(state, format!("to {state}"))
    }

    /// Changes queued behind another's commit are written together; when
    /// one of them cannot be made, each caller still gets its own outcome
    /// and the others are made.
    #[tokio::test]
    async fn each_caller_gets_its_own_outcome_when_one_of_a_group_fails() {
        let ledger = Ledger::open("sqlite::memory:").await.unwrap();
        for id in ["group-1", "group-2", "group-3"] {
            let payout = fixtures::ngn_bank_payout(Decimal::ONE, id);
            ledger.submit(&payout).await.unwrap();
        }
        let claim = ledger
            .claim("t", 60_000, 10, false, "claimed", &[])
            .await
            .unwrap();
        let claimed: Vec<Claimed> = claim.claimed;
        assert_eq!(claimed.len(), 3);
        let commits = Commits::default();
        // The first takes the turn; the other two queue behind its commit
        // and are written as one group, in which `sending` to `recorded`
        // fails.
        let wanted = [
            PayoutState::Accepted,
            PayoutState::Recorded,
            PayoutState::Refused,
        ];
        let applied = futures_util::future::join_all(
            claimed
                .iter()
                .zip(wanted)
                .map(|(c, state)| commits.apply(&ledger, "t", c, to(state))),
        )
        .await;
        let states: Vec<_> = applied
            .iter()
            .map(|a| a.as_ref().map(|r| r.as_ref().map(|r| r.state)))
            .collect();
        assert!(
            matches!(states[0], Ok(Some(PayoutState::Accepted))),
            "{states:?}"
        );
        assert_eq!(
            applied[1].as_ref().unwrap_err().to_string(),
            "a payout cannot go from sending to recorded"
        );
        assert!(
            matches!(states[2], Ok(Some(PayoutState::Refused))),
            "{states:?}"
        );
        let stored: Vec<_> = ledger.payouts().await.unwrap();
        let stored: Vec<_> = stored
            .iter()
            .map(|r| (r.session_id.as_str(), r.state))
            .collect();
        assert_eq!(
            stored,
            [
                ("group-1", PayoutState::Accepted),
                ("group-2", PayoutState::Sending),
                ("group-3", PayoutState::Refused)
            ]
        );
    }
}
