//! When a quiz question comes back: a Leitner schedule kept per question in progress.
//!
//! Each question sits in a box. A right answer given when the question was due moves it up
//! one box and sets the day it is due again, further off the higher the box
//! ([`INTERVALS_DAYS`]); a miss puts it back in box 0, due the same day. A right answer given
//! before the question was due (asked again in the same sitting, say) moves nothing: three
//! right answers in one sitting are recall from a minute ago, not learning, so they do not
//! make a question learned. A question in [`LEARNED_BOX`] is learned and comes back only
//! after the longest interval.
//!
//! Days are whole UTC days since the Unix epoch, so a schedule written on one machine reads the
//! same on another; the clock is read once per answer, by [`today_utc_day`], and everything
//! else takes the day as a number so that tests can walk the calendar.

use std::time::{SystemTime, UNIX_EPOCH};

/// Days until a question in box `n` is due again, for `n` from 0 to [`LEARNED_BOX`]: a miss
/// (box 0) is due the same day, then one day, three, a week, and three weeks once learned.
pub const INTERVALS_DAYS: [u32; 5] = [0, 1, 3, 7, 21];

/// The box of a learned question: reached only by right answers on four separate due days
/// (day 0, then at least 1, 3 and 7 days apart).
pub const LEARNED_BOX: u32 = 4;

/// Where one question stands in the schedule.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Slot {
    pub box_level: u32,
    /// The first day it is due again (0: due now).
    pub due_day: u32,
}

impl Slot {
    /// Whether the question is due on `today`.
    pub fn is_due(self, today: u32) -> bool {
        self.due_day <= today
    }

    /// The slot after an answer on `today`.
    pub fn after_answer(self, right: bool, today: u32) -> Slot {
        if !right {
            return Slot {
                box_level: 0,
                due_day: today,
            };
        }
        if !self.is_due(today) {
            // Asked again before it was due: no credit, and the due day stands.
            return self;
        }
        let box_level = (self.box_level + 1).min(LEARNED_BOX);
        Slot {
            box_level,
            due_day: today + INTERVALS_DAYS[box_level as usize],
        }
    }
}

/// Today, as whole UTC days since the Unix epoch.
pub fn today_utc_day() -> u32 {
    let seconds = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    u32::try_from(seconds / 86_400).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_miss_comes_back_the_same_day_and_right_answers_space_out() {
        let day = 20_000;
        let missed = Slot::default().after_answer(false, day);
        assert_eq!(
            missed,
            Slot {
                box_level: 0,
                due_day: day
            }
        );
        assert!(missed.is_due(day), "a miss is due again today");
        let once = missed.after_answer(true, day);
        assert_eq!(
            once,
            Slot {
                box_level: 1,
                due_day: day + 1
            }
        );
        let twice = once.after_answer(true, day + 1);
        assert_eq!(
            twice,
            Slot {
                box_level: 2,
                due_day: day + 4
            }
        );
        let thrice = twice.after_answer(true, day + 4);
        assert_eq!(
            thrice,
            Slot {
                box_level: 3,
                due_day: day + 11
            }
        );
        let learned = thrice.after_answer(true, day + 11);
        assert_eq!(
            learned,
            Slot {
                box_level: LEARNED_BOX,
                due_day: day + 32
            }
        );
        assert_eq!(
            learned.after_answer(true, day + 32).box_level,
            LEARNED_BOX,
            "learned stays learned"
        );
        assert_eq!(
            learned.after_answer(false, day + 40),
            Slot {
                box_level: 0,
                due_day: day + 40
            }
        );
    }

    #[test]
    fn right_answers_in_one_sitting_do_not_learn_a_question() {
        let day = 20_000;
        let mut slot = Slot::default();
        for _ in 0..10 {
            slot = slot.after_answer(true, day);
        }
        assert_eq!(
            slot,
            Slot {
                box_level: 1,
                due_day: day + 1
            }
        );
        assert!(!slot.is_due(day));
    }

    #[test]
    fn today_is_a_plausible_day() {
        // 2024-01-01 is day 19,723; the clock of any machine running this is past it.
        assert!(today_utc_day() > 19_723);
    }
}
