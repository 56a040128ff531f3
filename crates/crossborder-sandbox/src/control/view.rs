//! The read model: what `GET /_sandbox/state` answers and
//! [`SandboxHandle::state`](crate::SandboxHandle::state) returns, built from
//! one business's account under its lock. Amounts are exact decimals
//! written with their currency's minor units (`5000000.00`), times RFC 3339
//! UTC, lists newest first.

use crossborder_core::Currency;
use rust_decimal::Decimal;
use serde::{Serialize, Serializer};

use crate::background::webhook_delivery::SentEvent;
use crate::settlement::PayoutSettlement;
use crate::store::account::{in_minor_units, Account};
use crate::store::business::{BusinessRecord, PersonRecord};
use crate::store::records::{CollectionRecord, PayoutRecord};
use crate::store::requests::RequestEntry;
use crate::timestamp::rfc3339;

/// Writes a value by its `Display` (decimals exactly, the settlement as
/// `instant`/`manual`/`30s`).
fn text<T: std::fmt::Display, S: Serializer>(value: &T, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_str(value)
}

/// An amount with exactly its currency's minor-unit digits.
fn money(amount: Decimal, currency: Currency) -> Decimal {
    // `in_minor_units` writes it; reading it back keeps those digits.
    in_minor_units(amount, currency).parse().unwrap_or(amount)
}

/// One business's state, as the console shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SandboxState {
    /// Every wallet configured or ever credited, by currency code.
    pub balances: Vec<BalanceView>,
    /// Collections, newest first.
    pub collections: Vec<CollectionView>,
    /// Payouts, newest first.
    pub payouts: Vec<PayoutView>,
    /// Sub-businesses (KYB), newest first.
    pub businesses: Vec<BusinessView>,
    /// Webhook deliveries the sandbox still keeps, newest first.
    pub webhooks: Vec<DeliveryView>,
    /// The business's last 100 API requests (`/v1`), newest first.
    pub requests: Vec<RequestView>,
    /// The business's settings.
    pub settings: SettingsView,
}

/// A wallet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BalanceView {
    /// `NGN`, `USD`...
    pub currency: String,
    /// The balance.
    #[serde(serialize_with = "text")]
    pub amount: Decimal,
}

impl BalanceView {
    pub(crate) fn of(currency: Currency, amount: Decimal) -> BalanceView {
        BalanceView {
            currency: currency.to_string(),
            amount: money(amount, currency),
        }
    }
}

/// A collection: what the payer owes and has paid (in `fromCurrency`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CollectionView {
    /// The caller's reference (the collection's id).
    pub payment_reference: String,
    /// The memo the payer uses (`payRefrence`).
    pub memo: String,
    /// The transaction id.
    pub transaction_id: String,
    /// `PENDING`, `PARTIALLY_PAID`, `COMPLETED` or `EXPIRED`.
    pub status: String,
    /// What the payer pays in (`fromCurrency`).
    pub currency: String,
    /// The wallet credited (`toCurrency`).
    pub to_currency: String,
    /// What the payer owes.
    #[serde(serialize_with = "text")]
    pub amount: Decimal,
    /// What has been paid.
    #[serde(serialize_with = "text")]
    pub paid_amount: Decimal,
    /// `amount - paidAmount`, negative on an over-payment.
    #[serde(serialize_with = "text")]
    pub remaining_amount: Decimal,
    /// What the wallet receives in all.
    #[serde(serialize_with = "text")]
    pub to_amount: Decimal,
    /// When it was created.
    pub created_at: String,
    /// When its payment instruction lapses.
    pub expires_at: Option<String>,
    /// The payment instruction, as the API's initiate-payment answer
    /// writes it.
    pub payment_instruction: serde_json::Value,
    /// Every payment into it, newest first.
    pub fundings: Vec<FundingView>,
}

/// One payment into a collection.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FundingView {
    /// What it paid, in the collection's currency (`fromCurrency`).
    #[serde(serialize_with = "text")]
    pub amount: Decimal,
    /// What it credited to the `toCurrency` wallet.
    #[serde(serialize_with = "text")]
    pub credited: Decimal,
    /// When.
    pub at: String,
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

