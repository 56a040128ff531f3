//! `crossborder-sandbox`: runs the sandbox server until Ctrl-C.

use std::process::ExitCode;

use clap::Parser;
use crossborder_sandbox::serve::{serve, ServeArgs};

/// A local, in-memory sandbox of the Cross-Border Collections and Payouts
/// API. Prints the base URL, the console's URL and the API keys, then
/// serves until Ctrl-C,
/// printing one line per request (method, path, status, milliseconds, the
/// key masked) unless --quiet.
#[derive(Debug, Parser)]
#[command(version, about)]
struct Cli {
    #[command(flatten)]
    serve: ServeArgs,
}

#[tokio::main]
async fn main() -> ExitCode {
    serve(Cli::parse().serve).await
}
