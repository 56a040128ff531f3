//! The requests every suite sends: a complete business ("Lagos Trading
//! Ltd"), a director or UBO, NGN payouts, a bank account or wallet of each
//! destination family, a PDF; each typed and as the API's JSON, written
//! once so the suites cannot drift apart.

use crossborder::{
    types::Address, types::BusinessDetails, types::BusinessType, types::CanadianBank,
    types::CreateBusinessRequest, types::DocumentLink, types::Documents, types::EurBank,
    types::FiatCurrency, types::IdType, types::LocalBank, types::LocalBankCurrency,
    types::NatureOfBusiness, types::OtherFiatAccount, types::OtherFiatCurrency,
    types::PayoutRequest, types::PersonDetails, types::PersonRequest, types::ProofOfAddress,
    types::ProofOfAddressType, types::ResolveAccountRequest, types::UkBank, types::UsBank,
    Currency, Decimal,
};
use serde_json::{json, Value};

/// A PDF file's bytes (the sandbox tells a file's type by its content).
pub const PDF: &[u8] = b"%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n";

/// The documents of a complete LLC: `(key, document key)` pairs.
const LLC_DOCUMENTS: [(&str, &str); 4] = [
    ("cac_document", "cac-cert"),
    ("bank_statement", "statement-6m"),
    ("application_letter", "letter"),
    ("cac_status_report", "status-report"),
];

/// The business's address in Lagos.
pub fn lagos_address() -> Address {
    Address {
        house_number: "12".into(),
        street: "Admiralty Way".into(),
        city: "Lekki".into(),
        state: "Lagos".into(),
        zip_code: "106104".into(),
        subdivision: None,
    }
}

/// The business's new address, for an update: 4B Awolowo Road, Ikoyi.
pub fn new_office_address() -> Address {
    Address {
        house_number: "4B".into(),
        street: "Awolowo Road".into(),
        city: "Ikoyi".into(),
        zip_code: "101233".into(),
        ..lagos_address()
    }
}

/// A complete LLC business whose documents all point at `link`.
pub fn business_request(registration_number: &str, link: &str) -> CreateBusinessRequest {
    let mut documents = Documents::new();
    for (key, id) in LLC_DOCUMENTS {
        documents.insert(key.into(), DocumentLink::new(link, id));
    }
    CreateBusinessRequest {
        name: "Lagos Trading Ltd".into(),
        business_type: BusinessType::Llc,
        registration_number: registration_number.into(),
        email: "compliance@lagostrading.ng".into(),
        phone_number: "+2348012345678".into(),
        nature_of_business: NatureOfBusiness {
            nature: "Wholesale of consumer electronics".into(),
            code: "4652".into(),
        },
        business_address: lagos_address(),
        proof_of_address: ProofOfAddress {
            url: link.into(),
            key: "utility-2026-10".into(),
            kind: ProofOfAddressType::UtilityBill,
        },
        documents,
        details: BusinessDetails {
            business_description: Some("Imports and distributes consumer electronics.".into()),
            tin: Some("12345678-0001".into()),
            ..BusinessDetails::default()
        },
    }
}

/// The documents of [`business_request`] as the API's JSON.
pub fn documents_json(link: &str) -> Value {
    let documents = LLC_DOCUMENTS
        .iter()
        .map(|(key, id)| ((*key).to_owned(), json!({"url": link, "key": id})))
        .collect();
    Value::Object(documents)
}

/// The required fields of [`business_request`] as the API's JSON, with the
/// given `documents` map ([`documents_json`] for the complete one).
pub fn business_json(registration_number: &str, link: &str, documents: Value) -> Value {
    json!({
        "name": "Lagos Trading Ltd",
        "businessType": "LLC",
        "registrationNumber": registration_number,
        "email": "compliance@lagostrading.ng",
        "phoneNumber": "+2348012345678",
        "natureOfBusiness": {"nature": "Wholesale of consumer electronics", "code": "4652"},
        "businessAddress": {"houseNumber": "12", "street": "Admiralty Way", "city": "Lekki",
                            "state": "Lagos", "zipCode": "106104"},
        "proofOfAddress": {"url": link, "key": "utility-2026-10", "type": "Utility bill"},
        "documents": documents,
    })
}

