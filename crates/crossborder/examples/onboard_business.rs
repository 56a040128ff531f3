//! Onboarding a business (KYB) in one call: the whole application (the
//! business, a director, a UBO and the files their documents point at) is
//! checked before the first request, then `businesses().onboard` uploads
//! each file, creates the business and adds the people; a failure part-way
//! is resumed from the progress it returns, so nothing is done twice. The
//! example writes its own small files (minimal PDFs) to a temporary
//! directory, so it runs as written.
//!
//! ```sh
//! cargo run -p crossborder-cli -- sandbox &   # a local sandbox on 127.0.0.1:8080
//! CROSSBORDER_API_KEY=test_sandbox_key CROSSBORDER_BASE_URL=http://127.0.0.1:8080/v1 \
//!     cargo run -p crossborder --example onboard_business
//! cargo test -p crossborder --example onboard_business   # the same against an in-process sandbox
//! ```

use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crossborder::onboard::{file_url, Application, Onboarded, Progress, Step};
use crossborder::{
    types::{
        Address, Business, BusinessDetails, BusinessType, CreateBusinessRequest, DocumentLink,
        Documents, IdType, NatureOfBusiness, PersonDetails, PersonRequest, ProofOfAddress,
        ProofOfAddressType,
    },
    Client, WaitOptions,
};

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// The smallest PDF a viewer opens: one blank page.
const BLANK_PDF: &[u8] = b"%PDF-1.4\n\
1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n\
2 0 obj <</Type /Pages /Kids [3 0 R] /Count 1>> endobj\n\
3 0 obj <</Type /Page /Parent 2 0 R /MediaBox [0 0 595 842]>> endobj\n\
trailer <</Root 1 0 R>>\n%%EOF\n";

/// The files of the application: each document of the business, the proof
/// of address, and the director's passport.
const FILES: [&str; 6] = [
    "cac_document.pdf",
    "bank_statement.pdf",
    "application_letter.pdf",
    "cac_status_report.pdf",
    "utility_bill.pdf",
    "passport.pdf",
];

/// Writes the application's files into `dir` (in a real application they
/// are the scans the business gave you).
fn write_files(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    for name in FILES {
        std::fs::write(dir.join(name), BLANK_PDF)?;
    }
    Ok(())
}

fn lagos_address() -> Address {
    Address {
        house_number: "12".into(),
        street: "Admiralty Way".into(),
        city: "Lekki".into(),
        state: "Lagos".into(),
        zip_code: "106104".into(),
        subdivision: None,
    }
}

/// The whole application, its document URLs naming the files in `dir`
/// (`file_url`), which `onboard` uploads and replaces by their links.
fn application(dir: &Path, registration_number: &str) -> std::io::Result<Application> {
    let mut documents = Documents::new();
    for key in [
        "cac_document",
        "bank_statement",
        "application_letter",
        "cac_status_report",
    ] {
        let file = format!("{key}.pdf");
        documents.insert(key.into(), DocumentLink::new(file_url(&file), key));
    }
    let business = CreateBusinessRequest {
        name: "Lagos Trading Ltd".into(),
        business_type: BusinessType::Llc,
        registration_number: registration_number.into(),
        email: "compliance@lagostrading.ng".into(),
        phone_number: "+2348012345678".into(),
        nature_of_business: NatureOfBusiness {
            nature: "Wholesale of consumer electronics".into(),
            code: "4652".into(),
        },
        business_address: lagos_address(),
        proof_of_address: ProofOfAddress {
            url: file_url("utility_bill.pdf"),
            key: "utility-bill".into(),
            kind: ProofOfAddressType::UtilityBill,
        },
        documents,
        details: BusinessDetails::default(),
    };
    // One person, director and beneficial owner both (the spec allows it).
    let owner = PersonRequest {
        first_name: "Adaeze".into(),
        last_name: "Okafor".into(),
        date_of_birth: "1985-04-12".into(),
        nationality: "NG".into(),
        phone_number: "+2348031234567".into(),
        id_number: "A12345678".into(),
        id_type: IdType::CurrentPassport,
        id_document_url: file_url("passport.pdf"),
        address: lagos_address(),
        document: DocumentLink::new(file_url("utility_bill.pdf"), "owner-utility-bill"),
        details: PersonDetails::default(),
    };
    let mut files = BTreeMap::new();
    for name in FILES {
        files.insert(name.to_owned(), std::fs::read(dir.join(name))?.into());
    }
    Ok(Application {
        business: Some(business),
        directors: vec![owner.clone()],
        ubos: vec![owner],
        files,
    })
}

