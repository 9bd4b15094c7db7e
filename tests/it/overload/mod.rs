//! Lab 4, overload: the lesson's worked numbers, the lab file, the drawing functions, the
//! bulkhead view and a recorded live run on screen.

mod bulkhead;
mod lab_file;
mod live_view;
mod numbers;
mod view;
