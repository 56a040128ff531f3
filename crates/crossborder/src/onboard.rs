//! Business onboarding in one call: every check of the whole application
//! first, then the uploads, the business, its directors and UBOs, with a
//! progress value that resumes a failed run without doing a step twice.
//!
//! Files are named in the application and referenced wherever a document
//! URL goes with [`file_url`] (`file:<name>`); each is uploaded once and the
//! reference replaced by its link. Any other URL is sent as given.

use std::collections::BTreeMap;

use bytes::Bytes;
use crossborder_core::kyb::PersonRole as CorePersonRole;

use crate::error::Error;
use crate::{
    Business, Client, CreateBusinessRequest, DocumentLink, PersonRequest, Rule, Violation,
    Violations,
};

/// The prefix of a URL that names a file of the application.
pub const FILE_URL_PREFIX: &str = "file:";

/// The URL that stands for the application's file `name` until it is
/// uploaded: `file:<name>`.
pub fn file_url(name: &str) -> String {
    format!("{FILE_URL_PREFIX}{name}")
}

/// A whole onboarding application.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Application {
    /// The business to create; its document URLs may be [`file_url`]s.
    pub business: Option<CreateBusinessRequest>,
    /// The directors, added in order; their document URLs may be file URLs.
    pub directors: Vec<PersonRequest>,
    /// The beneficial owners, added after the directors.
    pub ubos: Vec<PersonRequest>,
    /// The files to upload (JPEG, PNG or PDF, at most 20 MB), by name.
    pub files: BTreeMap<String, Bytes>,
}

/// What a run has done: pass it back to [`Businesses::onboard`](crate::Businesses::onboard)
/// after a failure, and the run goes on from there (no file uploaded twice,
/// no second business, no person added twice).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Progress {
    /// The link of each uploaded file, by name.
    pub links: BTreeMap<String, String>,
    /// The business, once created.
    pub business_id: Option<String>,
    /// How many directors were added, in order.
    pub directors_added: usize,
    /// How many UBOs were added, in order.
    pub ubos_added: usize,
}

/// One step of a run, reported to the progress callback as it happens.
///
/// An upload is reported when it starts (with its size) and when it is
/// done, not byte by byte: a file is at most 20 MB and one request, so the
/// pair says which file is on the way and how big it is, and a caller who
/// wants a moving bar can time it from there. Byte progress would need a
/// streaming body that outlives the callback's borrow, for little gain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step<'a> {
    /// A file is about to be uploaded.
    Uploading {
        /// The file's name in the application.
        name: &'a str,
        /// Its size.
        bytes: usize,
    },
    /// A file was uploaded.
    Uploaded {
        /// The file's name in the application.
        name: &'a str,
        /// Its link.
        link: &'a str,
    },
    /// The business was created.
    Created {
        /// Its id.
        business_id: &'a str,
    },
    /// A director was added.
    DirectorAdded {
        /// Its place in [`Application::directors`].
        index: usize,
    },
    /// A UBO was added; after the first director and UBO, submission
    /// happens by itself.
    UboAdded {
        /// Its place in [`Application::ubos`].
        index: usize,
    },
}

/// A finished onboarding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Onboarded {
    /// The business as read after the last person was added (submitted for
    /// review once it has a director and a UBO; await the decision with
    /// [`Businesses::wait_for_decision`](crate::Businesses::wait_for_decision)).
    pub business: Business,
    /// The link of each uploaded file, by name.
    pub links: BTreeMap<String, String>,
}

/// A run that stopped: the error, and what was done before it, to pass back.
#[derive(Debug, thiserror::Error)]
#[error("onboarding stopped: {error}")]
pub struct OnboardingError {
    /// Why it stopped.
    #[source]
    pub error: Error,
    /// What was done; resume with it.
    pub progress: Progress,
}

