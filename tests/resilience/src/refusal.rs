//! The one fault the sandbox cannot make itself: a connection refused.
//!
//! A server that is running cannot refuse a connection (its listener
//! accepts before any code of its own runs), so a refusal is made here, by
//! a TCP forwarder between the SDK and the sandbox whose listener
//! [`RefusingProxy::refuse_for`] closes for a while: connecting fails as it
//! does when nothing listens, and the SDK knows the request was never
//! sent. Every other fault of the resilience suites is the sandbox's own
//! (`crossborder_sandbox::faults`), listed by its control API.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinSet;

/// How long the forwarder waits, once it has closed its listener and its
/// connections, before it says so: time for the client to notice that
/// its idle connections are gone, so that its next request connects anew.
const SETTLE: Duration = Duration::from_millis(20);

enum Control {
    Refuse {
        window: Duration,
        closed: oneshot::Sender<()>,
        reopened: oneshot::Sender<()>,
    },
}

/// The forwarder, listening on a free port of 127.0.0.1.
pub struct RefusingProxy {
    base_url: String,
    control: mpsc::Sender<Control>,
    refusals: Arc<AtomicUsize>,
    task: tokio::task::JoinHandle<()>,
}

/// A refusal under way: the listener is closed, and reopens after its
/// window.
pub struct Refusal {
    reopened: oneshot::Receiver<()>,
}

impl Refusal {
    /// Waits until the forwarder listens again.
    ///
    /// # Panics
    ///
    /// When the forwarder could not listen on its port again.
    pub async fn reopened(self) {
        self.reopened
            .await
            .expect("the forwarder listens on its port again after a refusal");
    }
}

impl RefusingProxy {
    /// Starts a forwarder to the sandbox at `upstream`.
    ///
    /// # Panics
    ///
    /// When no loopback port is free.
    pub async fn start(upstream: SocketAddr) -> RefusingProxy {
        let (listener, addr) =
            crossborder_testkit::loopback_listener("the refusing forwarder").await;
        let refusals = Arc::new(AtomicUsize::new(0));
        let (control, commands) = mpsc::channel(1);
        let task = tokio::spawn(serve(listener, upstream, refusals.clone(), commands));
        RefusingProxy {
            base_url: format!("http://{addr}/v1"),
            control,
            refusals,
            task,
        }
    }

    /// `http://127.0.0.1:PORT/v1`.
    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    /// Closes the listener and every open connection for `window`;
    /// returns once they are closed.
    ///
    /// # Panics
    ///
    /// When the forwarder's task has stopped.
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
            .expect("the forwarder is running");
        is_closed.await.expect("the forwarder closes its listener");
        Refusal {
            reopened: is_reopened,
        }
    }

    /// How many times the listener was closed.
    pub fn refusals(&self) -> usize {
        self.refusals.load(Ordering::SeqCst)
    }
}

impl Drop for RefusingProxy {
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
    refusals: Arc<AtomicUsize>,
    mut commands: mpsc::Receiver<Control>,
) {
    let Ok(addr) = listener.local_addr() else {
        return;
    };
    let mut connections = JoinSet::new();
    loop {
        let event = tokio::select! {
            accepted = listener.accept() => Event::Accepted(accepted.map(|(stream, _)| stream)),
            command = commands.recv() => Event::Control(command),
        };
        while connections.try_join_next().is_some() {}
        match event {
            Event::Accepted(Ok(stream)) => {
                connections.spawn(forward(stream, upstream));
            }
            Event::Accepted(Err(_)) => {}
            Event::Control(Some(Control::Refuse {
                window,
                closed,
                reopened,
            })) => {
                drop(listener);
                connections.abort_all();
                refusals.fetch_add(1, Ordering::SeqCst);
                tokio::time::sleep(SETTLE).await;
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

/// Passes bytes both ways until either side closes: the sandbox's own
/// faults (a closed connection, a held answer) reach the client as made.
async fn forward(mut client: TcpStream, upstream: SocketAddr) {
    if let Ok(mut sandbox) = TcpStream::connect(upstream).await {
        let _ = tokio::io::copy_bidirectional(&mut client, &mut sandbox).await;
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
