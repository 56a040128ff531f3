//! A fault-injecting HTTP/1.1 proxy between the SDK and the sandbox.
//!
//! Each connection carries one request: the proxy asks the sandbox to close
//! after answering (`connection: close`), and passes that on, so the SDK
//! opens a new connection for every attempt and a fault planned for "the
//! next connection" hits exactly one attempt. The test plans the faults of
//! each operation before running it ([`FaultProxy::begin`]): the first
//! connections get the planned [`Fault`]s in order, later ones pass. A
//! refusal is not a fault of a connection but of the listener:
//! [`FaultProxy::refuse_for`] closes it for a while, so that connecting
//! fails as it does when nothing listens.
//!
//! The proxy records, by operation, how many connections it accepted and
//! how many requests it passed on to the sandbox: the ground truth of
//! whether an attempt could have been applied.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::fmt;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{mpsc, oneshot};

/// What the proxy does with one connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Fault {
    /// Passes the request on and the answer back.
    Pass,
    /// Reads the request, then closes the connection without passing it on.
    DropBeforeSend,
    /// Passes the request on, reads the sandbox's answer, then closes the
    /// connection without answering.
    DropAfterSend,
    /// Passes the request on, then holds the answer until the client gives
    /// up (its timeout) and closes the connection.
    Delay,
    /// Passes the request on, then answers 502 with an HTML page: the
    /// sandbox's answer is lost.
    BadGateway,
    /// Answers 503 with an HTML page without passing the request on.
    Unavailable,
}

impl Fault {
    /// Every fault of a connection, [`Fault::Pass`] first.
    pub const ALL: [Fault; 6] = [
        Fault::Pass,
        Fault::DropBeforeSend,
        Fault::DropAfterSend,
        Fault::Delay,
        Fault::BadGateway,
        Fault::Unavailable,
    ];
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Fault::Pass => "passed",
            Fault::DropBeforeSend => "dropped before the request was passed on",
            Fault::DropAfterSend => "dropped after the request was passed on",
            Fault::Delay => "answer held past the client timeout",
            Fault::BadGateway => "502 after the request was passed on",
            Fault::Unavailable => "503 without passing the request on",
        })
    }
}

/// The longest request head the proxy reads.
const MAX_HEAD_BYTES: usize = 64 * 1024;
/// How long the proxy waits for the client or the sandbox at any step.
const STEP_TIMEOUT: Duration = Duration::from_secs(30);

/// What the proxy knows, shared by its tasks.
#[derive(Default)]
struct Shared {
    /// The operation connections are counted for.
    operation: u64,
    /// Faults for the next connections, in order.
    plan: VecDeque<Fault>,
    /// Connections handled, by fault.
    injected: BTreeMap<Fault, usize>,
    /// Times the listener was closed.
    refusals: usize,
    /// Connections accepted, by operation.
    accepted: HashMap<u64, usize>,
    /// Requests passed on to the sandbox, by operation.
    passed_on: HashMap<u64, usize>,
}

fn lock(shared: &Mutex<Shared>) -> MutexGuard<'_, Shared> {
    shared.lock().unwrap_or_else(PoisonError::into_inner)
}

enum Control {
    Refuse {
        window: Duration,
        closed: oneshot::Sender<()>,
        reopened: oneshot::Sender<()>,
    },
}

/// The proxy, listening on a free port of 127.0.0.1.
pub struct FaultProxy {
    base_url: String,
    shared: Arc<Mutex<Shared>>,
    control: mpsc::Sender<Control>,
    task: tokio::task::JoinHandle<()>,
}

/// A refusal under way: the listener is closed, and reopens after its
/// window.
pub struct Refusal {
    reopened: oneshot::Receiver<()>,
}

impl Refusal {
    /// Waits until the proxy listens again.
    ///
    /// # Panics
    ///
    /// When the proxy could not listen on its port again.
    pub async fn reopened(self) {
        self.reopened
            .await
            .expect("the proxy listens on its port again after a refusal");
    }
}

impl FaultProxy {
    /// Starts a proxy to the sandbox at `upstream`.
    ///
    /// # Panics
    ///
    /// When no loopback port is free.
    pub async fn start(upstream: SocketAddr) -> FaultProxy {
        let (listener, addr) = crossborder_testkit::loopback_listener("the fault proxy").await;
        let shared: Arc<Mutex<Shared>> = Arc::default();
        let (control, commands) = mpsc::channel(1);
        let task = tokio::spawn(serve(listener, upstream, shared.clone(), commands));
        FaultProxy {
            base_url: format!("http://{addr}/v1"),
            shared,
            control,
            task,
        }
    }

