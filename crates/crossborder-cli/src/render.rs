//! What a command prints on success: a compact two-column table for people,
//! or (with `--json`) the whole response as JSON for scripts: every field of
//! the SDK's type under its wire name (`null` when absent), every amount an
//! exact decimal string so that no JSON reader rounds it.
//!
//! Each function takes its value apart field by field with no `..`, so a
//! field added to an SDK type does not compile here until it is shown.

use std::time::SystemTime;

use crossborder::onboard::Onboarded;
use crossborder::rules::display_grouped;
use crossborder::{
    types::{
        Acknowledgement, Balance, Bank, Business, PaymentInstruction, PayoutReceipt, Person, Quote,
        ResolvedAccount, Transaction, UploadedDocument,
    },
    Currency, Decimal,
};
use crossborder_api::timestamp::Timestamp;
use serde_json::{Map, Value};

/// A response, ready to print either way.
pub struct Output {
    /// `(label, value)` rows for the table; lists use one row per item.
    pub rows: Vec<(String, String)>,
    pub json: Value,
}

impl Output {
    pub fn print(&self, as_json: bool) {
        if as_json {
            say!("{}", pretty(&self.json));
            return;
        }
        for line in self.table() {
            say!("{line}");
        }
    }

    /// The table's lines, labels padded to one width.
    pub fn table(&self) -> Vec<String> {
        let width = self.rows.iter().map(|(k, _)| k.len()).max().unwrap_or(0);
        self.rows
            .iter()
            .map(|(label, value)| format!("{label:<width$}  {value}"))
            .collect()
    }
}

/// JSON as printed: indented, one field per line.
pub fn pretty(json: &Value) -> String {
    serde_json::to_string_pretty(json).unwrap_or_default()
}

/// Builds the table rows and the JSON object of one value together.
#[derive(Default)]
struct Fields {
    rows: Vec<(String, String)>,
    object: Map<String, Value>,
}

impl Fields {
    /// A text field shown in the table when present, and in the JSON always
    /// (`null` when absent).
    fn field(self, label: &str, wire: &str, value: Option<String>) -> Fields {
        let json = value.clone().map_or(Value::Null, Value::String);
        self.value(label, wire, value, json)
    }

    /// An amount of `currency`: in the table with its minor units and
    /// grouped by thousands (`5,000,000.00 NGN`), in the JSON the exact
    /// decimal text as before (`"5000000"`).
    fn money(self, label: &str, wire: &str, value: Option<Decimal>, currency: Currency) -> Fields {
        self.value(
            label,
            wire,
            value.map(|amount| display_grouped(amount, currency)),
            value.map_or(Value::Null, |amount| Value::String(amount.to_string())),
        )
    }

    /// A count: a JSON number.
    fn count(self, label: &str, wire: &str, value: Option<u64>) -> Fields {
        self.value(
            label,
            wire,
            value.map(|n| n.to_string()),
            value.map_or(Value::Null, Value::from),
        )
    }

    /// A flag: a JSON boolean.
    fn flag(self, label: &str, wire: &str, value: Option<bool>) -> Fields {
        self.value(
            label,
            wire,
            value.map(|b| b.to_string()),
            value.map_or(Value::Null, Value::Bool),
        )
    }

    fn value(mut self, label: &str, wire: &str, shown: Option<String>, json: Value) -> Fields {
        if let Some(shown) = shown {
            self.rows.push((label.to_owned(), shown));
        }
        self.object.insert(wire.to_owned(), json);
        self
    }

    /// A JSON-only field (a list or map whose rows are added separately).
    fn json(mut self, wire: &str, value: Value) -> Fields {
        self.object.insert(wire.to_owned(), value);
        self
    }

    fn row(mut self, label: String, value: String) -> Fields {
        self.rows.push((label, value));
        self
    }

    fn done(self) -> Output {
        Output {
            rows: self.rows,
            json: Value::Object(self.object),
        }
    }
}

fn text(value: &str) -> Option<String> {
    Some(value.to_owned())
}

