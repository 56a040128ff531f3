//! Serving the sandbox in the foreground until Ctrl-C, with the options
//! and output shared by the `crossborder-sandbox` binary and
//! `crossborder sandbox`: the base URL and keys first, then one line per
//! request (see [`RequestLine`](crate::RequestLine)) unless `--quiet`.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;

use crate::faults::{FaultConfig, FaultConfigError, FaultProfile, FaultRate};
use crate::{parse_keys_file, ApiKeySpec, PayoutSettlement, Sandbox, SandboxConfig, SandboxHandle};

/// `println!` that never panics: with stdout closed early
/// (`crossborder-sandbox | head -1`) the line is lost and serving goes on.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout().lock(), $($arg)*);
    }};
}

/// `eprintln!` that never panics on a closed stderr.
macro_rules! err {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr().lock(), $($arg)*);
    }};
}

/// The options of a sandbox served in the foreground.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Port to listen on (0 picks a free one).
    #[arg(long, default_value_t = 8080, env = "CROSSBORDER_SANDBOX_PORT")]
    pub port: u16,
    /// Address to listen on.
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    pub host: IpAddr,
    /// An extra API key, `test_...` (staging) or `live_...` (production);
    /// append `:noaccess` for a business without API access. Repeatable.
    #[arg(long = "key", value_name = "KEY")]
    pub keys: Vec<ApiKeySpec>,
    /// A file of extra keys, one per line (`KEY` or `KEY noaccess`; `#`
    /// starts a comment).
    #[arg(long, value_name = "FILE")]
    pub keys_file: Option<PathBuf>,
    /// Only accept the keys given with --key and --keys-file, not the three
    /// default ones.
    #[arg(long)]
    pub no_default_keys: bool,
    /// Lifetime of a quote's rateKey, in seconds.
    #[arg(long, default_value_t = crossborder_core::quote::QUOTE_LIFETIME.as_secs())]
    pub quote_ttl_secs: u64,
    /// Timeout of a webhook delivery, in seconds.
    #[arg(long, default_value_t = 5)]
    pub webhook_timeout_secs: u64,
    /// Seconds a client may take to send a request head before its
    /// connection is closed.
    #[arg(long, default_value_t = 10)]
    pub head_timeout_secs: u64,
    /// Connections served at once; one over it is answered 503 and closed.
    #[arg(long, default_value_t = 1024)]
    pub max_connections: usize,
    /// How payouts settle: `instant` (at once), `manual` (PENDING until
    /// completed or failed through the console or the control API), or a
    /// delay such as `30s`, `500ms`, `2m`, `1h`.
    #[arg(long, value_name = "WHEN", default_value_t = PayoutSettlement::Instant)]
    pub payout_settlement: PayoutSettlement,
    /// Faults to inject into every business's requests, webhooks and
    /// payouts: `off` or `standard` (see the README's "Test your
    /// integration against production's failures").
    #[arg(long, value_name = "PROFILE", default_value_t = FaultProfile::Off)]
    pub faults: FaultProfile,
    /// The seed the faults are drawn with (printed at start; random when
    /// absent). The same seed and the same requests give the same faults.
    #[arg(long, value_name = "N")]
    pub fault_seed: Option<u64>,
    /// One kind's rate, `KIND=RATE` with RATE from 0 to 1, over the
    /// profile's (`--fault-rate payout_failed=0.2`). Repeatable.
    #[arg(long = "fault-rate", value_name = "KIND=RATE")]
    pub fault_rates: Vec<FaultRate>,
    /// Do not print a line per request.
    #[arg(long)]
    pub quiet: bool,
}

/// The fault settings of `args`, or why they are refused.
fn fault_config(args: &ServeArgs) -> Result<FaultConfig, FaultConfigError> {
    let seed = args.fault_seed.unwrap_or_else(random_seed);
    let mut config = FaultConfig::profile_with_seed(args.faults, seed);
    for rate in &args.fault_rates {
        config = config.with_rate(rate.kind, rate.rate)?;
    }
    Ok(config)
}

