//! Business onboarding in one call: every check of the whole application
//! first, then the uploads, the business, its directors and UBOs, with a
//! progress value that resumes a failed run without doing a step twice.
//!
//! Files are named in the application and referenced wherever a document
//! URL goes with [`file_url`] (`file:<name>`); each is uploaded once and the
//! reference replaced by its link. Any other URL is sent as given, and so is
//! a `file:` text in any field that is not a document URL.
//!
//! An application can be read from its JSON ([`Application::from_json`]),
//! each part the API's own request body, checked as
//! [`check_business_json`](crate::json::check_business_json) checks a
//! business (and as the `json` feature's `Businesses::*_json` methods check
//! theirs).
//!
//! Every mistake in an application is reported at once before the first
//! request; then [`Businesses::onboard`](crate::Businesses::onboard) uploads
//! each file, creates the business and adds every person (the business is
//! then submitted for review). A failure part-way returns the progress to
//! resume from: a resumed run never uploads a file it has a link for, never
//! creates a second business and never adds a person twice. Document keys may
//! be written loosely (`Bank-Statement`, `bn1`): each goes out as the service
//! knows it
//! ([`CreateBusinessRequest::document_keys`](crate::types::CreateBusinessRequest::document_keys)
//! shows how).
//!
//! ```no_run
//! use crossborder::onboard::{file_url, Application, Progress};
//! use crossborder::{
//!     Client, WaitOptions,
//!     types::{
//!         Address, BusinessDetails, BusinessType, CreateBusinessRequest, DocumentLink, Documents,
//!         IdType, NatureOfBusiness, PersonDetails, PersonRequest, ProofOfAddress,
//!         ProofOfAddressType,
//!     },
//! };
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let client = Client::from_env()?;
//! let address = Address {
//!     house_number: "12".into(), street: "Admiralty Way".into(), city: "Lekki".into(),
//!     state: "Lagos".into(), zip_code: "106104".into(), subdivision: None,
//! };
//! // Every document names a file of the application: `file:cac_document.pdf`.
//! let mut documents = Documents::new();
//! for key in ["cac_document", "bank_statement", "application_letter", "cac_status_report"] {
//!     documents.insert(key.into(), DocumentLink::new(file_url(&format!("{key}.pdf")), key));
//! }
//! let business = CreateBusinessRequest {
//!     name: "Lagos Trading Ltd".into(),
//!     business_type: BusinessType::Llc,
//!     registration_number: "RC1234567".into(),
//!     email: "compliance@lagostrading.ng".into(),
//!     phone_number: "+2348012345678".into(),
//!     nature_of_business: NatureOfBusiness { nature: "Wholesale".into(), code: "4652".into() },
//!     business_address: address.clone(),
//!     proof_of_address: ProofOfAddress {
//!         url: file_url("utility_bill.pdf"), key: "utility".into(),
//!         kind: ProofOfAddressType::UtilityBill,
//!     },
//!     documents,
//!     details: BusinessDetails::default(),
//! };
//! // One person, director and beneficial owner both.
//! let owner = PersonRequest {
//!     first_name: "Adaeze".into(), last_name: "Okafor".into(),
//!     date_of_birth: "1985-04-12".into(), nationality: "NG".into(),
//!     phone_number: "+2348031234567".into(), id_number: "A12345678".into(),
//!     id_type: IdType::CurrentPassport, id_document_url: file_url("passport.pdf"),
//!     address, document: DocumentLink::new(file_url("utility_bill.pdf"), "utility"),
//!     details: PersonDetails::default(),
//! };
//! let mut files = std::collections::BTreeMap::new();
//! for name in ["cac_document.pdf", "bank_statement.pdf", "application_letter.pdf",
//!              "cac_status_report.pdf", "utility_bill.pdf", "passport.pdf"] {
//!     files.insert(name.to_owned(), std::fs::read(name)?.into());
//! }
//! let application = Application {
//!     business: Some(business), directors: vec![owner.clone()], ubos: vec![owner], files,
//! };
//!
//! let onboarded = client
//!     .businesses()
//!     .onboard(&application, Progress::default(), |step, _| println!("{step:?}"))
//!     .await?; // on failure: the error and the progress to pass back
//! let decided = client
//!     .businesses()
//!     .wait_for_decision(&onboarded.business.id, WaitOptions::default())
//!     .await?;
//! println!("{} is {}", decided.id, decided.status);
//! # Ok(()) }
//! ```
//!
//! The [`onboard_business`](https://github.com/crossborder-rs/crossborder/blob/main/crates/crossborder/examples/onboard_business.rs)
//! example runs this against the sandbox, resuming after a failure.

// `application.rs` holds the application and its checks, `files.rs` the
// file references and their links, `run.rs` the steps of a run and its
// progress.

mod application;
mod files;
mod run;

pub use application::Application;
pub use files::{file_url, FILE_URL_PREFIX};
pub use run::{Onboarded, OnboardingError, Progress, Step};
