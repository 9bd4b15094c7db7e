//! A joined app's link to a room (`--join URL CODE --name NICK`): every prediction the
//! learner makes in a lab is also sent to the room, in the background. The app never waits
//! for the host: an answer the host did not receive stays queued, the app says it was not
//! sent, and it is sent again every few seconds until the host is back.

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::mpsc;

use crate::live::room_server::{self, Sent};

/// Answers kept for resending at most; older ones give way (the last per check counts).
const QUEUE_MAX: usize = 100;
/// Seconds between resends while the host is unreachable.
const RESEND_S: u64 = 3;

/// The app's side of the link.
pub struct RoomLink {
    tx: mpsc::UnboundedSender<(String, String)>,
    /// The last thing to say about the room (sent, not sent, refused).
    pub status: Arc<Mutex<Option<String>>>,
}

impl RoomLink {
    /// Starts the sender on the current tokio runtime.
    pub fn spawn(addr: SocketAddr, code: String, name: String) -> RoomLink {
        let (tx, mut rx) = mpsc::unbounded_channel::<(String, String)>();
        let status = Arc::new(Mutex::new(None));
        let said = status.clone();
        tokio::spawn(async move {
            let mut queue: VecDeque<(String, String)> = VecDeque::new();
            loop {
                if queue.is_empty() {
                    match rx.recv().await {
                        Some(answer) => queue.push_back(answer),
                        None => return,
                    }
                }
                while let Ok(answer) = rx.try_recv() {
                    queue.push_back(answer);
                }
                while queue.len() > QUEUE_MAX {
                    queue.pop_front();
                }
                let Some((check, value)) = queue.front().cloned() else {
                    continue;
                };
                let form = room_server::answer_form(&code, &name, &check, &value);
                let line = match room_server::send_form(addr, "/answer", &form).await {
                    Sent::Answered { code: 200, .. } => {
                        queue.pop_front();
                        format!("room: {check} = {value} sent")
                    }
                    Sent::Answered { line, .. } => {
                        queue.pop_front();
                        format!("room: {check} not taken: {line}")
                    }
                    Sent::Unreachable(_) => {
                        let line = format!(
                            "room: {} answer(s) not sent (host unreachable); resending every {RESEND_S} s",
                            queue.len()
                        );
                        if let Ok(mut status) = said.lock() {
                            *status = Some(line);
                        }
                        tokio::time::sleep(Duration::from_secs(RESEND_S)).await;
                        continue;
                    }
                };
                if let Ok(mut status) = said.lock() {
                    *status = Some(line);
                }
            }
        });
        RoomLink { tx, status }
    }

    /// Queues a prediction of `check` for the room.
    pub fn send(&self, check: &str, value: f64) {
        let _ = self
            .tx
            .send((check.to_string(), crate::learning::quiz::trim_number(value)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::Content;
    use crate::room::SharedRoom;
    use crate::room::state::Room;

    #[tokio::test]
    async fn an_answer_waits_for_an_unreachable_host_and_arrives_when_it_is_back() {
        let content = Content::load(None).expect("the built-in labs load");
        let room: SharedRoom = Arc::new(Mutex::new(Room::new(&content, None).expect("a room")));
        let code = room.lock().expect("room").code.clone();
        // A port nothing listens on yet: take one, then free it.
        let listener = crate::live::http::bind_loopback(0).await.expect("bind");
        let addr = listener.local_addr().expect("addr");
        drop(listener);
        let link = RoomLink::spawn(addr, code, "ada".to_string());
        link.send("retry-predict-layered", 64.0);
        let said = || link.status.lock().expect("status").clone().unwrap_or_default();
        for _ in 0..100 {
            if said().contains("not sent") {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert!(said().contains("1 answer(s) not sent (host unreachable)"), "{}", said());
        let listener = crate::live::http::bind_loopback(addr.port())
            .await
            .expect("the same port again");
        let server = room_server::start(room.clone(), listener, None);
        for _ in 0..100 {
            if !room.lock().expect("room").log().is_empty() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert_eq!(
            room.lock().expect("room").answers("retry-predict-layered"),
            [("ada", 64.0)]
        );
        server.stop(Duration::from_secs(1)).await;
    }
}
