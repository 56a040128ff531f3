//! A sub-business created as an integration would: its document uploaded,
//! the business created, and (when asked) submitted with a director and a
//! UBO, so it waits for a decision.

use crossborder::Client;

use crate::fixtures::{business_request, person_request, PDF};

/// Uploads [`PDF`], creates [`business_request`] with `registration_number`
/// linking it, and, when `submit` is true, adds [`person_request`] as
/// director and as UBO, which submits it. Returns the business's id.
///
/// The sandbox decides a submitted business on its next read by the
/// registration number's ending: `REJECT` rejects, `PENDING` leaves it for
/// the control API to decide, anything else approves.
///
/// # Errors
///
/// The SDK's error for the first request refused.
pub async fn onboarded_business(
    client: &Client,
    registration_number: &str,
    submit: bool,
) -> crossborder::Result<String> {
    let businesses = client.businesses();
    let link = businesses
        .upload_document(PDF.to_vec(), "cac.pdf")
        .await?
        .link;
    let id = businesses
        .create(&business_request(registration_number, &link))
        .await?
        .id;
    if submit {
        let person = person_request(&link);
        businesses.add_director(&id, &person).await?;
        businesses.add_ubo(&id, &person).await?;
    }
    Ok(id)
}
