//! Builds the read model (`state.rs`, generated from
//! `openapi/sandbox-control.yaml`) from one business's account under its
//! lock. Amounts are exact decimals written with their currency's minor
//! units (`5000000.00`), times RFC 3339 UTC, lists newest first.

use crossborder_core::Currency;
use rust_decimal::Decimal;

use super::{
    BalanceView, BusinessView, CollectionView, DeliveryView, DocumentView, FaultSettingsView,
    FaultView, FundingView, PayoutView, PersonView, RequestView, SandboxState, SettingsView,
};
use crate::background::webhook_delivery::SentEvent;
use crate::faults::{FaultConfig, FaultRecord};
use crate::store::account::{in_minor_units, Account};
use crate::store::business::{BusinessRecord, PersonRecord};
use crate::store::records::{CollectionRecord, PayoutRecord};
use crate::store::requests::RequestEntry;
use crate::timestamp::rfc3339;

/// An amount with exactly its currency's minor-unit digits.
fn money(amount: Decimal, currency: Currency) -> Decimal {
    // `in_minor_units` writes it; reading it back keeps those digits.
    in_minor_units(amount, currency).parse().unwrap_or(amount)
}

impl BalanceView {
    pub(crate) fn of(currency: Currency, amount: Decimal) -> BalanceView {
        BalanceView {
            currency: currency.to_string(),
            amount: money(amount, currency),
        }
    }
}

impl CollectionView {
    pub(crate) fn of(record: &CollectionRecord) -> CollectionView {
        let transaction = &record.transaction;
        let (from, to) = (transaction.from, transaction.to);
        let paid = transaction.paid_amount.unwrap_or_default();
        CollectionView {
            payment_reference: transaction.payment_reference.clone(),
            memo: transaction.pay_refrence.clone().unwrap_or_default(),
            transaction_id: transaction.transaction_id.clone(),
            status: transaction.status.as_str().to_owned(),
            currency: from.to_string(),
            to_currency: to.to_string(),
            amount: money(transaction.amount, from),
            paid_amount: money(paid, from),
            remaining_amount: money(transaction.amount.saturating_sub(paid), from),
            to_amount: money(transaction.to_amount, to),
            created_at: rfc3339(record.created_at),
            expires_at: transaction.instruction_valid_until.map(rfc3339),
            payment_instruction: transaction
                .to_wire()
                .payment_instruction
                .first()
                .and_then(|instruction| serde_json::to_value(instruction).ok())
                .unwrap_or_default(),
            fundings: record
                .fundings
                .iter()
                .rev()
                .map(|funding| FundingView {
                    amount: money(funding.paid, from),
                    credited: money(funding.credited, to),
                    at: rfc3339(funding.at),
                })
                .collect(),
        }
    }
}

impl PayoutView {
    pub(crate) fn of(record: &PayoutRecord, account: &Account) -> PayoutView {
        let transaction = &record.transaction;
        let (from, to) = (transaction.from, transaction.to);
        let settles_at = account
            .due
            .iter()
            .find(|(_, session_id)| *session_id == transaction.payment_reference)
            .map(|(when, _)| rfc3339(*when));
        PayoutView {
            session_id: transaction.payment_reference.clone(),
            transaction_id: transaction.transaction_id.clone(),
            status: transaction.status.as_str().to_owned(),
            amount: money(transaction.amount, from),
            fee: money(transaction.fee, from),
            total_amount: money(transaction.total_amount, from),
            to_amount: money(transaction.to_amount, to),
            from_currency: from.to_string(),
            to_currency: to.to_string(),
            destination: record.destination.clone(),
            reason: record.reason.clone(),
            created_at: rfc3339(record.created_at),
            settles_at,
        }
    }
}

impl BusinessView {
    pub(crate) fn of(record: &BusinessRecord) -> BusinessView {
        let people = |people: &[PersonRecord]| {
            people
                .iter()
                .map(|person| PersonView {
                    id: person.id.clone(),
                    name: format!("{} {}", person.first_name, person.last_name),
                })
                .collect()
        };
        BusinessView {
            business_id: record.id.clone(),
            business_name: record.name.clone(),
            registration_number: record.registration_number.clone(),
            status: record.status.as_str().to_owned(),
            reason: record.rejection_reason.clone(),
            directors: people(&record.directors),
            ubos: people(&record.ubos),
            documents: record
                .links()
                .into_iter()
                .map(|(kind, url)| {
                    let file_name = url.rsplit('/').next().unwrap_or_default().to_owned();
                    DocumentView {
                        id: file_name.clone(),
                        kind,
                        file_name,
                        url,
                    }
                })
                .collect(),
            created_at: rfc3339(record.created_at),
            submitted_at: record.submitted_at.map(rfc3339),
        }
    }
}