/// A complete director or UBO whose documents point at `link`.
pub fn person_request(link: &str) -> PersonRequest {
    PersonRequest {
        first_name: "Adaeze".into(),
        last_name: "Okafor".into(),
        date_of_birth: "1985-04-12".into(),
        nationality: "NG".into(),
        phone_number: "+2348031234567".into(),
        id_number: "A12345678".into(),
        id_type: IdType::CurrentPassport,
        id_document_url: link.into(),
        address: Address {
            house_number: "7".into(),
            street: "Bourdillon Road".into(),
            city: "Ikoyi".into(),
            state: "Lagos".into(),
            zip_code: "101233".into(),
            subdivision: None,
        },
        document: DocumentLink::new(link, "director-utility"),
        details: PersonDetails {
            email: Some("adaeze@lagostrading.ng".into()),
            job_title: Some("Managing Director".into()),
            ..PersonDetails::default()
        },
    }
}

/// [`person_request`] as the API's JSON.
pub fn person_json(link: &str) -> Value {
    json!({
        "firstName": "Adaeze",
        "lastName": "Okafor",
        "dateOfBirth": "1985-04-12",
        "nationality": "NG",
        "phoneNumber": "+2348031234567",
        "idNumber": "A12345678",
        "idType": "currentPassport",
        "idDocumentUrl": link,
        "address": {"houseNumber": "7", "street": "Bourdillon Road", "city": "Ikoyi",
                    "state": "Lagos", "zipCode": "101233"},
        "document": {"url": link, "key": "director-utility"},
        "email": "adaeze@lagostrading.ng",
        "jobTitle": "Managing Director"
    })
}

/// A Nigerian bank account (Guaranty Trust Bank, code 058).
pub fn ngn_bank() -> LocalBank {
    LocalBank {
        currency: LocalBankCurrency::Ngn,
        account_number: "0123456789".into(),
        account_name: "ADAEZE OKAFOR".into(),
        bank_name: "Guaranty Trust Bank".into(),
        bank_code: "058".into(),
    }
}

/// A Kenyan bank account (Equity Bank Kenya, code 68).
pub fn kes_bank() -> LocalBank {
    LocalBank {
        currency: LocalBankCurrency::Kes,
        account_number: "254712345678".into(),
        account_name: "WANJIKU KAMAU".into(),
        bank_name: "Equity Bank Kenya".into(),
        bank_code: "68".into(),
    }
}

/// A Ugandan bank account (Stanbic Bank Uganda, code 031).
pub fn ugx_bank() -> LocalBank {
    LocalBank {
        currency: LocalBankCurrency::Ugx,
        account_number: "256712345678".into(),
        account_name: "OKELLO JAMES".into(),
        bank_name: "Stanbic Bank Uganda".into(),
        bank_code: "031".into(),
    }
}

/// A US bank account (JPMorgan Chase Bank).
pub fn us_bank() -> UsBank {
    UsBank {
        account_number: "123456789".into(),
        account_name: "JOHN DOE".into(),
        bank_name: "JPMorgan Chase Bank".into(),
    }
}

/// A UK bank account (Barclays Bank, sort code 20-00-00).
pub fn uk_bank() -> UkBank {
    UkBank {
        account_number: "31926819".into(),
        account_name: "JANE SMITH".into(),
        bank_name: "Barclays Bank".into(),
        sort_code: "20-00-00".into(),
        swift_code: "BARCGB22".into(),
    }
}

/// A euro bank account by IBAN (Deutsche Bank's SWIFT code), its optional
/// bank name left out.
pub fn eur_bank() -> EurBank {
    EurBank {
        iban: "DE89 3704 0044 0532 0130 00".into(),
        account_name: "MAX MUSTERMANN".into(),
        swift_code: "DEUTDEFF".into(),
        bank_name: None,
    }
}

/// A Canadian bank account (Royal Bank of Canada, transit 00012,
/// institution 003).
pub fn canadian_bank() -> CanadianBank {
    CanadianBank {
        account_number: "1234567".into(),
        account_name: "ALEX MARTIN".into(),
        transit_number: "00012".into(),
        institution_number: "003".into(),
        bank_name: Some("Royal Bank of Canada".into()),
    }
}

