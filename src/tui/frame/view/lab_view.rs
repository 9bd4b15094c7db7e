//! What the frame's drawing reads: [`LabView`], the lab's screen, its file and what the app
//! lends it (the theme, progress, the key context), with the hiding rule's answer for the run
//! on screen. It sits apart from the drawing in `view/mod.rs` so that the panels drawn from
//! it (`lesson`, `params`, `predict`) import it from a sibling, and the frame's drawing, which
//! calls those panels, is imported by none of them.

use crate::content::LabFile;
use crate::learning::progress::Progress;
use crate::learning::reveal::Masked;
use crate::tui::frame::LabScreen;
use crate::tui::keys::Context;
use crate::tui::theme::Theme;

/// What a lab view draws from: the lab's screen, its file, and what the app lends it.
pub struct LabView<'a> {
    pub screen: &'a LabScreen,
    pub lab: &'a LabFile,
    /// The lab's number on the home screen, from 1.
    pub number: usize,
    pub theme: Theme,
    /// The steps done, for the lesson's ticks.
    pub progress: &'a Progress,
    /// The key context, for the footer.
    pub context: Context,
}

impl LabView<'_> {
    /// The numbers other unanswered checks ask for in the run on screen ([`Masked`], `learning::reveal`).
    pub fn masked(&self) -> Masked {
        self.screen.masked(self.lab, self.progress, &[])
    }

    /// As [`LabView::masked`], for a drawing that covers every value of `spanning` at once.
    pub fn masked_spanning(&self, spanning: &[&str]) -> Masked {
        self.screen.masked(self.lab, self.progress, spanning)
    }
}
