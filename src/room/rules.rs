//! The room's rules for what a participant may send: a room code on every write, names
//! and bodies capped and cleaned, a rate limit per participant, and the page's own Origin.
//!
//! Nothing here opens, reveals or closes a check: those controls are methods of
//! [`crate::room::state::Room`] that only the host's own process calls. The server has no
//! route for them, so no request, however well formed, can reach them.

use std::collections::HashMap;

/// Longest name kept, in characters: enough for a first name and an initial, short enough
/// for a row of the class board at 80 columns.
pub const NAME_MAX_CHARS: usize = 24;
/// Largest request body read, in bytes: a form with a name, a code, a check id and a number
/// is about 100 bytes; anything near this is not a participant's answer.
pub const BODY_MAX_BYTES: usize = 1_024;
/// Longest answer text kept, in characters (a number with its unit: `10690 ms`).
pub const ANSWER_MAX_CHARS: usize = 32;
/// Answers a participant may send in a burst, then one per [`RATE_REFILL_MS`].
pub const RATE_BURST: u32 = 5;
/// Milliseconds for one more answer to be allowed after a burst.
pub const RATE_REFILL_MS: u64 = 2_000;
/// Letters of a room code. No 0/O or 1/I/L, so a code read off a projector is typed right.
const CODE_ALPHABET: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";
/// Characters of a room code: 31^6 is about 887 million codes.
pub const CODE_CHARS: usize = 6;

/// A fresh room code from the operating system's random source.
pub fn new_code() -> String {
    (0..CODE_CHARS)
        .map(|_| char::from(CODE_ALPHABET[rand::random_range(0..CODE_ALPHABET.len())]))
        .collect()
}

/// Whether `typed` is the room's `code`, ignoring case and spaces around it. The comparison
/// looks at every character whatever it finds, so its time says nothing of a near miss.
pub fn code_matches(code: &str, typed: &str) -> bool {
    let typed = typed.trim().to_ascii_uppercase();
    if typed.len() != code.len() {
        return false;
    }
    typed.bytes().zip(code.bytes()).fold(0u8, |diff, (a, b)| diff | (a ^ b)) == 0
}

/// A name as the room keeps and shows it: control characters (and the Unicode format
/// characters that reorder text) removed, spaces collapsed, at most [`NAME_MAX_CHARS`];
/// `None` when nothing is left.
pub fn clean_name(raw: &str) -> Option<String> {
    let kept: String = raw
        .chars()
        .map(|c| if c.is_whitespace() { ' ' } else { c })
        .filter(|c| !c.is_control() && !is_format_char(*c))
        .collect();
    let collapsed: Vec<&str> = kept.split(' ').filter(|part| !part.is_empty()).collect();
    let name: String = collapsed.join(" ").chars().take(NAME_MAX_CHARS).collect();
    (!name.is_empty()).then_some(name)
}

/// Unicode's bidirectional overrides and zero-width characters: shown, they would make a
/// name on the projector read as something else.
fn is_format_char(c: char) -> bool {
    matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2069}' | '\u{FEFF}')
}

/// `text` safe inside HTML text and attribute values.
pub fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// Whether a write with these `Origin` and `Host` headers comes from the room's own page.
/// `allowed` holds the origins the room is reached at (`http://127.0.0.1:PORT`, and the LAN
/// address with `--lan`). A browser sends `Origin` with every form POST (the Fetch standard,
/// "append a request Origin header"), so a foreign page's form is refused by it; a request
/// without one is not a browser's (the `class join` client, an app), and its Host must still
/// name the room, which refuses a DNS-rebound name.
pub fn origin_allowed(origin: Option<&str>, host: Option<&str>, allowed: &[String]) -> bool {
    let host_ok = host.is_some_and(|host| allowed.iter().any(|a| a.strip_prefix("http://") == Some(host)));
    let origin_ok = origin.is_none_or(|origin| allowed.iter().any(|a| a == origin));
    host_ok && origin_ok
}

/// Answers allowed per participant: a burst of [`RATE_BURST`], refilled one per
/// [`RATE_REFILL_MS`] (a token bucket).
#[derive(Debug, Default)]
pub struct RateLimit {
    buckets: HashMap<String, (f64, u64)>,
}