/// An account in `currency` (GHS, XOF or XAF) named by its holder alone,
/// every optional field left out.
pub fn other_fiat_account(currency: OtherFiatCurrency) -> OtherFiatAccount {
    OtherFiatAccount {
        currency,
        account_number: None,
        account_name: Some("KOFI MENSAH".into()),
        bank_name: None,
        bank_code: None,
    }
}

/// A lookup of [`ngn_bank`]'s account for a USD to NGN payout.
pub fn ngn_account_lookup() -> ResolveAccountRequest {
    ResolveAccountRequest::new("0123456789", "058", Currency::Usd, Currency::Ngn)
}

/// An NGN payout of `amount` from the NGN wallet to [`ngn_bank`], under
/// `session_id` (so sending it again is the same payout).
pub fn ngn_bank_payout(amount: Decimal, session_id: &str) -> PayoutRequest {
    PayoutRequest::pay(amount, FiatCurrency::Ngn, ngn_bank())
        .with_session_id(session_id)
        .narration("Invoice 2291")
}

/// [`ngn_bank_payout`] as the API's JSON, `amount` as written.
pub fn ngn_payout_json(session_id: &str, amount: &str) -> Value {
    json!({
        "amount": amount,
        "fromCurrency": "NGN",
        "toCurrency": "NGN",
        "narration": "Invoice 2291",
        "sessionId": session_id,
        "accountNumber": "0123456789",
        "accountName": "ADAEZE OKAFOR",
        "bankName": "Guaranty Trust Bank",
        "bankCode": "058"
    })
}

/// The currencies [`converting_payout_json`] pays from USD, in turn.
pub const CONVERTING_TO: [&str; 4] = ["NGN", "KES", "GBP", "USDT"];

/// A converting payout of `amount` USD to `to` (`NGN`, `KES`, `GBP` or
/// `USDT`: the accounts of [`ngn_bank`], [`kes_bank`], [`uk_bank`], or an
/// Ethereum wallet) as the API's JSON, without `sessionId` and without
/// `rateKey`: a payroll row that a ledger quotes at send time.
pub fn converting_payout_json(to: &str, amount: &str) -> Value {
    let mut payout = json!({"amount": amount, "fromCurrency": "USD", "toCurrency": to,
                            "narration": "Payroll"});
    let destination = match to {
        "NGN" => json!({"accountNumber": "0123456789", "accountName": "ADAEZE OKAFOR",
                        "bankName": "Guaranty Trust Bank", "bankCode": "058"}),
        "KES" => json!({"accountNumber": "254712345678", "accountName": "WANJIKU KAMAU",
                        "bankName": "Equity Bank Kenya", "bankCode": "68"}),
        "GBP" => json!({"accountNumber": "31926819", "accountName": "JANE SMITH",
                        "bankName": "Barclays Bank", "sortCode": "20-00-00",
                        "swiftCode": "BARCGB22"}),
        _ => json!({"address": "0x52908400098527886E0F7030069857D2E4169EE7",
                    "toNetwork": "ethereum"}),
    };
    if let (Some(payout), Value::Object(fields)) = (payout.as_object_mut(), destination) {
        payout.extend(fields);
    }
    payout
}

/// A well-formed value of the payout field `field` (its wire name) for a
/// payout to `to` (a currency code): every field filled this way makes a
/// valid payout for every pair, so a test can break one field at a time.
pub fn payout_sample(field: &str, to: &str) -> &'static str {
    match (field, to) {
        ("accountNumber", "NGN") => "0123456789",
        ("accountNumber", "GBP") => "31926819",
        ("accountNumber", "EUR") => "DE89370400440532013000",
        ("accountNumber", "CAD") => "1234567",
        ("accountNumber", _) => "1234567890",
        ("bankCode", _) => "058",
        ("sortCode", _) => "12-34-56",
        ("swiftCode", _) => "DEUTDEFF",
        ("transitNumber", _) => "00012",
        ("institutionNumber", _) => "003",
        ("address", _) => "0x52908400098527886E0F7030069857D2E4169EE7",
        ("network" | "fromNetwork" | "toNetwork", _) => "ethereum",
        ("narration", _) => "Invoice 2291",
        ("sessionId", _) => "payout-2026-11-21-0001",
        ("rateKey", _) => "rk_c652412d778af3be",
        ("accountName" | "recipientName", _) => "ADAEZE OKAFOR",
        ("bankName", _) => "Guaranty Trust Bank",
        _ => "x",
    }
}
