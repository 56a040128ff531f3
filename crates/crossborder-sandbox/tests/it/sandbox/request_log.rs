//! The request log: one line per answered request, the key masked.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crossborder_sandbox::{RequestLine, Sandbox, SandboxConfig};

#[tokio::test]
async fn every_request_is_logged_once_with_its_key_masked() {
    let lines: Arc<Mutex<Vec<RequestLine>>> = Arc::default();
    let sink = lines.clone();
    let sandbox = Sandbox::start(
        SandboxConfig::default()
            .with_request_log(move |line| sink.lock().unwrap().push(line.clone())),
    )
    .await
    .unwrap();
    let http = reqwest::Client::new();
    let balance = format!("{}/api/balance/NGN", sandbox.base_url());
    let ok = http
        .get(&balance)
        .header("x-api-key", "test_sandbox_key")
        .send()
        .await
        .unwrap();
    assert_eq!(ok.status(), 200);
    let missing = http.get(&balance).send().await.unwrap();
    assert_eq!(missing.status(), 403);
    let unknown = http
        .post(format!("{}/api/nowhere?x=1", sandbox.base_url()))
        .header("x-api-key", "live_sk_5c3a9e2f7d1b40a8")
        .send()
        .await
        .unwrap();
    assert_eq!(unknown.status(), 404);
    sandbox.shutdown().await;

    let lines = lines.lock().unwrap().clone();
    let summary: Vec<(String, String, u16, Option<String>)> = lines
        .iter()
        .map(|l| (l.method.clone(), l.path.clone(), l.status, l.key.clone()))
        .collect();
    assert_eq!(
        summary,
        [
            (
                "GET".into(),
                "/v1/api/balance/NGN".into(),
                200,
                Some("test_…_key".into())
            ),
            ("GET".into(), "/v1/api/balance/NGN".into(), 403, None),
            (
                "POST".into(),
                "/v1/api/nowhere".into(),
                404,
                Some("live_…40a8".into())
            ),
        ]
    );
    let shown = lines[0].to_string();
    assert!(shown.starts_with("GET /v1/api/balance/NGN 200 "), "{shown}");
    assert!(shown.ends_with("ms key=test_…_key"), "{shown}");
    assert!(lines[1].to_string().ends_with("ms key=-"));
    for line in &lines {
        let shown = line.to_string();
        assert!(!shown.contains("test_sandbox_key") && !shown.contains("live_sk_5c3a9e2f7d1b40a8"));
    }
}

#[test]
fn the_binary_prints_a_line_per_request_unless_quiet() {
    for quiet in [false, true] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_crossborder-sandbox"))
            .args(["--port", "0"])
            .args(quiet.then_some("--quiet"))
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let mut first = String::new();
        stdout.read_line(&mut first).unwrap();
        let base_url = first.trim().rsplit(' ').next().unwrap().to_owned();
        assert!(base_url.starts_with("http://127.0.0.1:"), "{first}");
        let status = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async {
                reqwest::Client::new()
                    .get(format!("{base_url}/api/balance/NGN"))
                    .header("x-api-key", "test_sandbox_key")
                    .timeout(Duration::from_secs(10))
                    .send()
                    .await
                    .unwrap()
                    .status()
            })
        })
        .join()
        .unwrap();
        assert_eq!(status, 200);
        let _ = child.kill();
        let _ = child.wait();
        let rest: Vec<String> = stdout.lines().map_while(Result::ok).collect();
        let logged: Vec<&String> = rest.iter().filter(|l| l.starts_with("GET ")).collect();
        if quiet {
            assert!(logged.is_empty(), "{rest:?}");
        } else {
            assert_eq!(logged.len(), 1, "{rest:?}");
            assert!(
                logged[0].starts_with("GET /v1/api/balance/NGN 200 "),
                "{rest:?}"
            );
            assert!(logged[0].ends_with("ms key=test_…_key"), "{rest:?}");
        }
    }
}