/// A payout.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PayoutView {
    /// The caller's sessionId (the payout's id).
    pub session_id: String,
    /// The transaction id.
    pub transaction_id: String,
    /// `PENDING`, `COMPLETED` or `FAILED`.
    pub status: String,
    /// The amount sent, in `fromCurrency`.
    #[serde(serialize_with = "text")]
    pub amount: Decimal,
    /// The fee, in `fromCurrency`.
    #[serde(serialize_with = "text")]
    pub fee: Decimal,
    /// What the wallet was debited (and is refunded on failure).
    #[serde(serialize_with = "text")]
    pub total_amount: Decimal,
    /// What the recipient receives, in `toCurrency`.
    #[serde(serialize_with = "text")]
    pub to_amount: Decimal,
    /// The wallet debited.
    pub from_currency: String,
    /// The recipient's currency.
    pub to_currency: String,
    /// Where it goes, in one line.
    pub destination: String,
    /// Why it failed, once `FAILED`.
    pub reason: Option<String>,
    /// When it was accepted.
    pub created_at: String,
    /// When it settles on its own, while `PENDING` under a delay.
    pub settles_at: Option<String>,
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

/// A sub-business and what it sent for review.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BusinessView {
    /// Its id.
    pub business_id: String,
    /// Its name.
    pub business_name: String,
    /// Its registration number.
    pub registration_number: String,
    /// `PENDING`, `SUBMITTED`, `APPROVED` or `REJECTED`.
    pub status: String,
    /// The rejection reason, once `REJECTED`.
    pub reason: Option<String>,
    /// Its directors.
    pub directors: Vec<PersonView>,
    /// Its ultimate beneficial owners.
    pub ubos: Vec<PersonView>,
    /// Every document link it sent.
    pub documents: Vec<DocumentView>,
    /// When it was created.
    pub created_at: String,
    /// When it was submitted (a director and a UBO added).
    pub submitted_at: Option<String>,
}

/// A director or UBO.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PersonView {
    /// Its id.
    pub id: String,
    /// First and last name.
    pub name: String,
}

/// A document link a business sent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DocumentView {
    /// The last segment of the link (`doc_<hex>.pdf` for an upload).
    pub id: String,
    /// The field that carried it: `documents.<key>`, `proofOfAddress` or
    /// `sourceOfFund`.
    pub kind: String,
    /// The file name the link ends with.
    pub file_name: String,
    /// The link as sent.
    pub url: String,
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

/// A webhook delivery.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DeliveryView {
    /// `whd_` and a number.
    pub delivery_id: String,
    /// The collection status it announces: `COMPLETED`,
    /// `PARTIALLY_PAID` or `EXPIRED`.
    pub event: String,
    /// The collection's reference.
    pub payment_reference: String,
    /// `pending` while in flight, `delivered` for a 2xx answer, else
    /// `failed`.
    pub status: String,
    /// Where it was POSTed.
    pub url: String,
    /// Attempts made (the sandbox never retries; a redelivery is a new
    /// delivery).
    pub attempts: u32,
    /// The receiver's HTTP status, when it answered.
    pub response_status: Option<u16>,
    /// Why there is no answer (refused, timed out), when there is none.
    pub error: Option<String>,
    /// When it was sent.
    pub delivered_at: String,
    /// The event as sent.
    pub body: serde_json::Value,
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

/// A request the business made to the API.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RequestView {
    /// `GET`, `POST`...
    pub method: String,
    /// The path, without the query.
    pub path: String,
    /// The status answered.
    pub status: u16,
    /// When it was answered.
    pub at: String,
}

impl RequestView {
    pub(crate) fn of(entry: &RequestEntry) -> RequestView {
        RequestView {
            method: entry.method.clone(),
            path: entry.path.clone(),
            status: entry.status,
            at: rfc3339(entry.at),
        }
    }
}

/// A business's settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SettingsView {
    /// How its new payouts settle: `instant`, `manual` or a delay (`30s`).
    #[serde(serialize_with = "text")]
    pub payout_settlement: PayoutSettlement,
}

/// The whole state of the business behind `account`.
pub(crate) fn state_of(
    account: &Account,
    deliveries: &[SentEvent],
    requests: &[RequestEntry],
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
    }
}
