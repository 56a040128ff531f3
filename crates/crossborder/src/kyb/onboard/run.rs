//! A run: upload each file, create the business, add every person, with
//! the progress that lets a failed run resume without doing a step twice.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::files::{resolved_business, resolved_person};
use super::Application;
use crate::error::{Error, Rule, Violation};
use crate::types::Business;
use crate::Client;

/// What a run has done: pass it back to [`Businesses::onboard`](crate::Businesses::onboard)
/// after a failure, and the run goes on from there (no file uploaded twice,
/// no second business, no person added twice).
///
/// It serialises as `{"links": {name: link}, "businessId": id or null,
/// "directorsAdded": n, "ubosAdded": n}`, to keep between runs; reading it
/// back, a missing field is its default and a field it does not have is
/// refused (a misspelt `businessID` must not start a second business).
///
/// ```
/// use crossborder::onboard::Progress;
///
/// let progress: Progress = serde_json::from_str(r#"{"businessId": "biz_3M8QK2", "directorsAdded": 1}"#).unwrap();
/// assert_eq!(progress.business_id.as_deref(), Some("biz_3M8QK2"));
/// assert_eq!((progress.directors_added, progress.ubos_added), (1, 0));
/// assert_eq!(
///     serde_json::to_string(&progress).unwrap(),
///     r#"{"links":{},"businessId":"biz_3M8QK2","directorsAdded":1,"ubosAdded":0}"#
/// );
/// let misspelt = serde_json::from_str::<Progress>(r#"{"businessID": "biz_3M8QK2"}"#).unwrap_err();
/// assert_eq!(
///     misspelt.to_string(),
///     "unknown field `businessID`, expected one of `links`, `businessId`, `directorsAdded`, \
///      `ubosAdded` at line 1 column 13"
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
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

/// One step of a run, reported to the progress callback as it happens,
/// with the [`Progress`] made so far (the step included): save that to
/// resume a run that is killed.
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
    /// Everything the run has done, as it ends: passed back, a run only
    /// reads the business again.
    pub progress: Progress,
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

/// On a resumed run with people still to add: a director or UBO whose
/// answer was lost (a timeout after the service acted) is not in
/// `progress`, but the business's `directorCount` and `uboCount` show it.
/// Counts above the progress (at most the application's people) move the
/// progress up to them, so the resumed run does not add that person again.
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

// Here, beside the run, not with the other operations in `resources/`: the
// run uses the resource's operations.
impl crate::Businesses<'_> {
    /// Onboards a business in one call: checks the whole application
    /// ([`Application::validate`]: files, business, every director and UBO,
    /// every violation at once) before the first request, then uploads each
    /// file, creates the business with the links in place of its
    /// [`file_url`](crate::onboard::file_url)s, adds every director and UBO
    /// (submission then happens by itself), and returns the business, every
    /// link and the final [`Progress`]. `on_step` hears each step as it
    /// happens, with the progress made so far (that step included), to save
    /// after each step so that even a killed run can be resumed. The
    /// progress can also move without a step: a resumed run that finds a
    /// person already added (see below) counts them; the progress returned,
    /// on success or failure, holds that too.
    ///
    /// A failure part-way returns [`OnboardingError`] with the
    /// [`Progress`] made: pass it back and the run goes on where it stopped,
    /// so a retry never uploads a file it has a link for, never creates a
    /// second business, and never adds a person twice.
    ///
    /// A step whose answer was lost (a timeout after the service acted) is
    /// not in the progress, and the resumed run deals with it as follows.
    /// A director or UBO: the run reads the business first, and its
    /// `directorCount` and `uboCount` show the person was added, so they are
    /// not added again. The create: it goes out again with the identical
    /// body, and a service that treats an identical create as a repeat
    /// answers with the business it created (ASSUMPTIONS B22; the sandbox
    /// does). A service that answers `409 registrationNumber already
    /// registered` instead leaves the id to you: the business exists, so
    /// find its id (the dashboard), set
    /// [`Progress::business_id`](crate::onboard::Progress::business_id) to
    /// it and resume; a different application under a registration number
    /// already used gets the same 409, and must not be resumed that way. An
    /// upload: it is sent again, and the service keeps a second, unused copy.
    ///
    /// ```no_run
    /// # async fn run(client: crossborder::Client, business: crossborder::types::CreateBusinessRequest,
    /// #              director: crossborder::types::PersonRequest, ubo: crossborder::types::PersonRequest)
    /// #              -> Result<(), Box<dyn std::error::Error>> {
    /// use crossborder::onboard::{Application, Progress};
    ///
    /// let application = Application {
    ///     business: Some(business), // document URLs may be file_url("cac.pdf")
    ///     directors: vec![director],
    ///     ubos: vec![ubo],
    ///     files: [("cac.pdf".to_owned(), std::fs::read("cac.pdf")?.into())].into(),
    /// };
    /// let mut progress = Progress::default();
    /// let onboarded = loop {
    ///     match client.businesses().onboard(&application, progress, |step, _| println!("{step:?}")).await {
    ///         Ok(onboarded) => break onboarded,
    ///         // An invalid application sent nothing: fix it first.
    ///         Err(stopped) if stopped.error.violations().is_some() => return Err(stopped.into()),
    ///         // Otherwise go on where it stopped (wait, and give up at some point).
    ///         Err(stopped) => progress = stopped.progress,
    ///     }
    /// };
    /// println!("business {} is {}", onboarded.business.id, onboarded.business.status);
    /// # Ok(()) }
    /// ```
    pub async fn onboard(
        &self,
        application: &Application,
        progress: Progress,
        mut on_step: impl FnMut(Step<'_>, &Progress) + Send,
    ) -> std::result::Result<Onboarded, OnboardingError> {
        let mut progress = progress;
        match run(self.client, application, &mut progress, &mut on_step).await {
            Ok(onboarded) => Ok(onboarded),
            Err(error) => Err(OnboardingError { error, progress }),
        }
    }
}

/// The run, step by step; `progress` is updated after each step that
/// succeeded, before the step is reported, so an error leaves it exactly at
/// what was done.
async fn run(
    client: &Client,
    application: &Application,
    progress: &mut Progress,
    on_step: &mut (dyn FnMut(Step<'_>, &Progress) + Send),
) -> Result<Onboarded, Error> {
    application.validate()?;
    let businesses = client.businesses();
    for (name, bytes) in &application.files {
        if progress.links.contains_key(name) {
            continue;
        }
        on_step(
            Step::Uploading {
                name,
                bytes: bytes.len(),
            },
            progress,
        );
        let uploaded = businesses.upload_document(bytes.clone(), name).await?;
        progress.links.insert(name.clone(), uploaded.link.clone());
        on_step(
            Step::Uploaded {
                name,
                link: &uploaded.link,
            },
            progress,
        );
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
            progress.business_id = Some(created.id.clone());
            on_step(
                Step::Created {
                    business_id: &created.id,
                },
                progress,
            );
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
        on_step(Step::DirectorAdded { index }, progress);
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
        on_step(Step::UboAdded { index }, progress);
    }
    // The record after the last person: submitted by then (validation
    // requires a director and a UBO).
    let business = businesses.get(&business_id).await?;
    Ok(Onboarded {
        business,
        links: progress.links.clone(),
        progress: progress.clone(),
    })
}
