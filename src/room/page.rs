//! The participants' web page: the open check's question, a number field and a submit
//! button, as one small HTML document with its style inline.
//!
//! It has no script and no external asset: the submit is a plain form POST (then a
//! redirect back, so a reload does not send it again), and a page waiting for the next
//! question reloads itself with `<meta http-equiv="refresh">`. It works offline on a LAN
//! and on any phone. Every name, prompt and message is escaped ([`rules::escape_html`]).
//! Nothing of the measured value appears before the host reveals the check, and no page
//! shows another participant's answer.

use crate::room::rules::{self, escape_html, percent_encode};
use crate::room::state::Room;

/// Seconds between reloads of a page that waits for the next question or the reveal.
pub const REFRESH_S: u32 = 4;

/// Style for a phone first: one column, large type and touch targets, light and dark.
const STYLE: &str = "body{font-family:system-ui,sans-serif;max-width:34rem;margin:0 auto;padding:1rem;\
font-size:1.15rem;line-height:1.45}h1{font-size:1.3rem}input,button{font-size:1.2rem;padding:.6rem;\
width:100%;box-sizing:border-box;margin:.3rem 0}button{font-weight:bold}.note{color:#555}\
.err{color:#b00;font-weight:bold}@media(prefers-color-scheme:dark){body{background:#111;color:#eee}\
.note{color:#aaa}.err{color:#f77}}";

/// Who is looking at the page: their name and the code they typed, both as sent.
pub struct Visitor<'a> {
    pub name: &'a str,
    pub code: &'a str,
}

fn document(title: &str, refresh: bool, body: &str) -> String {
    let refresh = if refresh {
        format!("<meta http-equiv=\"refresh\" content=\"{REFRESH_S}\">")
    } else {
        String::new()
    };
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">{refresh}\
<title>{}</title><style>{STYLE}</style></head><body>\n{body}\n</body></html>\n",
        escape_html(title)
    )
}

/// The join form: a name and the room code, sent as a GET back to `/`.
pub fn join_page(error: Option<&str>) -> String {
    let error = error
        .map(|e| format!("<p class=\"err\">{}</p>", escape_html(e)))
        .unwrap_or_default();
    document(
        "Join the room",
        false,
        &format!(
            "<h1>Join the room</h1>{error}<form method=\"get\" action=\"/\">\
<label for=\"name\">Your name</label><input id=\"name\" name=\"name\" maxlength=\"{}\" required autocomplete=\"nickname\">\
<label for=\"code\">Room code (on the projector)</label><input id=\"code\" name=\"code\" maxlength=\"12\" required \
autocapitalize=\"characters\" autocomplete=\"off\"><button type=\"submit\">Join</button></form>",
            rules::NAME_MAX_CHARS
        ),
    )
}

