// The command adds presentation only: every rule and request is the SDK's.
#![doc = include_str!("../README.md")]

/// `println!` that stops quietly when stdout is closed early
/// (`crossborder banks NGN NGN | head -1`) instead of panicking.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout().lock(), $($arg)*);
    }};
}

mod application;
mod batch;
mod cli;
mod csv_batch;
mod demo;
mod demo_kyb;
mod failure;
mod input;
mod ledger;
mod listen;
mod onboard;
mod payout_file;
mod progress;
mod render;
mod sandbox_control;

use std::future::Future;
use std::process::ExitCode;
use std::time::Duration;

use clap::{CommandFactory, Parser};
use crossborder::{
    json::{check_business_json, BusinessRequestKind, BusinessVerdict},
    types::{
        CollectionRequest, PersonRole, QuoteRequest, ResolveAccountRequest, SimulateFundingRequest,
    },
    Client, WaitOptions,
};

use cli::{
    BusinessCommand, Cli, Command, Global, LedgerArgs, LedgerCommand, PayoutArgs, PayoutCommand,
    SandboxArgs, WebhookCommand,
};
use failure::Failure;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => return Failure::usage(format!("cannot start: {error}")).print(),
    };
    match runtime.block_on(run(cli)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => failure.print(),
    }
}

fn client(global: &Global) -> Result<Client, Failure> {
    let key = global.require_api_key("or try `crossborder demo`")?;
    // The API's spec names no host: say how to give one here.
    let base_url = global.require_base_url(
        "no base URL (the API's spec names no host): pass --base-url \
         https://<your API host>/v1 or set CROSSBORDER_BASE_URL \
         (for `crossborder sandbox`: http://127.0.0.1:8080/v1)",
    )?;
    Client::builder()
        .api_key(key)
        .base_url(base_url)
        .build()
        .map_err(Failure::from)
}