impl Application {
    /// Every check of the whole application, before any request: the files
    /// (type by content, size), every `file:` URL naming a file of the
    /// application, the business (as `CreateBusinessRequest::validate`) and
    /// each person (as `PersonRequest::validate` for their role), every
    /// violation at once. People are reported as `directors[0].firstName`.
    pub fn validate(&self) -> Result<(), Violations> {
        let mut all = Vec::new();
        for (name, bytes) in &self.files {
            if let Err(Error::Validation(found)) = crate::upload::check(bytes) {
                all.extend(
                    found
                        .into_iter()
                        .map(|v| prefixed(&format!("files.{name}"), v)),
                );
            }
        }
        // The rules see a stand-in URL for each file reference, so that only
        // the reference itself (to a file the application holds) is judged.
        let stand_ins = self.stand_in_links();
        match &self.business {
            Some(business) => {
                if let Err(found) = resolved_business(business, &stand_ins).validate() {
                    all.extend(found);
                }
                self.check_files(&mut all, "business", &business_urls(business));
            }
            None => all.push(Violation::new("business", Rule::Required, "is required")),
        }
        for (role, list, people) in [
            (CorePersonRole::Director, "directors", &self.directors),
            (CorePersonRole::Ubo, "ubos", &self.ubos),
        ] {
            if people.is_empty() {
                all.push(Violation::new(
                    list,
                    Rule::Required,
                    "needs at least one person (the business is submitted once it has a director and a UBO)",
                ));
            }
            for (index, person) in people.iter().enumerate() {
                let at = format!("{list}[{index}]");
                if let Err(found) = resolved_person(person, &stand_ins).validate(role) {
                    all.extend(found.into_iter().map(|v| prefixed(&at, v)));
                }
                self.check_files(&mut all, &at, &person_urls(person));
            }
        }
        Violations::from_vec(all).map_or(Ok(()), Err)
    }

    /// A stand-in link for every file the application names, held or not.
    fn stand_in_links(&self) -> BTreeMap<String, String> {
        let business = self.business.iter().flat_map(business_urls);
        let people = self
            .directors
            .iter()
            .chain(&self.ubos)
            .flat_map(person_urls);
        business
            .chain(people)
            .filter_map(|(_, url)| url.strip_prefix(FILE_URL_PREFIX))
            .map(|name| (name.to_owned(), format!("https://upload.invalid/{name}")))
            .collect()
    }

    fn check_files(&self, all: &mut Vec<Violation>, at: &str, urls: &[(String, &str)]) {
        for (field, url) in urls {
            if let Some(name) = url.strip_prefix(FILE_URL_PREFIX) {
                if !self.files.contains_key(name) {
                    all.push(Violation::new(
                        format!("{at}.{field}"),
                        Rule::InvalidFormat,
                        format!("names the file {name:?}, which the application does not hold"),
                    ));
                }
            }
        }
    }
}

fn prefixed(at: &str, violation: Violation) -> Violation {
    Violation::new(
        format!("{at}.{}", violation.field),
        violation.rule,
        violation.message,
    )
}

/// The document URLs of a business, by their wire path (a document by its
/// key as given: `documents.bank_statement.url`).
fn business_urls(business: &CreateBusinessRequest) -> Vec<(String, &str)> {
    let mut urls = vec![(
        "proofOfAddress.url".to_owned(),
        business.proof_of_address.url.as_str(),
    )];
    urls.extend(
        business
            .documents
            .iter()
            .map(|(key, link)| (format!("documents.{key}.url"), link.url.as_str())),
    );
    if let Some(url) = business
        .details
        .source_of_fund
        .as_ref()
        .and_then(|s| s.url.as_deref())
    {
        urls.push(("sourceOfFund.url".to_owned(), url));
    }
    urls
}

/// The document URLs of a person, by their wire path.
fn person_urls(person: &PersonRequest) -> Vec<(String, &str)> {
    let mut urls = vec![
        ("idDocumentUrl".to_owned(), person.id_document_url.as_str()),
        ("document.url".to_owned(), person.document.url.as_str()),
    ];
    if let Some(link) = &person.details.additional_document {
        urls.push(("additionalDocument.url".to_owned(), link.url.as_str()));
    }
    urls
}

/// `url` with a `file:` reference replaced by its link.
fn resolve(url: &mut String, links: &BTreeMap<String, String>) {
    if let Some(link) = url
        .strip_prefix(FILE_URL_PREFIX)
        .and_then(|name| links.get(name))
    {
        *url = link.clone();
    }
}

fn resolve_link(link: &mut DocumentLink, links: &BTreeMap<String, String>) {
    resolve(&mut link.url, links);
}

