//! `crossborder business onboard`: a whole application (see
//! `application.rs`) through the SDK's `businesses().onboard`, with the
//! progress kept in a file after every step, so that a run that stops is
//! resumed with `--resume FILE` and nothing is done twice.

use std::path::{Path, PathBuf};

use crossborder::onboard::{Progress, Step};
use crossborder::Client;
use serde_json::{json, Value};

use crate::failure::Failure;

/// Onboards the application at `file`, resuming from `resume` when given.
pub async fn run(
    client: impl FnOnce() -> Result<Client, Failure>,
    file: &Path,
    resume: Option<&Path>,
    as_json: bool,
) -> Result<(), Failure> {
    let application = crate::application::read(file)?;
    application.validate().map_err(|v| Failure::invalid(&v))?;
    let progress_path = match resume {
        Some(path) => path.to_path_buf(),
        None => default_progress_path(file),
    };
    let progress = match resume {
        Some(path) => read_progress(path)?,
        None if progress_path.exists() => {
            return Err(Failure::usage(format!(
                "{} records an earlier run of this application: resume it with \
                 --resume {0} (or delete the file to start over)",
                progress_path.display()
            )))
        }
        None => Progress::default(),
    };
    let client = client()?;

    let spinner = crate::progress::spinner(format!("onboarding {}", file.display()));
    let mut saved = progress.clone();
    let mut save_error = None;
    let result = client
        .businesses()
        .onboard(&application, progress, |step| {
            if let Some(done) = record(&mut saved, &step) {
                spinner.println(format!("  {done}"));
                // Saved after every step, so that even a killed run can be
                // resumed without doing that step again.
                if let Err(error) = write_progress(&progress_path, &saved) {
                    save_error.get_or_insert(error);
                }
            } else if let Step::Uploading { name, bytes } = step {
                spinner.set_message(format!("uploading {name} ({bytes} bytes)"));
            }
        })
        .await;
    spinner.finish_and_clear();

    match result {
        Ok(onboarded) => {
            // The record stays: a rerun without --resume refuses to create
            // the business again, and with it only reads the business back.
            write_progress(&progress_path, &saved).map_err(Failure::usage)?;
            crate::render::onboarded(&onboarded).print(as_json);
            note(&format!(
                "what was done is recorded in {}; --resume it to read the business again",
                progress_path.display()
            ));
            Ok(())
        }
        Err(stopped) => {
            let mut failure = Failure::from(stopped.error);
            if stopped.progress == Progress::default() && resume.is_none() {
                // Nothing was done: nothing to resume.
                return Err(failure);
            }
            failure.lines.push("done before it stopped:".to_owned());
            failure.lines.extend(
                done_lines(&stopped.progress, &application)
                    .into_iter()
                    .map(|line| format!("  {line}")),
            );
            match write_progress(&progress_path, &stopped.progress).or(match save_error {
                Some(error) => Err(error),
                None => Ok(()),
            }) {
                Ok(()) => {
                    failure.lines.push(format!(
                        "progress saved to {}; fix the cause and resume with:",
                        progress_path.display()
                    ));
                    failure.lines.push(format!(
                        "  crossborder business onboard {} --resume {}",
                        file.display(),
                        progress_path.display()
                    ));
                }
                Err(error) => failure.lines.push(format!(
                    "the progress could not be saved ({error}); it is, as JSON: {}",
                    progress_json(&stopped.progress)
                )),
            }
            Err(failure)
        }
    }
}

/// A line on stderr that is not an error.
fn note(line: &str) {
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

/// `APPLICATION.progress.json`, next to the application.
fn default_progress_path(file: &Path) -> PathBuf {
    file.with_extension("progress.json")
}

/// Mirrors a finished step into `progress` (as the SDK records it) and
/// says what was done; `None` for a step that only starts.
fn record(progress: &mut Progress, step: &Step<'_>) -> Option<String> {
    match *step {
        Step::Uploading { .. } => None,
        Step::Uploaded { name, link } => {
            progress.links.insert(name.to_owned(), link.to_owned());
            Some(format!("uploaded {name}: {link}"))
        }
        Step::Created { business_id } => {
            progress.business_id = Some(business_id.to_owned());
            Some(format!("created business {business_id}"))
        }
        Step::DirectorAdded { index } => {
            progress.directors_added = index + 1;
            Some(format!("added director {}", index + 1))
        }
        Step::UboAdded { index } => {
            progress.ubos_added = index + 1;
            Some(format!("added UBO {}", index + 1))
        }
    }
}

/// What `progress` says was done, against what the application asks.
fn done_lines(progress: &Progress, application: &crossborder::onboard::Application) -> Vec<String> {
    let mut lines: Vec<String> = progress
        .links
        .iter()
        .map(|(name, link)| format!("uploaded {name}: {link}"))
        .collect();
    lines.push(format!(
        "uploaded {} of {} files",
        progress.links.len(),
        application.files.len()
    ));
    lines.push(match &progress.business_id {
        Some(id) => format!("created business {id}"),
        None => "business not created".to_owned(),
    });
    lines.push(format!(
        "added {} of {} directors, {} of {} UBOs",
        progress.directors_added,
        application.directors.len(),
        progress.ubos_added,
        application.ubos.len()
    ));
    lines
}

/// The progress file: `{"links": {name: link}, "businessId", "directorsAdded", "ubosAdded"}`.
fn progress_json(progress: &Progress) -> Value {
    let Progress {
        links,
        business_id,
        directors_added,
        ubos_added,
    } = progress;
    json!({
        "links": links,
        "businessId": business_id,
        "directorsAdded": directors_added,
        "ubosAdded": ubos_added,
    })
}

fn write_progress(path: &Path, progress: &Progress) -> Result<(), String> {
    let text = crate::render::pretty(&progress_json(progress));
    // Written aside and renamed, so a run killed mid-write leaves the last
    // complete record.
    let partial = path.with_extension("json.partial");
    std::fs::write(&partial, text + "\n")
        .and_then(|()| std::fs::rename(&partial, path))
        .map_err(|error| format!("cannot write {}: {error}", path.display()))
}

fn read_progress(path: &Path) -> Result<Progress, Failure> {
    let json = crate::input::read_json(path)?;
    let bad = |what: &str| {
        Failure::usage(format!(
            "{} is not a progress file of `business onboard`: {what}",
            path.display()
        ))
    };
    if !json.is_object() {
        return Err(bad("it must be a JSON object"));
    }
    let count = |name: &str| -> Result<usize, Failure> {
        match json.get(name) {
            None | Some(Value::Null) => Ok(0),
            Some(value) => value
                .as_u64()
                .and_then(|n| usize::try_from(n).ok())
                .ok_or_else(|| bad(&format!("{name} must be a count"))),
        }
    };
    let links = match json.get("links") {
        None | Some(Value::Null) => Default::default(),
        Some(Value::Object(map)) => map
            .iter()
            .map(|(name, link)| match link {
                Value::String(link) => Ok((name.clone(), link.clone())),
                _ => Err(bad("each link must be a string")),
            })
            .collect::<Result<_, _>>()?,
        Some(_) => return Err(bad("links must be an object")),
    };
    let business_id = match json.get("businessId") {
        None | Some(Value::Null) => None,
        Some(Value::String(id)) => Some(id.clone()),
        Some(_) => return Err(bad("businessId must be a string")),
    };
    Ok(Progress {
        links,
        business_id,
        directors_added: count("directorsAdded")?,
        ubos_added: count("ubosAdded")?,
    })
}
