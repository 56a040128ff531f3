//! The command line: every subcommand and flag, as clap reads them.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};
use crossborder::{types::Rail, Currency, Decimal};

use crate::failure::Failure;

/// The staging sandbox key the local sandbox accepts; the default of `demo`
/// and `sandbox`, never of a command that talks to a real service.
pub use crossborder_sandbox::STAGING_KEY as SANDBOX_KEY;

/// The Cross-Border Collections and Payouts API from the terminal.
///
/// Start with `crossborder demo`: it runs a local sandbox and walks the whole
/// flow with no configuration. Every other command talks to the API at
/// --base-url with --api-key. Amounts are exact decimals. Exit codes: 0
/// success, 1 API or network error, 2 usage or validation error, 3 the
/// ledger's database cannot be opened or used, 130 interrupted (Ctrl-C).
#[derive(Debug, Parser)]
#[command(name = "crossborder", version, propagate_version = true)]
pub struct Cli {
    #[command(flatten)]
    pub global: Global,
    #[command(subcommand)]
    pub command: Command,
}

/// Options every command takes.
#[derive(Debug, Args)]
pub struct Global {
    /// API key: `test_...` (staging) or `live_...` (production). Never printed.
    #[arg(
        long,
        env = "CROSSBORDER_API_KEY",
        global = true,
        hide_env_values = true
    )]
    pub api_key: Option<String>,
    /// Base URL of the API, with its `/v1`. The API's spec names no
    /// production host, so there is no default: give your production URL
    /// (https://<host>/v1), or http://127.0.0.1:8080/v1 for
    /// `crossborder sandbox`.
    #[arg(
        long,
        env = "CROSSBORDER_BASE_URL",
        global = true,
        hide_env_values = true
    )]
    pub base_url: Option<String>,
    /// Print the response as JSON on stdout (amounts as exact decimal strings).
    #[arg(long, global = true)]
    pub json: bool,
}

impl Global {
    /// `--api-key`, or the usage failure that says how to give one; `fits`
    /// says which key this command wants.
    pub fn require_api_key(&self, fits: &str) -> Result<&str, Failure> {
        self.api_key.as_deref().ok_or_else(|| {
            Failure::usage(format!(
                "no API key: pass --api-key or set CROSSBORDER_API_KEY ({fits})"
            ))
        })
    }

