//! What the smallest supported screen (80x24) cut before: Lab 4's throttle panel, the fleet
//! view's legends and totals, the help overlay's edge, and the book's links in a table
//! whose cells wrap. Each test reads the drawn screen as a learner would.

use crate::common::{render, visited_app, written_links};
use resilience_lab::content::book;
use resilience_lab::tui::app::App;
use resilience_lab::tui::msg::{LiveMsg, Msg};

/// The screen's rows without the quotes the renderer puts around each.
fn rows(screen: &str) -> Vec<String> {
    screen.lines().map(|line| line.trim_matches('"').to_string()).collect()
}

fn run(mut app: App, msgs: &[Msg]) -> App {
    for msg in msgs {
        app.update(*msg);
    }
    app
}

/// Lab 4 in its outcomes view (curves, then outcomes: one `v`), `msgs` after; step 1's
/// unanswered check hides the run, so `x` shows it.
fn lab4_outcomes(width: u16, height: u16, msgs: &[Msg]) -> App {
    let open = [
        Msg::Down,
        Msg::Down,
        Msg::Down,
        Msg::Open,
        Msg::Reveal,
        Msg::Live(LiveMsg::ToggleView),
    ];
    let app = run(visited_app(width, height), &open);
    run(app, msgs)
}

/// Offered load from 2,500 to 6,000/s and the policy (the fifth slider) from fifo to
/// throttle: step 7's settings.
const THROTTLE_AT_6000: [Msg; 6] = [
    Msg::Step(35),
    Msg::NextSlider,
    Msg::NextSlider,
    Msg::NextSlider,
    Msg::NextSlider,
    Msg::Step(5),
];

#[test]
fn lab4s_throttle_panel_is_whole_at_80x24_sim_and_live() {
    for live in [false, true] {
        let mode: &[Msg] = if live { &[Msg::ToggleMode] } else { &[] };
        // The throttle off (the lab's defaults): it says so and what the throttle would do, with
        // no formula of zeros (nor counts of a throttle that did not run).
        let screen = render(&lab4_outcomes(80, 24, mode));
        assert!(screen.contains("client-side throttle · off"), "live {live}:\n{screen}");
        assert!(
            screen.contains("Off: the policy is fifo, not throttle."),
            "live {live}:\n{screen}"
        );
        assert!(
            screen.contains("p = max(0, (req - K x acc) / (req + 1))"),
            "live {live}:\n{screen}"
        );
        assert!(!screen.contains("(0 - 2 x 0)"), "live {live}:\n{screen}");
        // Step 7: the probability its check asks about, the counts it comes from, what was sent.
        // Step 7's own number: revealed (`x` there), else it waits for step 7 in the sim.
        let mut app = lab4_outcomes(80, 24, &THROTTLE_AT_6000);
        app.labs[3].revealed.insert(6);
        let app = run(app, mode);
        let screen = render(&app);
        assert!(screen.contains("throttle · timeout 1000 ms"), "{screen}");
        assert!(screen.contains("= (54000 - 2 x 18000) / "), "live {live}:\n{screen}");
        assert!(screen.contains(" = 0.333"), "live {live}:\n{screen}");
        assert!(screen.contains("refused locally 72594"), "live {live}:\n{screen}");
        assert!(screen.contains("sent 107406, accepted 57976"), "live {live}:\n{screen}");
    }
}

/// Lab 1's fleet view, its run revealed (`x`: step 4's check is unanswered, its run at its
/// check's settings), `msgs` after.
fn fleet(width: u16, height: u16, msgs: &[Msg]) -> App {
    let app = run(visited_app(width, height), &[Msg::Open, Msg::NextPage, Msg::Reveal]);
    run(app, msgs)
}

#[test]
fn the_fleet_legends_and_totals_are_whole_at_80x24_and_100x30() {
    for (width, height) in [(80, 24), (100, 30)] {
        let screen = render(&fleet(width, height, &[]));
        for item in [
            "▒ starting",
            "█ ready",
            "░ unready",
            "▄ stopping",
            "· back-off",
            "db: ▁ up",
            "0-3 endpoints ready",
            "▄ slow",
            "█ down",
            "o ok",
            "d degraded",
            "x failed",
            "r refused",
        ] {
            assert!(screen.contains(item), "{item:?} at {width}x{height}:\n{screen}");
        }
        // No glyph without its word: the database's states follow their `db:`, not a `│`.
        assert!(!screen.contains("│ db"), "{width}x{height}:\n{screen}");
        // The chart's own totals row (the box above has them too): whole numbers only. The
        // run is step 4's, at its check's settings (`x` shows the run its verdict would).
        assert!(
            screen.contains("││ok 5280 degraded 340 failed 0 refused 280 "),
            "{width}x{height}:\n{screen}"
        );
    }
}

