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
//! [`Businesses::create_json`](crate::Businesses::create_json) and
//! [`add_director_json`](crate::Businesses::add_director_json) check theirs.
//!
//! `application.rs` holds the application and its checks, `files.rs` the
//! file references and their links, `run.rs` the steps of a run and its
//! progress.

mod application;
mod files;
mod run;

pub use application::Application;
pub use files::{file_url, FILE_URL_PREFIX};
pub use run::{Onboarded, OnboardingError, Progress, Step};