    /// `http://127.0.0.1:PORT/v1`.
    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    /// Counts the next connections for `operation`, and gives the first of
    /// them `faults`, in order (later ones pass).
    pub fn begin(&self, operation: u64, faults: impl IntoIterator<Item = Fault>) {
        let mut shared = lock(&self.shared);
        shared.operation = operation;
        shared.plan = faults.into_iter().collect();
    }

    /// Forgets the faults planned and not used.
    pub fn end(&self) {
        lock(&self.shared).plan.clear();
    }

    /// Closes the listener for `window`; returns once it is closed.
    ///
    /// # Panics
    ///
    /// When the proxy's task has stopped.
    pub async fn refuse_for(&self, window: Duration) -> Refusal {
        let (closed, is_closed) = oneshot::channel();
        let (reopened, is_reopened) = oneshot::channel();
        self.control
            .send(Control::Refuse {
                window,
                closed,
                reopened,
            })
            .await
            .expect("the proxy is running");
        is_closed.await.expect("the proxy closes its listener");
        Refusal {
            reopened: is_reopened,
        }
    }

    /// Connections of `operation` the proxy accepted.
    pub fn accepted(&self, operation: u64) -> usize {
        lock(&self.shared)
            .accepted
            .get(&operation)
            .copied()
            .unwrap_or(0)
    }

    /// Requests of `operation` the proxy passed on to the sandbox.
    pub fn passed_on(&self, operation: u64) -> usize {
        lock(&self.shared)
            .passed_on
            .get(&operation)
            .copied()
            .unwrap_or(0)
    }

    /// Connections handled so far, by fault (passed ones included).
    pub fn injected(&self) -> BTreeMap<Fault, usize> {
        lock(&self.shared).injected.clone()
    }

    /// How many times the listener was closed.
    pub fn refusals(&self) -> usize {
        lock(&self.shared).refusals
    }
}

impl Drop for FaultProxy {
    fn drop(&mut self) {
        self.task.abort();
    }
}

enum Event {
    Accepted(std::io::Result<TcpStream>),
    Control(Option<Control>),
}

async fn serve(
    mut listener: TcpListener,
    upstream: SocketAddr,
    shared: Arc<Mutex<Shared>>,
    mut commands: mpsc::Receiver<Control>,
) {
    let addr = match listener.local_addr() {
        Ok(addr) => addr,
        Err(_) => return,
    };
    loop {
        let event = tokio::select! {
            accepted = listener.accept() => Event::Accepted(accepted.map(|(stream, _)| stream)),
            command = commands.recv() => Event::Control(command),
        };
        match event {
            Event::Accepted(Ok(stream)) => {
                let (operation, fault) = {
                    let mut shared = lock(&shared);
                    let fault = shared.plan.pop_front().unwrap_or(Fault::Pass);
                    let operation = shared.operation;
                    *shared.accepted.entry(operation).or_default() += 1;
                    *shared.injected.entry(fault).or_default() += 1;
                    (operation, fault)
                };
                tokio::spawn(handle(stream, upstream, shared.clone(), operation, fault));
            }
            Event::Accepted(Err(_)) => {}
            Event::Control(Some(Control::Refuse {
                window,
                closed,
                reopened,
            })) => {
                drop(listener);
                lock(&shared).refusals += 1;
                let _ = closed.send(());
                tokio::time::sleep(window).await;
                match listen_again(addr).await {
                    Some(again) => listener = again,
                    // Dropping `reopened` tells the test why it stopped.
                    None => return,
                }
                let _ = reopened.send(());
            }
            Event::Control(None) => return,
        }
    }
}