/// The help overlay's rows: from its top border (`┌ Keys`) to its bottom, between its side
/// borders.
fn overlay(screen: &str) -> Vec<String> {
    let rows = rows(screen);
    let top = rows
        .iter()
        .position(|row| row.contains("┌ Keys"))
        .expect("the overlay's top");
    let left = rows[top].chars().position(|c| c == '┌').expect("its corner");
    let width = rows[top]
        .chars()
        .skip(left)
        .position(|c| c == '┐')
        .expect("its other corner")
        + 1;
    rows[top..]
        .iter()
        .map(|row| row.chars().skip(left).take(width).collect::<String>())
        .take_while(|row| !row.starts_with('└'))
        .collect()
}

/// Every row of the help overlay, scrolled to its end, is whole: a space before the right
/// border (nothing ran into it); and at 80 columns no stray column of the screen below shows
/// beside it.
fn assert_help_whole(app: App, label: &str) {
    let mut app = run(app, &[Msg::ToggleHelp]);
    let width = app.area.width;
    for _ in 0..10 {
        let screen = render(&app);
        for row in overlay(&screen).iter().skip(1) {
            let before_border = row.chars().rev().nth(1);
            assert_eq!(
                before_border,
                Some(' '),
                "{label} at {width} columns, row {row:?}:\n{screen}"
            );
        }
        // Near the screen's width the overlay is centred whole or fills it: one column of
        // the screen below beside one border only reads as the overlay cut short.
        let top = rows(&screen)
            .into_iter()
            .find(|row| row.contains("┌ Keys"))
            .expect("top");
        let left = top.chars().position(|c| c == '┌').expect("corner");
        let right = usize::from(width) - 1 - top.chars().position(|c| c == '┐').expect("corner");
        if left + right <= 2 {
            assert_eq!(left, right, "{label} at {width} columns:\n{screen}");
        }
        // The footer's row stays the footer's: the overlay's border covered it at 80x24.
        let last = rows(&screen).last().cloned().unwrap_or_default();
        assert!(
            !last.contains('└') && !last.contains("Esc closes"),
            "{label} at {width} columns, the footer row: {last:?}"
        );
        app.update(Msg::Down);
    }
}

#[test]
fn every_help_overlay_is_whole_at_80x24_and_100x30() {
    for (width, height) in [(80, 24), (100, 30)] {
        assert_help_whole(fleet(width, height, &[]), "fleet");
        assert_help_whole(fleet(width, height, &[Msg::ToggleMode]), "fleet live");
        assert_help_whole(visited_app(width, height), "home");
        for lab in 0..5 {
            let mut open = vec![Msg::Down; lab];
            open.push(Msg::Open);
            assert_help_whole(run(visited_app(width, height), &open), &format!("lab {}", lab + 1));
            open.push(Msg::ToggleMode);
            assert_help_whole(run(visited_app(width, height), &open), &format!("lab {} live", lab + 1));
        }
        let app = visited_app(width, height);
        // Home ends with the quiz, the book and the on-call drill.
        let quiz = vec![Msg::Down; app.home_entries() - 3];
        assert_help_whole(run(app, &[quiz.as_slice(), &[Msg::Open]].concat()), "quiz");
        let app = visited_app(width, height);
        let book = vec![Msg::Down; app.home_entries() - 2];
        assert_help_whole(run(app, &[book.as_slice(), &[Msg::Open]].concat()), "book");
        let app = visited_app(width, height);
        let oncall = vec![Msg::Down; app.home_entries() - 1];
        assert_help_whole(run(app, &[oncall.as_slice(), &[Msg::Open]].concat()), "on-call");
    }
}