    /// `--base-url`, or the usage failure `missing`, which says which URL
    /// this command wants.
    pub fn require_base_url(&self, missing: &str) -> Result<&str, Failure> {
        self.base_url
            .as_deref()
            .ok_or_else(|| Failure::usage(missing))
    }
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Wallet balance of one currency.
    Balance {
        /// Currency code, for example NGN.
        #[arg(value_parser = currency)]
        currency: Currency,
    },
    /// An exchange quote, with the rateKey to carry into a converting payout or collection.
    Quote {
        #[arg(value_parser = currency)]
        from: Currency,
        #[arg(value_parser = currency)]
        to: Currency,
        #[arg(value_parser = decimal)]
        amount: Decimal,
        /// Pin the quote to a settlement rail (ach, iban, swift, wire, pix, ethereum, bridge_wallet, nip).
        #[arg(long, value_parser = rail)]
        rail: Option<Rail>,
    },
    /// Create a collection (an inbound payment) and print its payment instructions.
    Collect {
        /// Your reference for the collection (its id).
        #[arg(long)]
        reference: String,
        #[arg(long, value_parser = decimal)]
        amount: Decimal,
        #[arg(long, value_parser = currency)]
        from: Currency,
        #[arg(long, value_parser = currency)]
        to: Currency,
        /// A quote's rateKey, when the currencies differ.
        #[arg(long)]
        rate_key: Option<String>,
        /// Crypto network, for a crypto collection.
        #[arg(long)]
        network: Option<String>,
    },
    /// The state of a collection or payout, by its reference or session id.
    Transaction {
        reference: String,
        /// Poll until it is COMPLETED, EXPIRED or FAILED (or --timeout passes).
        #[arg(long)]
        wait: bool,
        /// How long --wait polls, in seconds.
        #[arg(long, default_value_t = 300, requires = "wait")]
        timeout: u64,
    },
    /// Upload a KYB document (JPEG, PNG or PDF, at most 20 MB) and print its link.
    Upload { file: PathBuf },
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    Completions { shell: clap_complete::Shell },
    /// Banks a payout from one currency to another can be sent to.
    Banks {
        #[arg(value_parser = currency)]
        from: Currency,
        #[arg(value_parser = currency)]
        to: Currency,
    },
    /// The name on a bank account, before paying it.
    ResolveBank {
        #[arg(long)]
        account_number: String,
        #[arg(long)]
        bank_code: String,
        #[arg(long, value_parser = currency)]
        from: Currency,
        #[arg(long, value_parser = currency)]
        to: Currency,
    },
    /// Send a payout from a JSON body in the API's wire format (or check it with --dry-run).
    Payout(PayoutArgs),
    /// Business onboarding (KYB): onboard a whole application, create a
    /// business and add its people, update it, check request files, read or
    /// await its decision.
    Business {
        #[command(subcommand)]
        command: BusinessCommand,
    },
    /// Webhooks: register the URL that receives collection status updates,
    /// or receive events locally, verified, and forward them.
    Webhook {
        #[command(subcommand)]
        command: WebhookCommand,
    },
    /// Staging only: pay a collection as if the payer had transferred the money.
    SimulateFunding {
        /// The wallet to credit: the collection's toCurrency (its
        /// fromCurrency is refused for a converting collection).
        #[arg(long, value_parser = currency)]
        currency: Currency,
        /// The amount credited, in that currency.
        #[arg(long, value_parser = decimal)]
        amount: Decimal,
        /// The collection's payRefrence memo.
        #[arg(long)]
        narration: String,
        /// A unique id for this simulated transfer.
        #[arg(long)]
        session_id: String,
    },
    /// Run the local sandbox in the foreground until Ctrl-C, printing one
    /// line per request (method, path, status, milliseconds, the key masked);
    /// or, with a subcommand, act on a running sandbox as its console does.
    Sandbox(SandboxArgs),
    /// Walk the whole flow against a local sandbox, with no configuration.
    Demo,
    /// The payouts of a durable ledger (`payout --body FILE --ledger ...`):
    /// list them, show one's history, finish what is left.
    ///
    /// A payout in the ledger is in one of these states: recorded (not sent
    /// yet), sending (being sent), unknown (sent, the answer lost: it is
    /// read back before anything is sent again), accepted (the API holds
    /// it), then completed or failed (the service's final word; a failed
    /// payout is never sent again by itself), or refused (the API said no,
    /// or no quote met --worst-rate in time; never sent again). `show`
    /// prints each quote a converting payout was sent with.
    Ledger(LedgerArgs),
}

/// The durable ledger's commands and where the ledger is.
#[derive(Debug, Args)]
pub struct LedgerArgs {
    /// The ledger: a SQLite file (a path or sqlite://PATH) or a
    /// postgres:// URL.
    #[arg(
        long,
        global = true,
        env = "CROSSBORDER_LEDGER",
        value_name = "PATH_OR_URL",
        hide_env_values = true
    )]
    pub ledger: Option<String>,
    #[command(subcommand)]
    pub command: LedgerCommand,
}

#[derive(Debug, Subcommand)]
pub enum LedgerCommand {
    /// Every payout with its state, oldest first.
    List,
    /// One payout and every change of its state, with when.
    Show { session_id: String },
    /// Resolve what an interrupted run left in flight (read back first),
    /// then send every payout not sent yet.
    Resume {
        /// Also follow every accepted payout until it is COMPLETED or FAILED.
        #[arg(long)]
        wait: bool,
        /// Give up when no payout has moved on for this many seconds (the
        /// API unreachable or silent, or, with --wait, nothing settling);
        /// nothing is lost, run it again to go on.
        #[arg(long, value_name = "SECS", default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..))]
        give_up_after: u64,
    },
    /// Write a consistent copy of a SQLite ledger to a new file (safe while
    /// a run goes on). Copying the file itself is safe only while no
    /// command has it open; a PostgreSQL ledger is backed up with pg_dump.
    Backup {
        /// The new file.
        destination: std::path::PathBuf,
    },
}

#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct SandboxArgs {
    #[command(subcommand)]
    pub command: Option<SandboxCommand>,
    #[command(flatten)]
    pub serve: crossborder_sandbox::serve::ServeArgs,
    /// Open the console page in the browser once the sandbox listens.
    #[arg(long)]
    pub open: bool,
}