/// Binds `addr` again after a refusal (a few tries: the port is ours, but
/// the kernel may take a moment to release it).
async fn listen_again(addr: SocketAddr) -> Option<TcpListener> {
    for _ in 0..100 {
        if let Ok(listener) = TcpListener::bind(addr).await {
            return Some(listener);
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    None
}

async fn handle(
    mut client: TcpStream,
    upstream: SocketAddr,
    shared: Arc<Mutex<Shared>>,
    operation: u64,
    fault: Fault,
) {
    let Some(request) = read_request(&mut client).await else {
        return;
    };
    match fault {
        Fault::DropBeforeSend => return,
        Fault::Unavailable => {
            let _ = client
                .write_all(&proxy_answer(503, "Service Unavailable"))
                .await;
            let _ = client.shutdown().await;
            return;
        }
        _ => {}
    }
    *lock(&shared).passed_on.entry(operation).or_default() += 1;
    let answer = tokio::time::timeout(STEP_TIMEOUT, pass_on(upstream, &request)).await;
    let answer = match answer {
        Ok(Ok(answer)) => answer,
        _ => proxy_answer(502, "Bad Gateway"),
    };
    match fault {
        Fault::Pass => {
            let _ = client.write_all(&answer).await;
            let _ = client.shutdown().await;
        }
        Fault::BadGateway => {
            let _ = client.write_all(&proxy_answer(502, "Bad Gateway")).await;
            let _ = client.shutdown().await;
        }
        Fault::Delay => {
            // Hold the answer until the client gives up and closes (its
            // timeout is far shorter than ours).
            let mut rest = [0u8; 1024];
            let _ = tokio::time::timeout(STEP_TIMEOUT, async {
                while matches!(client.read(&mut rest).await, Ok(read) if read > 0) {}
            })
            .await;
        }
        Fault::DropAfterSend | Fault::DropBeforeSend | Fault::Unavailable => {}
    }
}

/// Reads one request: its head and a `content-length` body. `None` when the
/// client closed first, the head is too long, or the body is chunked (the
/// SDK always sends a length).
async fn read_request(client: &mut TcpStream) -> Option<Vec<u8>> {
    tokio::time::timeout(STEP_TIMEOUT, async {
        let mut request = Vec::with_capacity(4096);
        let mut chunk = [0u8; 4096];
        let head_len = loop {
            if let Some(end) = find(&request, b"\r\n\r\n") {
                break end + 4;
            }
            if request.len() > MAX_HEAD_BYTES {
                return None;
            }
            let read = client.read(&mut chunk).await.ok()?;
            if read == 0 {
                return None;
            }
            request.extend_from_slice(&chunk[..read]);
        };
        let head = String::from_utf8_lossy(&request[..head_len]).into_owned();
        let body_len = body_length(&head)?;
        while request.len() < head_len + body_len {
            let read = client.read(&mut chunk).await.ok()?;
            if read == 0 {
                return None;
            }
            request.extend_from_slice(&chunk[..read]);
        }
        request.truncate(head_len + body_len);
        Some(with_connection_close(&head, &request[head_len..]))
    })
    .await
    .ok()
    .flatten()
}

/// The `content-length` of a request head (0 without one); `None` for a
/// chunked body.
fn body_length(head: &str) -> Option<usize> {
    let mut length = 0;
    for line in head.split("\r\n").skip(1) {
        let Some((name, value)) = line.split_once(':') else {
            continue;
        };
        let name = name.trim();
        if name.eq_ignore_ascii_case("transfer-encoding") {
            return None;
        }
        if name.eq_ignore_ascii_case("content-length") {
            length = value.trim().parse().ok()?;
        }
    }
    Some(length)
}

/// The request with `connection: close` in place of any `connection`
/// header, so that the sandbox closes after answering.
fn with_connection_close(head: &str, body: &[u8]) -> Vec<u8> {
    let mut lines = head.trim_end_matches("\r\n").split("\r\n");
    let mut rewritten = String::with_capacity(head.len() + 20);
    if let Some(request_line) = lines.next() {
        rewritten.push_str(request_line);
        rewritten.push_str("\r\n");
    }
    for line in lines {
        let is_connection = line
            .split_once(':')
            .is_some_and(|(name, _)| name.trim().eq_ignore_ascii_case("connection"));
        if !is_connection {
            rewritten.push_str(line);
            rewritten.push_str("\r\n");
        }
    }
    rewritten.push_str("connection: close\r\n\r\n");
    let mut request = rewritten.into_bytes();
    request.extend_from_slice(body);
    request
}

/// Sends `request` to the sandbox and reads its whole answer (the sandbox
/// closes after it).
async fn pass_on(upstream: SocketAddr, request: &[u8]) -> std::io::Result<Vec<u8>> {
    let mut sandbox = TcpStream::connect(upstream).await?;
    sandbox.write_all(request).await?;
    let mut answer = Vec::new();
    sandbox.read_to_end(&mut answer).await?;
    if answer.is_empty() {
        return Err(std::io::ErrorKind::UnexpectedEof.into());
    }
    Ok(answer)
}

/// An answer of the proxy itself: an HTML page, as gateways send them.
fn proxy_answer(status: u16, reason: &str) -> Vec<u8> {
    let body = format!("<html><body><h1>{status} {reason}</h1></body></html>");
    format!(
        "HTTP/1.1 {status} {reason}\r\ncontent-type: text/html\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|window| window == needle)
}