/// The book open on the facilitator guide.
fn guide(width: u16, height: u16) -> App {
    let app = visited_app(width, height);
    // The book is the entry above the on-call drill, the last.
    let mut msgs = vec![Msg::Down; app.home_entries() - 2];
    msgs.push(Msg::Open);
    let at = book::chapters()
        .iter()
        .position(|c| c.file == "facilitator-guide.md")
        .expect("listed");
    msgs.extend(std::iter::repeat_n(Msg::NextItem, at));
    msgs.push(Msg::Open);
    run(app, &msgs)
}

/// The guide's Markdown.
fn guide_markdown() -> &'static str {
    book::chapter("facilitator-guide.md").expect("listed").markdown
}

/// The guide's first link in a table row: its place among the guide's links (from 1) and the
/// chapter it opens, read from the guide's text.
fn guide_table_link() -> (usize, book::Chapter) {
    let mut before = 0;
    for line in guide_markdown().lines() {
        if line.trim_start().starts_with('|')
            && let Some(at) = line.find("](")
        {
            let target = &line[at + 2..];
            let file = target[..target.find(')').expect("a closed link")].split('#').next();
            let chapter = file.and_then(book::chapter).expect("a chapter's file");
            return (before + 1, chapter);
        }
        before += written_links(line);
    }
    panic!("the guide has a link in a table");
}

#[test]
fn tab_finds_every_one_of_the_guides_links_at_every_width() {
    let links = written_links(guide_markdown());
    let (table_link, table_chapter) = guide_table_link();
    // At 80 columns its table's link splits over two rows of a cell; wider, it need not.
    for width in [80, 81, 83, 86, 90, 100, 120, 160, 200] {
        let mut app = guide(width, 24);
        let mut counts = Vec::new();
        for _ in 0..=links {
            app.update(Msg::NextLink);
            let screen = render(&app);
            let title = rows(&screen)
                .into_iter()
                .find(|row| row.contains("Enter opens") || row.contains("Enter shows"))
                .unwrap_or_else(|| panic!("no link title at {width}:\n{screen}"));
            counts.push(title);
        }
        // Each link in turn, then the first again.
        let expected = (1..=links).chain([1]);
        for (title, number) in counts.iter().zip(expected) {
            assert!(
                title.contains(&format!(" link {number} of {links} "))
                    || title.contains(&format!(" {number}/{links} ")),
                "at {width} columns: {counts:#?}"
            );
        }
        // The table's link opens its chapter, whether or not its row split it.
        let mut app = guide(width, 24);
        for _ in 0..table_link {
            app.update(Msg::NextLink);
        }
        app.update(Msg::Open);
        assert_eq!(book::chapters()[app.book.open], table_chapter, "at {width}");
    }
}

#[test]
fn the_link_title_fits_the_box_at_80x24() {
    let links = written_links(guide_markdown());
    let (table_link, table_chapter) = guide_table_link();
    let mut app = guide(80, 24);
    for _ in 0..table_link {
        app.update(Msg::NextLink);
    }
    let screen = render(&app);
    let title = format!("{table_link}/{links} · Enter opens “{}” ", table_chapter.title);
    assert!(screen.contains(&title), "{title}:\n{screen}");
}

#[test]
fn lab4s_curve_legend_keeps_each_glyph_with_its_name_at_80x24() {
    let app = run(
        visited_app(80, 24),
        &[Msg::Down, Msg::Down, Msg::Down, Msg::Open, Msg::Reveal],
    );
    let screen = render(&app);
    for item in ["A age-cap", "T throttle", "F fifo", "◆ now", "● live"] {
        assert!(screen.contains(item), "{item:?}:\n{screen}");
    }
}

#[test]
fn the_fleet_live_header_before_a_start_reads_whole() {
    for (width, height) in [(80, 24), (100, 30)] {
        let screen = render(&fleet(width, height, &[Msg::ToggleMode]));
        let text = rows(&screen).join("\n");
        // Each wording keeps its numbers: the replicas, the load, the speed, both clocks.
        assert!(
            text.contains("req") && text.contains("10x"),
            "{width}x{height}:\n{screen}"
        );
        assert!(
            text.contains("beside it") || text.contains("sim beside"),
            "the header's last words show at {width}x{height}:\n{screen}"
        );
        assert!(!text.contains("besid│") && !text.contains("127.0.0.│"), "{screen}");
    }
}
