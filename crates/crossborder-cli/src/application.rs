//! The application file of `business onboard`: the whole onboarding in one
//! JSON document, each part in the API's own wire JSON,
//!
//! ```text
//! {"business": {POST /api/business body},
//!  "directors": [{POST /api/business/{id}/director body}, ...],
//!  "ubos": [{POST /api/business/{id}/ubo body}, ...]}
//! ```
//!
//! where a document URL `file:PATH` names a local file (relative to the
//! application file) that the SDK uploads once and replaces by its link.
//! The SDK reads the document and says which files it references
//! (`Application::from_json`, `referenced_files`) and holds every rule
//! (`Application::validate`); this module only reads those files from disk.

use std::path::Path;

use crossborder::error::{Rule, Violation, Violations};
use crossborder::onboard::Application;

use crate::failure::Failure;

/// Reads the application at `path`, then the files its document URLs
/// name. Everything wrong with it is reported at once as a validation
/// failure; nothing is sent.
pub fn read(path: &Path) -> Result<Application, Failure> {
    let json = crate::input::read_json(path)?;
    let mut application = Application::from_json(&json).map_err(|v| Failure::invalid(&v))?;
    let base = path.parent().unwrap_or(Path::new(""));
    let mut wrong = Vec::new();
    for name in application.referenced_files() {
        let file = base.join(&name);
        match std::fs::read(&file) {
            Ok(bytes) => {
                application.files.insert(name, bytes.into());
            }
            Err(error) => wrong.push(Violation::new(
                format!("files.{name}"),
                Rule::InvalidFormat,
                format!("cannot read {}: {error}", file.display()),
            )),
        }
    }
    // A file that could not be read is also named where it is referenced.
    if let Err(found) = application.validate() {
        wrong.extend(found);
    }
    match Violations::from_vec(wrong) {
        None => Ok(application),
        Some(violations) => Err(Failure::invalid(&violations)),
    }
}
