//! The demo's onboarding step: a Nigerian LLC onboarded on the sandbox
//! (upload, create, director, UBO) and awaited to its decision.

use std::time::Duration;

use crossborder::{
    types::{
        Address, BusinessDetails, BusinessType, CreateBusinessRequest, DocumentLink, Documents,
        IdType, NatureOfBusiness, PersonDetails, PersonRequest, ProofOfAddress, ProofOfAddressType,
    },
    Client, WaitOptions,
};

use crate::failure::Failure;

/// The smallest valid PDF header: the sandbox tells types by content.
const PDF: &[u8] = b"%PDF-1.4\n% crossborder demo document\n%%EOF\n";

fn lagos(house: &str, street: &str, city: &str, zip: &str) -> Address {
    Address {
        house_number: house.into(),
        street: street.into(),
        city: city.into(),
        state: "Lagos".into(),
        zip_code: zip.into(),
        subdivision: None,
    }
}

pub async fn onboard(client: &Client) -> Result<(), Failure> {
    let link = client
        .businesses()
        .upload_document(PDF.to_vec(), "company-documents.pdf")
        .await?
        .link;
    say!("   uploaded company-documents.pdf: {link}");

    let mut documents = Documents::new();
    for (key, id) in [
        ("cac_document", "cac-cert"),
        ("bank_statement", "statement-6m"),
        ("application_letter", "letter"),
        ("cac_status_report", "status-report"),
    ] {
        documents.insert(key.into(), DocumentLink::new(link.as_str(), id));
    }
    let business = client
        .businesses()
        .create(&CreateBusinessRequest {
            name: "Lagos Trading Ltd".into(),
            business_type: BusinessType::Llc,
            registration_number: "RC1234567".into(),
            email: "compliance@lagostrading.ng".into(),
            phone_number: "+2348012345678".into(),
            nature_of_business: NatureOfBusiness {
                nature: "Wholesale of consumer electronics".into(),
                code: "4652".into(),
            },
            business_address: lagos("12", "Admiralty Way", "Lekki", "106104"),
            proof_of_address: ProofOfAddress {
                url: link.clone(),
                key: "utility-2026-10".into(),
                kind: ProofOfAddressType::UtilityBill,
            },
            documents,
            details: BusinessDetails::default(),
        })
        .await?;
    say!("   created business {} ({})", business.id, business.status);

    let person = PersonRequest {
        first_name: "Adaeze".into(),
        last_name: "Okafor".into(),
        date_of_birth: "1985-04-12".into(),
        nationality: "NG".into(),
        phone_number: "+2348031234567".into(),
        id_number: "A12345678".into(),
        id_type: IdType::CurrentPassport,
        id_document_url: link.clone(),
        address: lagos("7", "Bourdillon Road", "Ikoyi", "101233"),
        document: DocumentLink::new(link.as_str(), "director-utility"),
        details: PersonDetails::default(),
    };
    client
        .businesses()
        .add_director(&business.id, &person)
        .await?;
    say!("   added Adaeze Okafor as director");
    client.businesses().add_ubo(&business.id, &person).await?;
    say!("   added Adaeze Okafor as UBO: the business is submitted for review");

    let options = WaitOptions::default()
        .timeout(Duration::from_secs(30))
        .initial_interval(Duration::from_millis(200));
    let decided = client
        .businesses()
        .wait_for_decision(&business.id, options)
        .await?;
    match &decided.rejection_reason {
        Some(reason) => say!("   decision: {} ({reason})", decided.status),
        None => say!("   decision: {}", decided.status),
    }
    Ok(())
}