/// The control API of a running sandbox (at --base-url, with --api-key),
/// for scripts: each command prints the changed object.
#[derive(Debug, Subcommand)]
pub enum SandboxCommand {
    /// Pay a collection as its payer would: in full, or --amount in part
    /// (in the collection's currency). Its webhook fires.
    Fund {
        /// The collection's paymentReference.
        reference: String,
        /// The amount paid; by default what remains.
        #[arg(long, value_parser = decimal)]
        amount: Option<Decimal>,
    },
    /// Expire an open collection now (its webhook fires).
    Expire {
        /// The collection's paymentReference.
        reference: String,
    },
    /// Approve a submitted business.
    Approve { business_id: String },
    /// Reject a submitted business, with the reason the API returns.
    Reject {
        business_id: String,
        /// Why (returned as rejectionReason).
        #[arg(long)]
        reason: String,
    },
    /// Complete a pending payout.
    Settle { session_id: String },
    /// Fail a pending payout; it is refunded in full, fee included.
    Fail {
        session_id: String,
        /// Why it failed.
        #[arg(long)]
        reason: Option<String>,
    },
    /// Send a webhook delivery's event again, as a new delivery.
    Redeliver {
        /// The delivery's id (`whd_...`), from the console or its state.
        delivery_id: String,
    },
}

#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct PayoutArgs {
    #[command(subcommand)]
    pub command: Option<PayoutCommand>,
    /// The payout as the API's JSON body, from a file or `-` for stdin. A
    /// JSON array is a batch: every element is checked first (one invalid
    /// element sends nothing), then each is sent in order; if one fails, the
    /// receipts of those sent are printed and the rest is not sent.
    #[arg(long, value_name = "FILE")]
    pub body: Option<PathBuf>,
    /// Check the body with the SDK's rules and send nothing. A converting
    /// payout without rateKey is checked for everything but the quote
    /// (sent through --ledger, it is quoted just before it is sent).
    #[arg(long, requires = "body")]
    pub dry_run: bool,
    /// Read --body as CSV whatever its name (a name ending in `.csv` is
    /// read so anyway): a header row of the API's wire field names
    /// (`amount,fromCurrency,toCurrency,sessionId,...`), then one payout per
    /// row, each cell the field's text as written (an empty cell leaves the
    /// field out).
    #[arg(long, requires = "body")]
    pub csv: bool,
    /// Send the batch through a durable ledger: a SQLite file (created if
    /// missing) or a postgres:// URL. The whole file is recorded first
    /// (an element without a sessionId is given one derived from the
    /// file's content and its position, the same in any ledger), then
    /// each payout is sent once. Interrupted at any point (Ctrl-C, a kill, a
    /// power cut), the same command again sends nothing twice and finishes
    /// the rest; a file changed since it was first recorded is refused,
    /// naming the elements that differ. A refused payout does not stop the
    /// others. Any other payout the ledger still has to send is sent too.
    /// See `crossborder ledger --help`.
    #[arg(
        long,
        value_name = "PATH_OR_URL",
        requires = "body",
        conflicts_with = "dry_run"
    )]
    pub ledger: Option<String>,
    /// With --ledger: also follow every accepted payout until it is
    /// COMPLETED or FAILED.
    #[arg(long, requires = "ledger")]
    pub wait: bool,
    /// With --ledger: give up when no payout has moved on for this many
    /// seconds (the API unreachable or silent, or, with --wait, nothing
    /// settling); a line on stderr says what the run waits for after a few
    /// seconds. Nothing is lost: run the same command again to go on.
    #[arg(long, value_name = "SECS", default_value_t = 60, requires = "ledger", value_parser = clap::value_parser!(u64).range(1..))]
    pub give_up_after: u64,
    /// With --ledger: the worst exchange rate accepted (units of toCurrency
    /// per unit of fromCurrency) for the converting payouts without rateKey,
    /// which the ledger quotes just before sending. A worse quote is not
    /// used: the payout waits and is quoted again, and ends refused (reason
    /// rate_guard) once --rate-wait has passed. Running the same file again
    /// with another rate changes it for the payouts not sent yet.
    #[arg(long, value_name = "RATE", requires = "ledger", value_parser = decimal)]
    pub worst_rate: Option<Decimal>,
    /// With --worst-rate: how many seconds a payout waits for a quote at
    /// --worst-rate or better, from this run's start.
    #[arg(
        long,
        value_name = "SECONDS",
        requires = "worst_rate",
        default_value_t = 600
    )]
    pub rate_wait: u64,
}

#[derive(Debug, Subcommand)]
pub enum PayoutCommand {
    /// The state of a payout, by its session id.
    Status { session_id: String },
}

