//! The control API's reads and actions, once: the HTTP routes
//! ([`crate::control::routes`]) and [`SandboxHandle`](crate::SandboxHandle)'s
//! methods both call these. Each works on the caller's own business under
//! its account's lock, checks everything before changing anything, and
//! answers the changed object as the read model shows it.

use crossborder_core::{check_amount, Currency, Rule, Violation};
use rust_decimal::Decimal;

use crate::amount::check_max_amount;
use crate::control::view::state_of;
use crate::control::{
    BalanceView, BusinessView, CollectionView, DeliveryView, FaultSettingsView, PayoutView,
    SandboxState, SettingsView,
};
use crate::faults::FaultConfig;
use crate::http::auth::Caller;
use crate::http::error::ApiError;
use crate::settlement::PayoutSettlement;
use crate::store::account::Account;
use crate::store::business::Status;
use crate::store::collection_funding::{require_open, Payment, Tenant};
use crate::store::records::Settle;
use crate::store::state::AppState;

/// The reason of a payout failed without one.
pub const DEFAULT_FAILURE_REASON: &str = "Failed through the sandbox's control API";

/// The caller's business, as the actions see it.
pub(crate) struct Control<'a> {
    pub(crate) state: &'a AppState,
    pub(crate) caller: &'a Caller,
}

