//! What a command prints on success: a compact two-column table for people,
//! or (with `--json`) the response as JSON for scripts, with every amount an
//! exact decimal string so that no JSON reader rounds it.

use crossborder::{
    Acknowledgement, Balance, Bank, Business, Decimal, PayoutReceipt, Person, PersonRole, Quote,
    ResolvedAccount, Transaction, UploadedDocument,
};
use serde_json::{json, Map, Value};

/// A response, ready to print either way.
pub struct Output {
    /// `(label, value)` rows for the table; lists use one row per item.
    pub rows: Vec<(String, String)>,
    pub json: Value,
}

impl Output {
    pub fn print(&self, as_json: bool) {
        if as_json {
            say!(
                "{}",
                serde_json::to_string_pretty(&self.json).unwrap_or_default()
            );
            return;
        }
        let width = self.rows.iter().map(|(k, _)| k.len()).max().unwrap_or(0);
        for (label, value) in &self.rows {
            say!("{label:<width$}  {value}");
        }
    }

    /// Rows and JSON from the same `(label, wire name, value)` fields; absent
    /// values are left out of both.
    fn fields(fields: Vec<(&str, &str, Option<String>)>) -> Output {
        let mut rows = Vec::new();
        let mut object = Map::new();
        for (label, wire, value) in fields {
            if let Some(value) = value {
                rows.push((label.to_owned(), value.clone()));
                object.insert(wire.to_owned(), Value::String(value));
            }
        }
        Output {
            rows,
            json: Value::Object(object),
        }
    }
}

fn text(value: &str) -> Option<String> {
    Some(value.to_owned())
}

fn amount(value: Option<Decimal>) -> Option<String> {
    value.map(|v| v.to_string())
}

pub fn balance(balance: &Balance) -> Output {
    Output::fields(vec![
        ("currency", "currency", text(balance.currency.as_str())),
        ("balance", "balance", text(&balance.amount.to_string())),
    ])
}

pub fn quote(quote: &Quote) -> Output {
    Output::fields(vec![
        ("from", "fromCurrency", text(quote.from_currency.as_str())),
        ("to", "toCurrency", text(quote.to_currency.as_str())),
        ("amount", "amount", text(&quote.amount.to_string())),
        ("rate", "rate", text(&quote.rate.to_string())),
        ("fee", "fee", amount(quote.fee)),
        ("receives", "toAmount", amount(quote.to_amount)),
        ("debited", "totalAmount", amount(quote.total_amount)),
        ("rateKey", "rateKey", text(&quote.rate_key)),
        ("expires", "expiresAt", quote.expires_at.clone()),
    ])
}

pub fn transaction(transaction: &Transaction) -> Output {
    let mut output = Output::fields(vec![
        (
            "reference",
            "paymentReference",
            text(&transaction.payment_reference),
        ),
        ("status", "status", text(&transaction.status.to_string())),
        (
            "type",
            "type",
            transaction.kind.as_ref().map(|k| k.to_string()),
        ),
        (
            "transaction",
            "transactionId",
            text(&transaction.transaction_id),
        ),
        ("memo", "payRefrence", transaction.pay_reference.clone()),
        ("amount", "amount", text(&transaction.amount.to_string())),
        (
            "from",
            "fromCurrency",
            text(transaction.from_currency.as_str()),
        ),
        ("to", "toCurrency", text(transaction.to_currency.as_str())),
        ("paid", "paidAmount", amount(transaction.paid_amount)),
        ("rate", "rate", amount(transaction.rate)),
        ("fee", "fee", amount(transaction.fee)),
        ("receives", "toAmount", amount(transaction.to_amount)),
        ("total", "totalAmount", amount(transaction.total_amount)),
        ("rateKey", "rateKey", transaction.rate_key.clone()),
        ("address", "address", transaction.address.clone()),
        ("network", "network", transaction.network.clone()),
    ]);
    let mut instructions = Vec::new();
    for instruction in &transaction.payment_instructions {
        let pay = Output::fields(vec![
            (
                "pay into",
                "accountNumber",
                instruction.account_number.clone(),
            ),
            (
                "account name",
                "accountName",
                instruction.account_name.clone(),
            ),
            ("bank", "bankName", instruction.bank_name.clone()),
            (
                "transfer",
                "amountToTransfer",
                instruction
                    .amount_to_transfer
                    .as_ref()
                    .map(ToString::to_string),
            ),
            ("narration", "narration", instruction.narration.clone()),
            ("valid until", "validUntil", instruction.valid_until.clone()),
        ]);
        output.rows.extend(pay.rows);
        instructions.push(pay.json);
    }
    if let Value::Object(object) = &mut output.json {
        object.insert("paymentInstruction".to_owned(), Value::Array(instructions));
    }
    output
}

pub fn banks(banks: &[Bank]) -> Output {
    Output {
        rows: banks
            .iter()
            .map(|bank| (bank.code.clone(), bank.name.clone()))
            .collect(),
        json: Value::Array(
            banks
                .iter()
                .map(|bank| json!({"code": bank.code, "name": bank.name}))
                .collect(),
        ),
    }
}

pub fn resolved(account: &ResolvedAccount) -> Output {
    Output::fields(vec![
        (
            "account number",
            "accountNumber",
            text(&account.account_number),
        ),
        ("account name", "accountName", text(&account.account_name)),
        ("bank code", "bankCode", text(&account.bank_code)),
    ])
}

pub fn receipt(receipt: &PayoutReceipt) -> Output {
    Output::fields(vec![
        ("sessionId", "sessionId", text(&receipt.session_id)),
        ("message", "message", text(&receipt.message)),
    ])
}

pub fn acknowledgement(ack: &Acknowledgement) -> Output {
    Output::fields(vec![("message", "message", text(&ack.message))])
}

pub fn uploaded(document: &UploadedDocument) -> Output {
    Output::fields(vec![("link", "link", text(&document.link))])
}

pub fn business(business: &Business) -> Output {
    let mut output = Output::fields(vec![
        ("id", "id", text(&business.id)),
        ("name", "name", business.name.clone()),
        ("status", "status", text(business.status.as_str())),
        (
            "reason",
            "rejectionReason",
            business.rejection_reason.clone(),
        ),
        (
            "directors",
            "directorCount",
            business.director_count.map(|n| n.to_string()),
        ),
        (
            "UBOs",
            "uboCount",
            business.ubo_count.map(|n| n.to_string()),
        ),
    ]);
    for (field, status) in &business.field_statuses {
        output
            .rows
            .push((format!("  {field}"), status.as_str().to_owned()));
    }
    output
}

pub fn person(person: &Person) -> Output {
    let role = match &person.role {
        PersonRole::Director => "DIRECTOR".to_owned(),
        PersonRole::Ubo => "UBO".to_owned(),
        PersonRole::Unknown(other) => other.clone(),
    };
    Output::fields(vec![
        ("id", "id", text(&person.id)),
        ("business", "businessId", text(&person.business_id)),
        ("role", "role", Some(role)),
        ("first name", "firstName", person.first_name.clone()),
        ("last name", "lastName", person.last_name.clone()),
        (
            "business status",
            "businessStatus",
            person
                .business_status
                .as_ref()
                .map(|s| s.as_str().to_owned()),
        ),
        (
            "submitted",
            "submitted",
            person.submitted.map(|s| s.to_string()),
        ),
    ])
}