fn amount(value: Decimal) -> Option<String> {
    Some(value.to_string())
}

fn maybe(value: Option<Decimal>) -> Option<String> {
    value.map(|v| v.to_string())
}

/// An instant of this machine's clock, RFC 3339 in UTC.
fn instant(value: SystemTime) -> Option<String> {
    time::OffsetDateTime::from(value)
        .format(&time::format_description::well_known::Rfc3339)
        .ok()
}

pub fn balance(balance: &Balance) -> Output {
    let Balance {
        currency,
        amount: balance,
    } = balance;
    Fields::default()
        .field("currency", "currency", text(currency.as_str()))
        .money("balance", "balance", Some(*balance), *currency)
        .done()
}

pub fn quote(quote: &Quote) -> Output {
    let Quote {
        amount: quoted,
        rate,
        rounded_rate,
        rate_key,
        from_currency,
        to_currency,
        fee,
        to_amount,
        total_amount,
        expires_at,
        valid_until,
    } = quote;
    Fields::default()
        .field("from", "fromCurrency", text(from_currency.as_str()))
        .field("to", "toCurrency", text(to_currency.as_str()))
        .money("amount", "amount", Some(*quoted), *from_currency)
        .field("rate", "rate", amount(*rate))
        .field("rounded rate", "roundedRate", maybe(*rounded_rate))
        .money("fee", "fee", *fee, *from_currency)
        .money("receives", "toAmount", *to_amount, *to_currency)
        .money("debited", "totalAmount", *total_amount, *from_currency)
        .field("rateKey", "rateKey", text(rate_key))
        .field("expires", "expiresAt", expires_at.clone())
        .field("usable until", "validUntil", instant(*valid_until))
        .done()
}

pub fn transaction(transaction: &Transaction) -> Output {
    let Transaction {
        transaction_id,
        kind,
        pay_reference,
        payment_reference,
        amount: total,
        to_amount,
        total_amount,
        paid_amount,
        rate,
        status,
        fee,
        rate_key,
        from_currency,
        to_currency,
        address,
        network,
        payment_instructions,
    } = transaction;
    let mut fields = Fields::default()
        .field("reference", "paymentReference", text(payment_reference))
        .field("status", "status", text(status.as_str()))
        .field("type", "type", kind.as_ref().map(|k| k.as_str().to_owned()))
        .field("transaction", "transactionId", text(transaction_id))
        .field("memo", "payRefrence", pay_reference.clone())
        .money("amount", "amount", Some(*total), *from_currency)
        .field("from", "fromCurrency", text(from_currency.as_str()))
        .field("to", "toCurrency", text(to_currency.as_str()))
        .money("paid", "paidAmount", *paid_amount, *from_currency)
        .field("rate", "rate", amount(*rate))
        .money("fee", "fee", Some(*fee), *from_currency)
        .money("receives", "toAmount", Some(*to_amount), *to_currency)
        .money("total", "totalAmount", Some(*total_amount), *from_currency)
        .field("rateKey", "rateKey", rate_key.clone())
        .field("address", "address", address.clone())
        .field("network", "network", network.clone());
    let mut instructions = Vec::new();
    for instruction in payment_instructions {
        let shown = payment_instruction(instruction);
        fields.rows.extend(shown.rows);
        instructions.push(shown.json);
    }
    fields
        .json("paymentInstruction", Value::Array(instructions))
        .done()
}

fn payment_instruction(instruction: &PaymentInstruction) -> Output {
    let PaymentInstruction {
        narration,
        account_number,
        account_name,
        bank_name,
        amount_to_transfer: _,
        amount_to_transfer_text,
        valid_until,
    } = instruction;
    Fields::default()
        .field("pay into", "accountNumber", text(account_number))
        .field("account name", "accountName", text(account_name))
        .field("bank", "bankName", text(bank_name))
        .field(
            "transfer",
            "amountToTransfer",
            text(amount_to_transfer_text.as_str()),
        )
        .field("narration", "narration", text(narration))
        .field(
            "valid until",
            "validUntil",
            text(Timestamp::from(*valid_until).as_str()),
        )
        .done()
}

