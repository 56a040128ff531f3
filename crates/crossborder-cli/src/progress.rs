//! A spinner on stderr while the command waits, only when stderr is a
//! terminal: scripts and pipes see nothing but the result.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A ticking spinner with `message`; call `finish_and_clear` when done.
pub fn spinner(message: String) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
    }
    let spinner = ProgressBar::new_spinner().with_message(message);
    spinner.enable_steady_tick(Duration::from_millis(100));
    spinner
}

/// Awaits `work` with a spinner showing `message`, cleared once it ends.
pub async fn while_waiting<T>(message: String, work: impl std::future::Future<Output = T>) -> T {
    let spinner = spinner(message);
    let result = work.await;
    spinner.finish_and_clear();
    result
}

/// A bar of `len` steps with `message`, drawn only when stderr is a
/// terminal; call `finish_and_clear` when done.
pub fn bar(len: u64, message: String) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::hidden());
    }
    let bar = ProgressBar::new(len).with_message(message);
    if let Ok(style) = ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} ({elapsed})") {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}
