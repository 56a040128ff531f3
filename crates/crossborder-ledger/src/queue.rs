//! Group commit's queue: what callers want written waits here, and
//! whichever caller takes the turn next (a lock the caller holds: the
//! SQLite connection, a dispatcher's turn) writes every item queued, its
//! own among them, then answers the others. A caller whose item another
//! took and answered goes on with that answer; one whose item was taken by
//! a caller dropped before it answered writes it again, alone.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use tokio::sync::oneshot;

/// Items of type `T` waiting to be written, each answered with an `R`.
#[derive(Debug)]
pub(crate) struct Queue<T, R> {
    waiting: Mutex<Vec<Queued<T, R>>>,
    next_id: AtomicU64,
}

impl<T, R> Default for Queue<T, R> {
    fn default() -> Self {
        Queue {
            waiting: Mutex::new(Vec::new()),
            next_id: AtomicU64::new(0),
        }
    }
}

#[derive(Debug)]
struct Queued<T, R> {
    id: u64,
    item: T,
    reply: oneshot::Sender<R>,
}

/// A caller's place in the queue, to redeem with [`Queue::turn`].
#[derive(Debug)]
pub(crate) struct Ticket<R> {
    id: u64,
    answer: oneshot::Receiver<R>,
}

/// What a caller that holds the turn is to do.
#[derive(Debug)]
pub(crate) enum Turn<T, R> {
    /// Its item was written by the caller whose turn came before: this is
    /// that caller's answer.
    Answered(R),
    /// Its item was taken by a caller dropped before it answered: write it
    /// again, alone.
    Lost,
    /// Its item is still queued: write the group, then [`Group::answer`].
    Write(Group<T, R>),
}

/// The items one caller writes together.
#[derive(Debug)]
pub(crate) struct Group<T, R> {
    mine: u64,
    ids: Vec<u64>,
    items: Vec<T>,
    replies: Vec<oneshot::Sender<R>>,
}

impl<T, R> Queue<T, R> {
    /// Queues `item`; take the turn, then [`turn`](Queue::turn).
    pub(crate) fn push(&self, item: T) -> Ticket<R> {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let (reply, answer) = oneshot::channel();
        self.lock().push(Queued { id, item, reply });
        Ticket { id, answer }
    }

    /// What the caller of `ticket`, now holding the turn, is to do. A
    /// group leaves out the items whose callers gave up.
    pub(crate) fn turn(&self, ticket: Ticket<R>) -> Turn<T, R> {
        let Ticket { id, mut answer } = ticket;
        match answer.try_recv() {
            Ok(answered) => Turn::Answered(answered),
            Err(oneshot::error::TryRecvError::Closed) => Turn::Lost,
            Err(oneshot::error::TryRecvError::Empty) => {
                let mut queued = std::mem::take(&mut *self.lock());
                queued.retain(|q| q.id == id || !q.reply.is_closed());
                let mut group = Group {
                    mine: id,
                    ids: Vec::with_capacity(queued.len()),
                    items: Vec::with_capacity(queued.len()),
                    replies: Vec::with_capacity(queued.len()),
                };
                for q in queued {
                    group.ids.push(q.id);
                    group.items.push(q.item);
                    group.replies.push(q.reply);
                }
                Turn::Write(group)
            }
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Queued<T, R>>> {
        // A poisoned queue is still a list of items: no invariant spans the
        // lock.
        self.waiting.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl<T, R> Group<T, R> {
    /// The items to write, in the order [`answer`](Group::answer) takes
    /// their results.
    pub(crate) fn items(&self) -> &[T] {
        &self.items
    }

    /// Sends each other caller its result (`results` in the order of
    /// [`items`](Group::items)) and returns this caller's; `None` when
    /// `results` has none for it, to be written alone.
    pub(crate) fn answer(self, results: Vec<R>) -> Option<R> {
        let mut mine = None;
        for ((id, reply), result) in self.ids.into_iter().zip(self.replies).zip(results) {
            if id == self.mine {
                mine = Some(result);
            } else {
                // A caller gone meanwhile needs no answer.
                let _ = reply.send(result);
            }
        }
        mine
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Items queued behind a turn are written by the next caller to take
    /// it, who answers the others; an item whose writer was dropped is
    /// lost, to be written again.
    #[test]
    fn the_next_caller_writes_the_queue_and_answers_the_others() {
        let queue: Queue<&str, String> = Queue::default();
        let (a, b, c) = (queue.push("a"), queue.push("b"), queue.push("c"));
        let Turn::Write(group) = queue.turn(b) else {
            panic!("b's item was still queued");
        };
        assert_eq!(group.items(), ["a", "b", "c"]);
        let written: Vec<String> = group.items().iter().map(|i| i.to_uppercase()).collect();
        assert_eq!(group.answer(written).as_deref(), Some("B"));
        assert!(matches!(queue.turn(a), Turn::Answered(answer) if answer == "A"));
        assert!(matches!(queue.turn(c), Turn::Answered(answer) if answer == "C"));

        let (d, e) = (queue.push("d"), queue.push("e"));
        let Turn::Write(group) = queue.turn(d) else {
            panic!("d's item was still queued");
        };
        drop(group);
        assert!(matches!(queue.turn(e), Turn::Lost));
    }
}