async fn run(cli: Cli) -> Result<(), Failure> {
    let global = cli.global;
    let output = match cli.command {
        Command::Demo => return demo::run().await,
        Command::Sandbox(SandboxArgs {
            command: Some(command),
            ..
        }) => sandbox_control::run(&global, command).await?,
        Command::Sandbox(SandboxArgs { serve, open, .. }) => {
            let code = crossborder_sandbox::serve::serve_then(serve, |sandbox| {
                if open {
                    sandbox_control::open_in_browser(&sandbox.console_url());
                }
            })
            .await;
            return if code == ExitCode::SUCCESS {
                Ok(())
            } else {
                // serve has printed why.
                Err(Failure::silent(failure::API))
            };
        }
        Command::Payout(args) => return payout(&global, args).await,
        Command::Ledger(args) => return ledger_command(&global, args).await,
        Command::Balance { currency } => {
            render::balance(&client(&global)?.wallet().balance(currency).await?)
        }
        Command::Quote {
            from,
            to,
            amount,
            rail,
        } => {
            let mut request = QuoteRequest::new(from, to, amount);
            if let Some(rail) = rail {
                request = request.rail(rail);
            }
            render::quote(&client(&global)?.quotes().get(request).await?)
        }
        Command::Collect {
            reference,
            amount,
            from,
            to,
            rate_key,
            network,
        } => {
            let mut request = CollectionRequest::new(reference, amount, from, to);
            if let Some(key) = rate_key {
                request = request.rate_key(key);
            }
            if let Some(network) = network {
                request = request.network(network);
            }
            render::transaction(&client(&global)?.collections().create(&request).await?)
        }
        Command::Transaction {
            reference,
            wait,
            timeout,
        } => {
            let client = client(&global)?;
            let collections = client.collections();
            let transaction = read_or_wait(
                wait.then(|| (timeout, format!("waiting for {reference} to settle"))),
                || collections.get(&reference),
                |options| collections.wait_until_settled(&reference, options),
            )
            .await?;
            render::transaction(&transaction)
        }
        Command::Upload { file } => {
            let bytes = std::fs::read(&file)
                .map_err(|e| Failure::usage(format!("cannot read {}: {e}", file.display())))?;
            let name = file
                .file_name()
                .map(|name| name.to_string_lossy().into_owned())
                .unwrap_or_else(|| "document".to_owned());
            let client = client(&global)?;
            let message = format!("uploading {name} ({} bytes)", bytes.len());
            let uploaded =
                progress::while_waiting(message, client.businesses().upload_document(bytes, &name))
                    .await?;
            render::uploaded(&uploaded)
        }
        Command::Completions { shell } => {
            // Into a buffer first: clap_complete panics on a closed stdout.
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "crossborder", &mut script);
            say!("{}", String::from_utf8_lossy(&script).trim_end());
            return Ok(());
        }
        Command::Business {
            command: BusinessCommand::Validate { file, update },
        } => return business_validate(&global, &file, update),
        Command::Business {
            command:
                BusinessCommand::Status {
                    business_id,
                    wait,
                    timeout,
                },
        } => {
            let client = client(&global)?;
            let businesses = client.businesses();
            let business = read_or_wait(
                wait.then(|| (timeout, format!("waiting for a decision on {business_id}"))),
                || businesses.get(&business_id),
                |options| businesses.wait_for_decision(&business_id, options),
            )
            .await?;
            render::business(&business)
        }
        Command::Business {
            command: BusinessCommand::Onboard { file, resume },
        } => return onboard::run(|| client(&global), &file, resume.as_deref(), global.json).await,
        Command::Business {
            command: BusinessCommand::Create { file },
        } => {
            let body = input::read_json(&file)?;
            render::business(&client(&global)?.businesses().create_json(&body).await?)
        }
        Command::Business {
            command: BusinessCommand::AddDirector { business_id, file },
        } => add_person(&global, &business_id, &file, PersonRole::Director).await?,
        Command::Business {
            command: BusinessCommand::AddUbo { business_id, file },
        } => add_person(&global, &business_id, &file, PersonRole::Ubo).await?,
        Command::Business {
            command: BusinessCommand::Update { business_id, file },
        } => {
            let body = input::read_json(&file)?;
            let update = client(&global)?
                .businesses()
                .update_json(&business_id, &body)
                .await?;
            let mut output = render::business(&update.business);
            output
                .rows
                .push(("under review".to_owned(), update.under_review.join(", ")));
            if let serde_json::Value::Object(object) = &mut output.json {
                object.insert(
                    "underReview".to_owned(),
                    serde_json::json!(update.under_review),
                );
            }
            output
        }
        Command::Banks { from, to } => {
            render::banks(&client(&global)?.banks().list(from, to).await?)
        }
        Command::ResolveBank {
            account_number,
            bank_code,
            from,
            to,
        } => render::resolved(
            &client(&global)?
                .banks()
                .resolve(&ResolveAccountRequest::new(
                    account_number,
                    bank_code,
                    from,
                    to,
                ))
                .await?,
        ),
        Command::Webhook {
            command: WebhookCommand::Set { url },
        } => render::acknowledgement(&client(&global)?.webhooks().set_url(&url).await?),
        Command::Webhook {
            command:
                WebhookCommand::Listen {
                    port,
                    forward_to,
                    forward_timeout,
                },
        } => {
            let forward = forward_to.map(|url| (url, Duration::from_secs(forward_timeout)));
            return listen::run(client(&global)?, port, forward).await;
        }
        Command::SimulateFunding {
            currency,
            amount,
            narration,
            session_id,
        } => render::acknowledgement(
            &client(&global)?
                .sandbox()
                .simulate_funding(&SimulateFundingRequest::new(
                    currency, amount, narration, session_id,
                ))
                .await?,
        ),
    };
    output.print(global.json);
    Ok(())
}

/// One read, or with `--wait` (`wait` holds its `--timeout` in seconds and
/// the spinner's message) the polling one until done.
async fn read_or_wait<T, R, W>(
    wait: Option<(u64, String)>,
    read: impl FnOnce() -> R,
    poll: impl FnOnce(WaitOptions) -> W,
) -> crossborder::Result<T>
where
    R: Future<Output = crossborder::Result<T>>,
    W: Future<Output = crossborder::Result<T>>,
{
    match wait {
        Some((timeout, message)) => {
            let options = WaitOptions::default().timeout(Duration::from_secs(timeout));
            progress::while_waiting(message, poll(options)).await
        }
        None => read().await,
    }
}