fn resolved_business(
    business: &CreateBusinessRequest,
    links: &BTreeMap<String, String>,
) -> CreateBusinessRequest {
    let mut business = business.clone();
    resolve(&mut business.proof_of_address.url, links);
    business
        .documents
        .values_mut()
        .for_each(|link| resolve_link(link, links));
    if let Some(url) = business
        .details
        .source_of_fund
        .as_mut()
        .and_then(|s| s.url.as_mut())
    {
        resolve(url, links);
    }
    business
}

fn resolved_person(person: &PersonRequest, links: &BTreeMap<String, String>) -> PersonRequest {
    let mut person = person.clone();
    resolve(&mut person.id_document_url, links);
    resolve_link(&mut person.document, links);
    if let Some(link) = person.details.additional_document.as_mut() {
        resolve_link(link, links);
    }
    person
}

/// On a resumed run with people still to add: a director or UBO whose
/// answer was lost (a timeout after the service acted) is not in
/// `progress`, but the business's `directorCount` and `uboCount` show it.
/// Counts above the progress (at most the application's people) move the
/// progress up to them, so the resumed run does not add that person again.
/// A service that sends no counts leaves the progress as it is.
async fn catch_up_people(
    businesses: &crate::Businesses<'_>,
    business_id: &str,
    application: &Application,
    progress: &mut Progress,
) -> Result<(), Error> {
    if progress.directors_added >= application.directors.len()
        && progress.ubos_added >= application.ubos.len()
    {
        return Ok(());
    }
    let business = businesses.get(business_id).await?;
    let count = |counted: Option<u64>, people: usize| {
        counted.map_or(0, |n| usize::try_from(n).unwrap_or(usize::MAX).min(people))
    };
    progress.directors_added = progress
        .directors_added
        .max(count(business.director_count, application.directors.len()));
    progress.ubos_added = progress
        .ubos_added
        .max(count(business.ubo_count, application.ubos.len()));
    Ok(())
}

/// The run, step by step; `progress` is updated after each step that
/// succeeded, so an error leaves it exactly at what was done.
pub(crate) async fn run(
    client: &Client,
    application: &Application,
    progress: &mut Progress,
    on_step: &mut (dyn FnMut(Step<'_>) + Send),
) -> Result<Onboarded, Error> {
    application.validate()?;
    let businesses = client.businesses();
    for (name, bytes) in &application.files {
        if progress.links.contains_key(name) {
            continue;
        }
        on_step(Step::Uploading {
            name,
            bytes: bytes.len(),
        });
        let uploaded = businesses.upload_document(bytes.clone(), name).await?;
        on_step(Step::Uploaded {
            name,
            link: &uploaded.link,
        });
        progress.links.insert(name.clone(), uploaded.link);
    }
    let Some(business) = &application.business else {
        return Err(Error::Validation(
            Violation::new("business", Rule::Required, "is required").into(),
        ));
    };
    let business_id = match &progress.business_id {
        Some(id) => {
            let id = id.clone();
            catch_up_people(&businesses, &id, application, progress).await?;
            id
        }
        None => {
            let created = businesses
                .create(&resolved_business(business, &progress.links))
                .await?;
            on_step(Step::Created {
                business_id: &created.id,
            });
            progress.business_id = Some(created.id.clone());
            created.id
        }
    };
    for (index, director) in application
        .directors
        .iter()
        .enumerate()
        .skip(progress.directors_added)
    {
        businesses
            .add_director(&business_id, &resolved_person(director, &progress.links))
            .await?;
        progress.directors_added = index + 1;
        on_step(Step::DirectorAdded { index });
    }
    for (index, ubo) in application
        .ubos
        .iter()
        .enumerate()
        .skip(progress.ubos_added)
    {
        businesses
            .add_ubo(&business_id, &resolved_person(ubo, &progress.links))
            .await?;
        progress.ubos_added = index + 1;
        on_step(Step::UboAdded { index });
    }
    // The record after the last person: submitted by then (validation
    // requires a director and a UBO).
    let business = businesses.get(&business_id).await?;
    Ok(Onboarded {
        business,
        links: progress.links.clone(),
    })
}
