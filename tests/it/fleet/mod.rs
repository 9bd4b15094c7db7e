//! Lab 1's fleet view: its checks, its drawing alone and through the app, the scenario slider,
//! the probe-timeout rule, a live run's samples on screen.

mod app;
mod checks;
mod live_view;
mod probe_timeout;
mod scenario;
mod view;