async fn payout(global: &Global, args: PayoutArgs) -> Result<(), Failure> {
    if let Some(PayoutCommand::Status { session_id }) = args.command {
        let state = client(global)?.payouts().get(&session_id).await?;
        render::transaction(&state).print(global.json);
        return Ok(());
    }
    let Some(path) = args.body else {
        return Err(Failure::usage(
            "give the payout as --body FILE (the API's JSON body; `-` reads stdin)",
        ));
    };
    let json = if csv_batch::wanted(&path, args.csv) {
        csv_batch::read(&path)?
    } else {
        input::read_json(&path)?
    };
    let (batch, bodies) = batch::elements(&json);
    if args.dry_run {
        let verdicts = payout_file::verdicts(&bodies);
        if global.json {
            say!(
                "{}",
                render::pretty(&payout_file::verdict_json(batch, &verdicts))
            );
        } else {
            for line in payout_file::verdict_lines(batch, &verdicts) {
                say!("{line}");
            }
        }
        return if verdicts.iter().all(|v| v.valid) {
            Ok(())
        } else {
            Err(Failure::silent(failure::USAGE))
        };
    }
    if let Some(url) = &args.ledger {
        let client = || client(global);
        let how = ledger::How {
            wait: args.wait,
            give_up: Duration::from_secs(args.give_up_after),
        };
        let guard = args.worst_rate.map(|rate| {
            let wait = Duration::from_secs(args.rate_wait);
            crossborder_ledger::RateGuard::new(rate, std::time::SystemTime::now() + wait)
        });
        return ledger::pay(client, &path, &json, url, how, global.json, guard).await;
    }
    let requests = match payout_file::requests(&bodies) {
        Ok(requests) => requests,
        Err(verdicts) => {
            let mut failure = Failure::usage("invalid payout; nothing was sent");
            failure
                .lines
                .extend(payout_file::verdict_lines(batch, &verdicts));
            return Err(failure);
        }
    };
    let client = client(global)?;
    let mut sent = payout_file::Sent::new(batch, &requests);
    for request in &requests {
        match client.payouts().create(request).await {
            Ok(receipt) => sent.receipts.push(receipt),
            Err(error) => {
                // Earlier elements were sent: their receipts are printed
                // before the failure, and the rest is said not to be sent.
                let failure = sent.stopped(&error);
                sent.print(global.json, Some(&error));
                return Err(failure);
            }
        }
    }
    sent.print(global.json, None);
    Ok(())
}

async fn ledger_command(global: &Global, args: LedgerArgs) -> Result<(), Failure> {
    let url = args.ledger.as_deref();
    match args.command {
        LedgerCommand::List => ledger::list(url, global.json).await,
        LedgerCommand::Show { session_id } => ledger::show(url, &session_id, global.json).await,
        LedgerCommand::Resume {
            wait,
            give_up_after,
        } => {
            let how = ledger::How {
                wait,
                give_up: Duration::from_secs(give_up_after),
            };
            ledger::resume(|| client(global), url, how, global.json).await
        }
        LedgerCommand::Backup { destination } => ledger::backup(url, &destination).await,
    }
}

fn business_validate(global: &Global, file: &std::path::Path, update: bool) -> Result<(), Failure> {
    let kind = if update {
        BusinessRequestKind::Update
    } else {
        BusinessRequestKind::Create
    };
    let json = input::read_json(file)?;
    let (batch, bodies) = batch::elements(&json);
    let verdicts: Vec<BusinessVerdict> = bodies
        .into_iter()
        .map(|body| check_business_json(body, kind))
        .collect();
    let valid = verdicts.iter().all(|v| v.valid);
    if global.json {
        say!(
            "{}",
            render::pretty(&batch::verdicts_json(batch, &verdicts, valid))
        );
    } else {
        for (index, verdict) in verdicts.iter().enumerate() {
            let prefix = batch::prefix(batch, index);
            say!(
                "{prefix}{}",
                if verdict.valid { "valid" } else { "invalid" }
            );
            for v in &verdict.violations {
                say!("{prefix}  {}: {}", v.field, v.message);
            }
            // What the user wrote, the type it names and the key sent
            // (ASSUMPTIONS B10, D42).
            for mapping in &verdict.document_keys {
                let given = &mapping.given;
                match (&mapping.document_type, &mapping.sent) {
                    (Some(kind), Some(sent)) => {
                        say!("{prefix}  document {given:?} -> {kind}, sent as {sent:?}")
                    }
                    _ => say!("{prefix}  document {given:?} -> unrecognized, not sent"),
                }
            }
        }
    }
    if valid {
        Ok(())
    } else {
        Err(Failure::silent(failure::USAGE))
    }
}

async fn add_person(
    global: &Global,
    business_id: &str,
    file: &std::path::Path,
    role: PersonRole,
) -> Result<render::Output, Failure> {
    let body = input::read_json(file)?;
    let client = client(global)?;
    let businesses = client.businesses();
    let person = if role == PersonRole::Director {
        businesses.add_director_json(business_id, &body).await?
    } else {
        businesses.add_ubo_json(business_id, &body).await?
    };
    Ok(render::person(&person))
}