impl RateLimit {
    /// Takes one answer of `who`'s allowance at `now_ms`; `Err(ms)` says how long to wait.
    pub fn take(&mut self, who: &str, now_ms: u64) -> Result<(), u64> {
        let (tokens, at_ms) = self
            .buckets
            .entry(who.to_string())
            .or_insert((f64::from(RATE_BURST), now_ms));
        let refilled = now_ms.saturating_sub(*at_ms) as f64 / RATE_REFILL_MS as f64;
        *tokens = (*tokens + refilled).min(f64::from(RATE_BURST));
        *at_ms = now_ms;
        if *tokens >= 1.0 {
            *tokens -= 1.0;
            Ok(())
        } else {
            Err(((1.0 - *tokens) * RATE_REFILL_MS as f64).ceil() as u64)
        }
    }
}

/// The fields of an `application/x-www-form-urlencoded` body or query (`+` is a space,
/// `%XX` a byte); a field given twice keeps its last value.
pub fn form_fields(encoded: &str) -> HashMap<String, String> {
    encoded
        .split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            (percent_decode(key), percent_decode(value))
        })
        .collect()
}

fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                match std::str::from_utf8(&bytes[i + 1..i + 3])
                    .ok()
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
                {
                    Some(byte) => {
                        out.push(byte);
                        i += 2;
                    }
                    None => out.push(b'%'),
                }
            }
            byte => out.push(byte),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `text` for a URL's query: what [`form_fields`] reads back.
pub fn percent_encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => out.push(char::from(byte)),
            b' ' => out.push('+'),
            _ => out.push_str(&format!("%{byte:02X}")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_six_unambiguous_letters_and_compare_without_case() {
        let code = new_code();
        assert_eq!(code.len(), CODE_CHARS);
        assert!(code.bytes().all(|b| CODE_ALPHABET.contains(&b)), "{code}");
        assert!(code_matches(&code, &format!(" {} ", code.to_ascii_lowercase())));
        assert!(!code_matches(&code, "ABCDE"));
        assert!(!code_matches("ABCDEF", "ABCDEG"));
    }

    #[test]
    fn names_lose_control_and_reordering_characters_and_are_capped() {
        assert_eq!(
            clean_name("  Ada\u{1b}[31m \t Lovelace\n").as_deref(),
            Some("Ada[31m Lovelace")
        );
        assert_eq!(clean_name("evil\u{202E}txt").as_deref(), Some("eviltxt"));
        assert_eq!(clean_name("\u{7}\u{0}  ").as_deref(), None);
        assert_eq!(
            clean_name(&"x".repeat(100)).map(|n| n.chars().count()),
            Some(NAME_MAX_CHARS)
        );
    }

    #[test]
    fn html_is_escaped() {
        assert_eq!(
            escape_html("<b a=\"1\">&'</b>"),
            "&lt;b a=&quot;1&quot;&gt;&amp;&#39;&lt;/b&gt;"
        );
    }

    #[test]
    fn only_the_rooms_own_origin_and_host_may_write() {
        let allowed = vec!["http://127.0.0.1:8000".to_string()];
        assert!(origin_allowed(
            Some("http://127.0.0.1:8000"),
            Some("127.0.0.1:8000"),
            &allowed
        ));
        assert!(
            origin_allowed(None, Some("127.0.0.1:8000"), &allowed),
            "a non-browser client"
        );
        assert!(!origin_allowed(
            Some("http://evil.example"),
            Some("127.0.0.1:8000"),
            &allowed
        ));
        assert!(!origin_allowed(Some("null"), Some("127.0.0.1:8000"), &allowed));
        assert!(
            !origin_allowed(None, Some("rebound.example:8000"), &allowed),
            "DNS rebinding"
        );
        assert!(!origin_allowed(None, None, &allowed));
    }

    #[test]
    fn a_burst_then_one_answer_per_refill() {
        let mut limit = RateLimit::default();
        for _ in 0..RATE_BURST {
            assert_eq!(limit.take("ada", 0), Ok(()));
        }
        assert_eq!(limit.take("ada", 0), Err(RATE_REFILL_MS));
        assert_eq!(limit.take("bob", 0), Ok(()), "another participant has their own");
        assert_eq!(limit.take("ada", RATE_REFILL_MS), Ok(()));
        assert!(limit.take("ada", RATE_REFILL_MS).is_err());
    }

    #[test]
    fn forms_decode_and_encode_back() {
        let fields = form_fields("name=Ada+L%C3%B6&code=AB%2BC&bad=%zz&v=%4");
        assert_eq!(fields["name"], "Ada Lö");
        assert_eq!(fields["code"], "AB+C");
        assert_eq!(fields["bad"], "%zz");
        assert_eq!(fields["v"], "%4");
        let name = "Zoë & <co> 100%";
        assert_eq!(form_fields(&format!("n={}", percent_encode(name)))["n"], name);
    }
}