impl DeliveryView {
    pub(crate) fn of(sent: &SentEvent) -> DeliveryView {
        let body: serde_json::Value =
            serde_json::from_str(&sent.body).unwrap_or(serde_json::Value::Null);
        let event = match &body["status"] {
            serde_json::Value::Bool(true) => "COMPLETED".to_owned(),
            serde_json::Value::Bool(false) => "PARTIALLY_PAID".to_owned(),
            serde_json::Value::String(word) => word.clone(),
            _ => "UNKNOWN".to_owned(),
        };
        let (status, response_status, error) = match &sent.outcome {
            None => ("pending", None, None),
            Some(Ok(code)) if (200..300).contains(code) => ("delivered", Some(*code), None),
            Some(Ok(code)) => ("failed", Some(*code), None),
            Some(Err(error)) => ("failed", None, Some(error.clone())),
        };
        DeliveryView {
            delivery_id: sent.id.clone(),
            event,
            payment_reference: body["reference"].as_str().unwrap_or_default().to_owned(),
            status: status.to_owned(),
            url: sent.url.clone(),
            attempts: 1,
            response_status,
            error,
            delivered_at: rfc3339(sent.sent_at),
            body,
        }
    }
}

impl RequestView {
    pub(crate) fn of(entry: &RequestEntry) -> RequestView {
        RequestView {
            method: entry.method.clone(),
            path: entry.path.clone(),
            status: entry.status,
            at: rfc3339(entry.at),
            fault: entry.fault.map(|kind| kind.to_string()),
        }
    }
}

impl FaultView {
    pub(crate) fn of(record: &FaultRecord) -> FaultView {
        FaultView {
            fault_id: record.id.clone(),
            kind: record.kind.to_string(),
            at: rfc3339(record.at),
            target: record.target.clone(),
            applied: record.applied.clone(),
        }
    }
}

impl FaultSettingsView {
    pub(crate) fn of(config: &FaultConfig) -> FaultSettingsView {
        let rates = config
            .rates()
            .iter()
            .map(|(kind, rate)| (kind.to_string(), serde_json::Value::from(rate.to_string())))
            .collect::<serde_json::Map<_, _>>();
        FaultSettingsView {
            profile: config.profile().to_string(),
            seed: config.seed(),
            rates: serde_json::Value::Object(rates),
        }
    }
}

/// The whole state of the business behind `account`.
pub(crate) fn state_of(
    account: &Account,
    deliveries: &[SentEvent],
    requests: &[RequestEntry],
    faults: &[FaultRecord],
    fault_config: &FaultConfig,
) -> SandboxState {
    let mut collections: Vec<&CollectionRecord> = account.collections.values().collect();
    collections.sort_by_key(|record| std::cmp::Reverse(record.sequence));
    let mut payouts: Vec<&PayoutRecord> = account.payouts.values().collect();
    payouts.sort_by_key(|record| std::cmp::Reverse(record.sequence));
    let mut businesses: Vec<&BusinessRecord> = account.businesses.values().collect();
    businesses.sort_by_key(|record| std::cmp::Reverse(record.sequence));
    SandboxState {
        balances: account
            .balances()
            .iter()
            .map(|(currency, amount)| BalanceView::of(*currency, *amount))
            .collect(),
        collections: collections.into_iter().map(CollectionView::of).collect(),
        payouts: payouts
            .into_iter()
            .map(|record| PayoutView::of(record, account))
            .collect(),
        businesses: businesses.into_iter().map(BusinessView::of).collect(),
        webhooks: deliveries.iter().map(DeliveryView::of).collect(),
        requests: requests.iter().map(RequestView::of).collect(),
        settings: SettingsView {
            payout_settlement: account.settlement,
        },
        faults: faults.iter().map(FaultView::of).collect(),
        fault_settings: FaultSettingsView::of(fault_config),
    }
}
