//! `crossborder business onboard`: a whole application (see
//! `application.rs`) through the SDK's `businesses().onboard`, with the
//! progress kept in a file after every step, so that a run that stops is
//! resumed with `--resume FILE` and nothing is done twice.

use std::path::{Path, PathBuf};

use crossborder::onboard::{Progress, Step};
use crossborder::Client;

use crate::failure::Failure;

/// Onboards the application at `file`, resuming from `resume` when given.
pub async fn run(
    client: impl FnOnce() -> Result<Client, Failure>,
    file: &Path,
    resume: Option<&Path>,
    as_json: bool,
) -> Result<(), Failure> {
    let application = crate::application::read(file)?;
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
    let result = client
        .businesses()
        .onboard(&application, progress, |step, progress| match done(&step) {
            Some(done) => {
                spinner.println(format!("  {done}"));
                // Saved after every step, so that even a killed run can be
                // resumed without doing that step again. A save that fails
                // here is not reported: the last save, after the run, says
                // whether the progress is kept.
                let _ = write_progress(&progress_path, progress);
            }
            None => {
                if let Step::Uploading { name, bytes } = step {
                    spinner.set_message(format!("uploading {name} ({bytes} bytes)"));
                }
            }
        })
        .await;
    spinner.finish_and_clear();

    match result {
        Ok(onboarded) => {
            // The business first: it is onboarded whatever happens to the
            // record below.
            crate::render::onboarded(&onboarded).print(as_json);
            // The record stays: a rerun without --resume refuses to create
            // the business again, and with it only reads the business back.
            match write_progress(&progress_path, &onboarded.progress) {
                Ok(()) => note(&format!(
                    "what was done is recorded in {}; --resume it to read the business again",
                    progress_path.display()
                )),
                Err(error) => note(&format!(
                    "warning: onboarded, but the progress could not be saved ({error}); \
                     it is, as JSON: {}",
                    progress_text(&onboarded.progress)
                )),
            }
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
            match write_progress(&progress_path, &stopped.progress) {
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
                    progress_text(&stopped.progress)
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

/// What a finished step did; `None` for a step that only starts.
fn done(step: &Step<'_>) -> Option<String> {
    match *step {
        Step::Uploading { .. } => None,
        Step::Uploaded { name, link } => Some(format!("uploaded {name}: {link}")),
        Step::Created { business_id } => Some(format!("created business {business_id}")),
        Step::DirectorAdded { index } => Some(format!("added director {}", index + 1)),
        Step::UboAdded { index } => Some(format!("added UBO {}", index + 1)),
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

/// The progress on one line, for a message.
fn progress_text(progress: &Progress) -> String {
    serde_json::to_string(progress).unwrap_or_else(|error| format!("(not shown: {error})"))
}

/// Writes the SDK's progress (its own JSON form) to `path`.
fn write_progress(path: &Path, progress: &Progress) -> Result<(), String> {
    let cannot =
        |error: &dyn std::fmt::Display| format!("cannot write {}: {error}", path.display());
    let json = serde_json::to_value(progress).map_err(|error| cannot(&error))?;
    // Written aside and renamed, so a run killed mid-write leaves the last
    // complete record.
    let partial = path.with_extension("json.partial");
    std::fs::write(&partial, crate::render::pretty(&json) + "\n")
        .and_then(|()| std::fs::rename(&partial, path))
        .map_err(|error| cannot(&error))
}

fn read_progress(path: &Path) -> Result<Progress, Failure> {
    let json = crate::input::read_json(path)?;
    serde_json::from_value(json).map_err(|error| {
        Failure::usage(format!(
            "{} is not a progress file of `business onboard`: {error}",
            path.display()
        ))
    })
}