/// Onboards `application`, resuming after a failure (at most three
/// attempts): a retry never uploads a file twice, creates a second business
/// or adds a person twice. An invalid application is returned at once:
/// nothing was sent, and every mistake is listed.
async fn onboard(client: &Client, application: &Application) -> Result<Onboarded, BoxError> {
    let mut progress = Progress::default();
    let mut attempt = 1;
    loop {
        let result = client
            .businesses()
            .onboard(application, progress, |step, _| match step {
                Step::Uploading { name, bytes } => println!("uploading {name} ({bytes} bytes)"),
                Step::Uploaded { name, .. } => println!("uploaded {name}"),
                Step::Created { business_id } => println!("created {business_id}"),
                Step::DirectorAdded { index } => println!("director {index} added"),
                Step::UboAdded { index } => println!("UBO {index} added"),
            })
            .await;
        match result {
            Ok(onboarded) => return Ok(onboarded),
            Err(stopped) if stopped.error.violations().is_some() || attempt == 3 => {
                return Err(stopped.into())
            }
            Err(stopped) => {
                eprintln!("attempt {attempt} stopped ({}); resuming", stopped.error);
                progress = stopped.progress;
                tokio::time::sleep(Duration::from_secs(attempt)).await;
                attempt += 1;
            }
        }
    }
}

/// The whole flow: files, onboarding, and the verification decision.
async fn run(client: &Client, dir: &Path, registration_number: &str) -> Result<Business, BoxError> {
    write_files(dir)?;
    let application = application(dir, registration_number)?;
    let onboarded = onboard(client, &application).await?;
    println!(
        "business {} is {} ({} files uploaded)",
        onboarded.business.id,
        onboarded.business.status,
        onboarded.links.len()
    );
    let options = WaitOptions::default().timeout(Duration::from_secs(60));
    let decided = client
        .businesses()
        .wait_for_decision(&onboarded.business.id, options)
        .await?;
    match &decided.rejection_reason {
        Some(reason) => println!("{} is {}: {reason}", decided.id, decided.status),
        None => println!("{} is {}", decided.id, decided.status),
    }
    Ok(decided)
}

#[tokio::main]
async fn main() -> Result<(), BoxError> {
    let client = Client::from_env()?;
    let dir = std::env::temp_dir().join(format!("crossborder-onboard-{}", std::process::id()));
    // A registration number of its own, so the example can run again.
    let seconds = SystemTime::now().duration_since(UNIX_EPOCH)?.as_secs();
    let result = run(&client, &dir, &format!("RC{seconds}")).await;
    let _ = std::fs::remove_dir_all(&dir);
    result.map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossborder::{types::BusinessStatus, Error};
    use crossborder_sandbox::{Sandbox, SandboxConfig, STAGING_KEY};

    fn client_for(base_url: &str) -> Client {
        Client::builder()
            .api_key(STAGING_KEY)
            .base_url(base_url)
            .build()
            .unwrap()
    }

    fn temp_dir(name: &str) -> std::path::PathBuf {
        std::env::temp_dir().join(format!("crossborder-{name}-{}", std::process::id()))
    }

    /// The example as written, against an in-process sandbox: approved.
    #[tokio::test]
    async fn the_example_onboards_a_business_to_its_decision() {
        let sandbox = Sandbox::start(SandboxConfig::default()).await.unwrap();
        let client = client_for(sandbox.base_url());
        let dir = temp_dir("onboard-example");
        let decided = run(&client, &dir, "RC1234567").await.unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(decided.status, BusinessStatus::Approved);
        let held = sandbox.business(&decided.id).unwrap();
        assert_eq!((held.directors, held.ubos), (1, 1));
        assert_eq!(held.documents.len(), 4);
        sandbox.shutdown().await;
    }

    /// A mistake is reported before anything is sent.
    #[tokio::test]
    async fn an_invalid_application_is_refused_before_sending() {
        let sandbox = Sandbox::start(SandboxConfig::default()).await.unwrap();
        let client = client_for(sandbox.base_url());
        let dir = temp_dir("onboard-invalid");
        write_files(&dir).unwrap();
        let mut application = application(&dir, "RC7654321").unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        application.directors[0].nationality = "Nigeria".into();
        let error = onboard(&client, &application).await.unwrap_err();
        let stopped = error
            .downcast::<crossborder::onboard::OnboardingError>()
            .unwrap();
        assert!(matches!(stopped.error, Error::Validation(_)));
        assert_eq!(
            stopped.error.violations().unwrap().to_string(),
            "directors[0].nationality: must be an ISO 3166-1 alpha-2 country code, such as NG"
        );
        assert!(sandbox.businesses().is_empty());
        sandbox.shutdown().await;
    }
}
