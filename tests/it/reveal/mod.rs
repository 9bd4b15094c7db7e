//! No answer on screen before its check is answered: hidden panels, masked numbers in other
//! steps' runs, give-aways in the text, prompts that show every slider that moves their answer.

mod live;
mod mask;
mod no_giveaways;
mod on_screen_checks;
mod panels;
mod x_key;
