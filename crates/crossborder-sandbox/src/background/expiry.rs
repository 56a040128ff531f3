//! Collections lapse on their own: a background sweep marks every lapsed
//! collection `EXPIRED` and announces it by webhook, so a receiver hears of
//! an expiry even when nobody reads the collection (a read or a funding
//! that finds it lapsed first announces it instead; each expiry once).

use std::time::Duration;

use tokio::task::JoinHandle;

use crate::store::state::AppState;
use crate::sync::lock;

/// The shortest pause between two sweeps.
const MIN_INTERVAL: Duration = Duration::from_millis(1);

/// Sweeps every account's collections every `interval` until aborted.
pub(crate) fn spawn_sweeper(state: AppState, interval: Duration) -> JoinHandle<()> {
    let interval = interval.max(MIN_INTERVAL);
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(interval).await;
            sweep(&state);
        }
    })
}

/// Expires what has lapsed and sends one event per expiry; settles the
/// payouts that are due.
pub(crate) fn sweep(state: &AppState) {
    let now = state.now();
    for (owner, account) in state.businesses() {
        let mut account = lock(account);
        // Payouts whose settlement delay has passed settle here too, so a
        // payout settles on time even when nobody reads it.
        account.settle_due(now);
        let events: Vec<_> = account
            .collections
            .values_mut()
            .filter_map(|collection| {
                let transaction = &mut collection.transaction;
                transaction
                    .refresh(now)
                    .then(|| transaction.status_event())?
            })
            .collect();
        let url = account.webhook_url.clone();
        drop(account);
        if let Some(url) = url {
            for event in &events {
                state.webhooks().send(owner, url.clone(), event, now);
            }
        }
    }
}