/// The page for a participant of `room`: waiting, the open question, their answer, or the
/// reveal. `error` is a refused answer's line; `change` shows the form again after an answer.
pub fn room_page(room: &Room, visitor: &Visitor, error: Option<&str>, change: bool) -> String {
    let name = rules::clean_name(visitor.name).unwrap_or_default();
    let here = format!(
        "/?name={}&amp;code={}",
        escape_html(&percent_encode(&name)),
        escape_html(&percent_encode(visitor.code.trim()))
    );
    let header = format!(
        "<p class=\"note\">Room {} &middot; you are <b>{}</b></p>",
        escape_html(&room.code),
        escape_html(&name)
    );
    let error_line = error
        .map(|e| format!("<p class=\"err\">{}</p>", escape_html(e)))
        .unwrap_or_default();
    let Some(open) = room.open_check() else {
        return document(
            "Waiting",
            true,
            &format!("{header}<h1>Waiting for the next question</h1><p>It appears here by itself.</p>"),
        );
    };
    let check = &open.check;
    let unit = check.unit.as_deref().filter(|u| !u.trim().is_empty());
    let prompt = format!("<h1>{}</h1>", escape_html(&check.prompt));
    let mine = room
        .answers(&check.id)
        .into_iter()
        .find(|(who, _)| *who == name)
        .map(|(_, value)| value);
    let with_unit =
        |value: f64| crate::words::with_unit(&crate::learning::quiz::trim_number(value), unit.unwrap_or_default());
    if let Some(reveal) = room.reveal_of(&check.id) {
        let measured = reveal.value.map_or_else(|| "no value".to_string(), with_unit);
        let share = (100 * reveal.within).checked_div(reveal.answers).unwrap_or(0);
        let yours = mine.map_or_else(
            || "You did not answer.".to_string(),
            |value| format!("Your answer: {}.", escape_html(&with_unit(value))),
        );
        return document(
            "Revealed",
            true,
            &format!(
                "{header}{prompt}<p>The run measured <b>{}</b> (right within {}).</p><p>{yours}</p>\
<p>{} of {} in the room ({share}%) were within.</p><p class=\"note\">The next question appears here by itself.</p>",
                escape_html(&measured),
                escape_html(&crate::learning::quiz::trim_number(reveal.tolerance)),
                reveal.within,
                reveal.answers
            ),
        );
    }
    if let (Some(value), false) = (mine, change) {
        return document(
            "Answer sent",
            true,
            &format!(
                "{header}{prompt}{error_line}<p>Your answer: <b>{}</b>. It counts until the reveal.</p>\
<p><a href=\"{here}&amp;change=1\">Change my answer</a></p>",
                escape_html(&with_unit(value))
            ),
        );
    }
    let unit_label = unit.map(|u| format!(" (in {})", escape_html(u))).unwrap_or_default();
    document(
        "Your prediction",
        false,
        &format!(
            "{header}{prompt}{error_line}<form method=\"post\" action=\"/answer\">\
<input type=\"hidden\" name=\"name\" value=\"{}\"><input type=\"hidden\" name=\"code\" value=\"{}\">\
<input type=\"hidden\" name=\"check\" value=\"{}\">\
<label for=\"value\">Your prediction{unit_label}</label>\
<input id=\"value\" name=\"value\" inputmode=\"decimal\" maxlength=\"{}\" required autocomplete=\"off\" autofocus>\
<button type=\"submit\">Send</button></form>",
            escape_html(&name),
            escape_html(visitor.code.trim()),
            escape_html(&check.id),
            rules::ANSWER_MAX_CHARS
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::Content;

    #[test]
    fn names_are_escaped_and_the_value_stays_hidden_until_the_reveal() {
        let content = Content::load(None).expect("the built-in labs load");
        let mut room = Room::new(&content, None).expect("a room");
        let code = room.code.clone();
        let visitor = Visitor {
            name: "<script>x</script>",
            code: &code,
        };
        let waiting = room_page(&room, &visitor, None, false);
        assert!(waiting.contains("&lt;script&gt;x&lt;/script&gt;") && !waiting.contains("<script>"));
        assert!(waiting.contains("http-equiv=\"refresh\""));
        let check = "retry-predict-layered";
        room.open(check, 0).expect("open");
        let asking = room_page(&room, &visitor, None, false);
        assert!(asking.contains("method=\"post\" action=\"/answer\"") && !asking.contains("refresh"));
        // The room's code is random and may hold the digits (a code "64ZACD" failed CI once).
        let asking = asking.replace(&code, "ROOM");
        assert!(!asking.contains("64"), "the measured value must not leak: {asking}");
        room.answer(&code, visitor.name, check, "60", 0).expect("taken");
        room.answer(&code, "bob", check, "8", 0).expect("taken");
        let answered = room_page(&room, &visitor, None, false).replace(&code, "ROOM");
        assert!(answered.contains("<b>60 attempts</b>") && !answered.contains("64") && !answered.contains(">8"));
        room.reveal(1).expect("open");
        let revealed = room_page(&room, &visitor, None, false);
        assert!(revealed.contains("<b>64 attempts</b>"), "{revealed}");
        assert!(revealed.contains("0 of 2 in the room"), "{revealed}");
    }
}