pub fn banks(banks: &[Bank]) -> Output {
    let mut rows = Vec::new();
    let mut list = Vec::new();
    for bank in banks {
        let Bank { name, code } = bank;
        rows.push((code.clone(), name.clone()));
        list.push(serde_json::json!({"name": name, "code": code}));
    }
    Output {
        rows,
        json: Value::Array(list),
    }
}

pub fn resolved(account: &ResolvedAccount) -> Output {
    let ResolvedAccount {
        bank_code,
        account_name,
        account_number,
    } = account;
    Fields::default()
        .field("account number", "accountNumber", text(account_number))
        .field("account name", "accountName", text(account_name))
        .field("bank code", "bankCode", text(bank_code))
        .done()
}

pub fn receipt(receipt: &PayoutReceipt) -> Output {
    let PayoutReceipt {
        session_id,
        message,
    } = receipt;
    Fields::default()
        .field("sessionId", "sessionId", text(session_id))
        .field("message", "message", text(message))
        .done()
}

pub fn acknowledgement(ack: &Acknowledgement) -> Output {
    let Acknowledgement { message } = ack;
    Fields::default()
        .field("message", "message", text(message))
        .done()
}

pub fn uploaded(document: &UploadedDocument) -> Output {
    let UploadedDocument { link } = document;
    Fields::default().field("link", "link", text(link)).done()
}

pub fn business(business: &Business) -> Output {
    let Business {
        id,
        name,
        business_type,
        registration_number,
        country,
        status,
        rejection_reason,
        director_count,
        ubo_count,
        field_statuses,
        created_at,
        updated_at,
        submitted_at,
    } = business;
    let mut fields = Fields::default()
        .field("id", "id", text(id))
        .field("name", "name", name.clone())
        .field("status", "status", text(status.as_str()))
        .field("reason", "rejectionReason", rejection_reason.clone())
        .field(
            "type",
            "businessType",
            business_type.map(|t| t.as_str().to_owned()),
        )
        .field(
            "registration",
            "registrationNumber",
            registration_number.clone(),
        )
        .field("country", "country", country.clone())
        .count("directors", "directorCount", *director_count)
        .count("UBOs", "uboCount", *ubo_count)
        .field("created", "createdAt", created_at.clone())
        .field("updated", "updatedAt", updated_at.clone())
        .field("submitted", "submittedAt", submitted_at.clone());
    let mut statuses = Map::new();
    for (field, status) in field_statuses {
        fields = fields.row(format!("  {field}"), status.as_str().to_owned());
        statuses.insert(field.clone(), Value::String(status.as_str().to_owned()));
    }
    fields.json("fieldStatuses", Value::Object(statuses)).done()
}

pub fn person(person: &Person) -> Output {
    let Person {
        id,
        business_id,
        role,
        first_name,
        last_name,
        business_status,
        submitted,
    } = person;
    let role = role.as_str().to_owned();
    Fields::default()
        .field("id", "id", text(id))
        .field("business", "businessId", text(business_id))
        .field("role", "role", Some(role))
        .field("first name", "firstName", first_name.clone())
        .field("last name", "lastName", last_name.clone())
        .field(
            "business status",
            "businessStatus",
            business_status.as_ref().map(|s| s.as_str().to_owned()),
        )
        .flag("submitted", "submitted", *submitted)
        .done()
}

/// A finished onboarding: the business, then the link of each file.
pub fn onboarded(onboarded: &Onboarded) -> Output {
    let Onboarded {
        business: record,
        links,
        ..
    } = onboarded;
    let mut output = business(record);
    let mut shown = Map::new();
    for (name, link) in links {
        output.rows.push((format!("file {name}"), link.clone()));
        shown.insert(name.clone(), Value::String(link.clone()));
    }
    output.json = serde_json::json!({"business": output.json, "links": shown});
    output
}