/// A seed from the system clock, for a run without `--fault-seed`.
fn random_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|elapsed| elapsed.as_nanos())
        .unwrap_or_default();
    // Folded to 64 bits; any value is a valid seed.
    (nanos as u64) ^ ((nanos >> 64) as u64)
}

/// Serves until Ctrl-C or SIGTERM; the exit code says whether it could start.
pub async fn serve(args: ServeArgs) -> ExitCode {
    serve_then(args, |_| {}).await
}

/// [`serve`], calling `started` once the sandbox listens and its addresses
/// are printed (`crossborder sandbox --open` opens the console there).
pub async fn serve_then(args: ServeArgs, started: impl FnOnce(&SandboxHandle)) -> ExitCode {
    // Installed first, so a signal that arrives while the server starts is
    // not lost.
    let stop = StopSignals::install();
    let faults = match fault_config(&args) {
        Ok(faults) => faults,
        Err(error) => {
            err!("error: {error}");
            return ExitCode::FAILURE;
        }
    };
    let mut config = SandboxConfig::default()
        .with_addr(SocketAddr::new(args.host, args.port))
        .with_quote_ttl(Duration::from_secs(args.quote_ttl_secs))
        .with_webhook_timeout(Duration::from_secs(args.webhook_timeout_secs))
        .with_head_timeout(Duration::from_secs(args.head_timeout_secs))
        .with_max_connections(args.max_connections)
        .with_payout_settlement(args.payout_settlement)
        .with_faults(faults.clone());
    if args.no_default_keys {
        config = config.with_keys(Vec::new());
    }
    let mut keys = args.keys;
    if let Some(path) = &args.keys_file {
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(error) => {
                err!("error: cannot read {}: {error}", path.display());
                return ExitCode::FAILURE;
            }
        };
        match parse_keys_file(&text) {
            Ok(more) => keys.extend(more),
            Err(error) => {
                err!("error: {}: {error}", path.display());
                return ExitCode::FAILURE;
            }
        }
    }
    for key in keys {
        config = config.with_key(key);
    }
    if !args.quiet {
        config = config.with_request_log(|line| out!("{line}"));
    }
    if config.keys.is_empty() {
        err!("error: no API keys: give --key or --keys-file, or drop --no-default-keys");
        return ExitCode::FAILURE;
    }

    let sandbox = match Sandbox::start(config).await {
        Ok(sandbox) => sandbox,
        Err(error) => {
            err!("error: {error}");
            return ExitCode::FAILURE;
        }
    };
    out!("crossborder sandbox listening on {}", sandbox.base_url());
    out!("Console: {}", sandbox.console_url());
    out!("Payout settlement: {}", args.payout_settlement);
    if faults.is_active() {
        out!(
            "Faults: {} (--fault-seed {})",
            faults.profile(),
            faults.seed()
        );
    } else {
        out!("Faults: off");
    }
    out!("API keys:");
    for key in sandbox.keys() {
        out!("  {key}");
    }
    out!("Press Ctrl-C to stop.");
    started(&sandbox);

    stop.wait().await;
    out!("stopping...");
    sandbox.shutdown().await;
    ExitCode::SUCCESS
}

/// Ctrl-C (SIGINT), or SIGTERM on Unix.
struct StopSignals {
    #[cfg(unix)]
    handlers: Option<(tokio::signal::unix::Signal, tokio::signal::unix::Signal)>,
}

impl StopSignals {
    fn install() -> StopSignals {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{signal, SignalKind};
            let handlers = match (
                signal(SignalKind::interrupt()),
                signal(SignalKind::terminate()),
            ) {
                (Ok(interrupt), Ok(terminate)) => Some((interrupt, terminate)),
                _ => None,
            };
            StopSignals { handlers }
        }
        #[cfg(not(unix))]
        StopSignals {}
    }

    async fn wait(self) {
        #[cfg(unix)]
        if let Some((mut interrupt, mut terminate)) = self.handlers {
            tokio::select! {
                _ = interrupt.recv() => {}
                _ = terminate.recv() => {}
            }
            return;
        }
        let _ = tokio::signal::ctrl_c().await;
    }
}
