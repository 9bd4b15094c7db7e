//! Whole screens as snapshots at 100x30 and 80x24, and a lab page's first visit.

mod budget;
mod first_visit;
mod lab1_live;
mod live_port;
mod whole;