impl Control<'_> {
    /// Everything the business holds.
    pub(crate) fn state(&self) -> SandboxState {
        let owner = self.caller.business();
        let deliveries = self.state.webhooks().sent_by(owner);
        let requests = self.state.requests().of(owner);
        let faults = self.state.faults().of(owner);
        let config = self.state.faults().config(owner);
        state_of(
            &self.caller.account(),
            &deliveries,
            &requests,
            &faults,
            &config,
        )
    }

    /// Sets the faults the business meets.
    pub(crate) fn set_faults(&self, config: FaultConfig) -> FaultSettingsView {
        let owner = self.caller.business();
        self.state.faults().set(owner, config);
        FaultSettingsView::of(&self.state.faults().config(owner))
    }

    /// The business's current fault settings.
    pub(crate) fn fault_config(&self) -> FaultConfig {
        self.state.faults().config(self.caller.business())
    }

    /// Pays `amount` (in the collection's `fromCurrency`; by default what
    /// remains) into collection `reference`, through the funding path of
    /// `simulate-funding`: the wallet is credited, the status moves and the
    /// webhook fires. 409 for a `COMPLETED` or `EXPIRED` collection.
    pub(crate) fn fund(
        &self,
        reference: &str,
        amount: Option<Decimal>,
    ) -> Result<CollectionView, ApiError> {
        let mut account = self.caller.account();
        let mut tenant = self.tenant(&mut account);
        require_open(reference, &tenant.refresh(reference)?, "funded")?;
        let amount = match amount {
            Some(amount) => amount,
            None => remaining(tenant.account, reference),
        };
        let currency = tenant
            .account
            .collections
            .get(reference)
            .map(|collection| collection.transaction.from);
        check_amount("amount", amount, currency)
            .and_then(|amount| check_max_amount("amount", amount))
            .map_err(ApiError::violation)?;
        tenant.fund(reference, Payment::Owed(amount))?;
        collection(&account, reference)
    }

    /// Marks the open collection `reference` `EXPIRED` now, announced by
    /// webhook as a lapse is.
    pub(crate) fn expire(&self, reference: &str) -> Result<CollectionView, ApiError> {
        let mut account = self.caller.account();
        self.tenant(&mut account).expire(reference)?;
        collection(&account, reference)
    }

    /// Approves the submitted business `business_id`.
    pub(crate) fn approve(&self, business_id: &str) -> Result<BusinessView, ApiError> {
        self.decide(business_id, Status::Approved, None)
    }

    /// Rejects the submitted business `business_id` for `reason`.
    pub(crate) fn reject(&self, business_id: &str, reason: &str) -> Result<BusinessView, ApiError> {
        let reason = reason.trim();
        if reason.is_empty() {
            return Err(ApiError::violation(Violation::new(
                "reason",
                Rule::Required,
                "is required",
            )));
        }
        self.decide(business_id, Status::Rejected, Some(reason.to_owned()))
    }

    fn decide(
        &self,
        business_id: &str,
        status: Status,
        reason: Option<String>,
    ) -> Result<BusinessView, ApiError> {
        let now = self.state.now();
        let mut account = self.caller.account();
        let Some(record) = account.businesses.get_mut(business_id) else {
            return Err(ApiError::not_found(format!(
                "Business not found: {business_id}"
            )));
        };
        if !record.awaits_decision() {
            let verb = if status == Status::Approved {
                "approved"
            } else {
                "rejected"
            };
            let submitted = if record.submitted_at.is_some() {
                ""
            } else {
                " (not submitted: it needs a director and a UBO)"
            };
            return Err(ApiError::conflict(format!(
                "Business {business_id} is {}{submitted}; only a submitted business awaiting a decision can be {verb}",
                record.status.as_str()
            )));
        }
        record.record_decision(status, reason, now);
        Ok(BusinessView::of(record))
    }

    /// Completes the pending payout `session_id`.
    pub(crate) fn complete(&self, session_id: &str) -> Result<PayoutView, ApiError> {
        self.settle(session_id, Settle::Complete)
    }

    /// Fails the pending payout `session_id` for `reason` (by default
    /// [`DEFAULT_FAILURE_REASON`]) and refunds it in full, fee included.
    pub(crate) fn fail(
        &self,
        session_id: &str,
        reason: Option<&str>,
    ) -> Result<PayoutView, ApiError> {
        let reason = reason
            .map(str::trim)
            .filter(|reason| !reason.is_empty())
            .unwrap_or(DEFAULT_FAILURE_REASON);
        self.settle(session_id, Settle::Fail(reason.to_owned()))
    }

    fn settle(&self, session_id: &str, settle: Settle) -> Result<PayoutView, ApiError> {
        let mut account = self.caller.account();
        account.settle_payout(session_id, settle)?;
        match account.payouts.get(session_id) {
            Some(record) => Ok(PayoutView::of(record, &account)),
            None => Err(ApiError::not_found(format!(
                "Payout not found: {session_id}"
            ))),
        }
    }

    /// Sends the body of delivery `delivery_id` again, to the webhook URL
    /// registered now, as a new delivery (returned, `pending`).
    pub(crate) fn redeliver(&self, delivery_id: &str) -> Result<DeliveryView, ApiError> {
        let owner = self.caller.business();
        let webhooks = self.state.webhooks();
        let Some(original) = webhooks
            .sent_by(owner)
            .into_iter()
            .find(|sent| sent.id == delivery_id)
        else {
            return Err(ApiError::not_found(format!(
                "Webhook delivery not found: {delivery_id}"
            )));
        };
        let Some(url) = self.caller.account().webhook_url.clone() else {
            return Err(ApiError::conflict(
                "No webhook URL is set: register one with PUT /v1/api/set-webhook first",
            ));
        };
        let id = webhooks.send_body(owner, url, original.body, self.state.now());
        webhooks
            .sent_by(owner)
            .iter()
            .find(|sent| sent.id == id)
            .map(DeliveryView::of)
            .ok_or_else(|| ApiError::not_found(format!("Webhook delivery not found: {id}")))
    }

    /// Sets the `currency` wallet to `amount` (zero or more, within the
    /// currency's minor unit).
    pub(crate) fn set_balance(
        &self,
        currency: Currency,
        amount: Decimal,
    ) -> Result<BalanceView, ApiError> {
        if !amount.is_zero() {
            check_amount("amount", amount, Some(currency))
                .and_then(|amount| check_max_amount("amount", amount))
                .map_err(ApiError::violation)?;
        }
        self.caller.account().set_balance(currency, amount);
        Ok(BalanceView::of(currency, amount))
    }

    /// Sets how the business's new payouts settle; pending payouts keep
    /// theirs.
    pub(crate) fn settings(&self, settlement: PayoutSettlement) -> SettingsView {
        self.caller.account().settlement = settlement;
        SettingsView {
            payout_settlement: settlement,
        }
    }

    /// Puts the business back to its opening state: the starting balances,
    /// and no quote, collection, payout, funding, sub-business, document,
    /// webhook delivery or request. Its webhook URL and settings stay.
    pub(crate) fn reset(&self) -> SandboxState {
        let owner = self.caller.business();
        {
            let mut account = self.caller.account();
            let mut fresh =
                Account::new(&self.state.config().starting_balances, account.settlement);
            fresh.webhook_url = account.webhook_url.take();
            *account = fresh;
        }
        self.state.documents().forget(owner);
        self.state.webhooks().forget(owner);
        self.state.requests().forget(owner);
        // The fault settings stay; the draws start again from the seed.
        self.state.faults().restart(owner);
        self.state()
    }

    fn tenant<'a>(&'a self, account: &'a mut Account) -> Tenant<'a> {
        Tenant {
            state: self.state,
            owner: self.caller.business(),
            account,
        }
    }
}

/// What remains to pay of collection `reference` (at least nothing).
fn remaining(account: &Account, reference: &str) -> Decimal {
    account
        .collections
        .get(reference)
        .map(|collection| {
            let transaction = &collection.transaction;
            transaction.amount - transaction.paid_amount.unwrap_or_default()
        })
        .unwrap_or_default()
}

/// Collection `reference` as the read model shows it.
fn collection(account: &Account, reference: &str) -> Result<CollectionView, ApiError> {
    account
        .collections
        .get(reference)
        .map(CollectionView::of)
        .ok_or_else(|| ApiError::not_found(format!("Collection not found: {reference}")))
}