#[derive(Debug, Subcommand)]
pub enum BusinessCommand {
    /// Check a business request in the API's JSON (a file or `-`; an array
    /// checks each element) with the SDK's KYB rules, and show each document
    /// key as written, its type and the key sent. Sends nothing.
    Validate {
        file: PathBuf,
        /// Check it as an update (PATCH): every field optional.
        #[arg(long)]
        update: bool,
    },
    /// A business's verification status, and the reason when rejected.
    Status {
        business_id: String,
        /// Poll until the business is APPROVED or REJECTED (or --timeout passes).
        #[arg(long)]
        wait: bool,
        /// How long --wait polls, in seconds.
        #[arg(long, default_value_t = 300, requires = "wait")]
        timeout: u64,
    },
    /// Onboard a whole business from one application file: upload its files,
    /// create the business, add its directors and UBOs; print the business
    /// and every link.
    ///
    /// The application is JSON, each part the API's own request body:
    ///
    ///   {"business":  {the body of POST /api/business},
    ///    "directors": [{the body of POST /api/business/{id}/director}, ...],
    ///    "ubos":      [{the body of POST /api/business/{id}/ubo}, ...]}
    ///
    /// A document URL written "file:PATH" names a local file (JPEG, PNG or
    /// PDF, at most 20 MB; PATH relative to the application file): it is
    /// uploaded once and replaced by its link. Any other URL is sent as
    /// given, and so is "file:" text in a field that is not a document URL.
    ///
    /// Everything is checked before the first request, every violation at
    /// once. What is done is recorded after each step in a progress file,
    /// APPLICATION.progress.json (or the --resume file). When a step fails,
    /// the command says what was done and how to resume: with --resume FILE
    /// it goes on from there, never uploading a file twice, creating a second
    /// business or adding a person twice. While that file exists, a run
    /// without --resume refuses to start over. An onboarding that succeeds
    /// but cannot write that file still prints the business (exit 0), with
    /// a warning giving the progress as JSON.
    #[command(
        verbatim_doc_comment,
        about = "Onboard a whole business from one application file (its files, the business, its directors and UBOs), resumable"
    )]
    Onboard {
        /// The application file.
        file: PathBuf,
        /// Go on from the progress file of an earlier run.
        #[arg(long, value_name = "FILE")]
        resume: Option<PathBuf>,
    },
    /// Create a business from the API's JSON body (a file or `-`), checked first.
    Create { file: PathBuf },
    /// Add a director from the API's JSON body, checked first.
    AddDirector { business_id: String, file: PathBuf },
    /// Add a UBO from the API's JSON body, checked first.
    AddUbo { business_id: String, file: PathBuf },
    /// Update a business from the API's JSON body (only what changes); every
    /// field sent goes back to review.
    Update { business_id: String, file: PathBuf },
}

#[derive(Debug, Subcommand)]
pub enum WebhookCommand {
    /// Register (or replace) the webhook URL.
    Set { url: String },
    /// Receive events on 127.0.0.1, verify each against the API and print it
    /// with its classification, until Ctrl-C.
    Listen {
        /// Port to listen on (0 picks a free one); the route is `/webhook`.
        #[arg(long, default_value_t = 9090)]
        port: u16,
        /// Also POST each event's body, unchanged, to this URL (in the
        /// background: a slow target never holds up the next event).
        #[arg(long, value_name = "URL")]
        forward_to: Option<String>,
        /// How long one forward may take, in seconds.
        #[arg(long, default_value_t = 10, requires = "forward_to")]
        forward_timeout: u64,
    },
}

fn currency(text: &str) -> Result<Currency, String> {
    text.parse::<Currency>().map_err(|error| error.to_string())
}

fn rail(text: &str) -> Result<Rail, String> {
    text.parse::<Rail>().map_err(|error| error.to_string())
}

/// An exact decimal: digits with an optional fraction, never through f64.
fn decimal(text: &str) -> Result<Decimal, String> {
    let plain = !text.is_empty()
        && text.split_once('.').map_or(
            text.bytes().all(|b| b.is_ascii_digit()),
            |(whole, fraction)| {
                !whole.is_empty()
                    && !fraction.is_empty()
                    && whole
                        .bytes()
                        .chain(fraction.bytes())
                        .all(|b| b.is_ascii_digit())
            },
        );
    plain
        .then(|| Decimal::from_str_exact(text).ok())
        .flatten()
        .ok_or_else(|| format!("{text:?} is not a decimal amount such as 1500.50"))
}
