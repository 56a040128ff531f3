//! The demo's onboarding step: a Nigerian LLC onboarded on the sandbox
//! (upload, create, director, UBO) and awaited to its decision.

use std::time::Duration;

use crossborder::{Client, WaitOptions};
use crossborder_testkit::fixtures::{business_request, person_request, PDF};

use crate::failure::Failure;

pub async fn onboard(client: &Client) -> Result<(), Failure> {
    let link = client
        .businesses()
        .upload_document(PDF.to_vec(), "company-documents.pdf")
        .await?
        .link;
    say!("   uploaded company-documents.pdf: {link}");

    // The test kit's business and person: the demo onboards the business
    // every suite onboards, defined once.
    let business = client
        .businesses()
        .create(&business_request("RC1234567", &link))
        .await?;
    say!("   created business {} ({})", business.id, business.status);

    let person = person_request(&link);
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
