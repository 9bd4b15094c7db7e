#!/usr/bin/env python3
"""Copy scan: finds runs of 12 or more words that the book or the quiz shares with the seeds.

The book, the quiz and the lab files are in our own words (house rule); a run of the seeds'
words is allowed only inside quotation marks, attributed. Usage:

    copy_scan.py SEEDS_DIR [ROOT]
    copy_scan.py --self-test

prints one line per unquoted run (file:line: the words) and exits 1 if there is any. `.ci/run`
calls it when ../shared/seeds exists; the seeds are not part of the repository, so the test
suite cannot run it.
"""
import pathlib
import re
import sys

RUN_WORDS = 12
WORD = re.compile(r"[a-z0-9]+(?:['’][a-z]+)?")
# Text between quotation marks is a quotation, which the rule allows when attributed.
QUOTED = re.compile(r"“[^”]*”|\"[^\"\n]{20,}?\"")


def words(text):
    return [w.replace("’", "'") for w in WORD.findall(text.lower())]


def seed_runs(seeds_dir):
    runs = set()
    for path in sorted(pathlib.Path(seeds_dir).glob("*.txt")):
        ws = words(path.read_text(encoding="utf-8"))
        for i in range(len(ws) - RUN_WORDS + 1):
            runs.add(tuple(ws[i:i + RUN_WORDS]))
    return runs


def prose_files(root):
    root = pathlib.Path(root)
    yield from sorted((root / "book" / "src").glob("*.md"))
    yield from sorted((root / "assets").rglob("*.toml"))
    yield from sorted((root / "labs").glob("*.toml"))


def prose(path, text):
    """`text` with quotations and (in Markdown) fenced code blanked out, newlines kept: a
    quotation is allowed when attributed, and a code block shows a program's own output."""
    blank = lambda m: re.sub(r"[^\n]", " ", m.group(0))
    if path.suffix == ".md":
        text = re.sub(r"(?ms)^```.*?^```", blank, text)
    # TOML strings are delimited by straight quotes: only curly quotes mark a quotation there.
    return re.sub(r"“[^”]*”", blank, text)


def scan(seeds_dir, root):
    runs = seed_runs(seeds_dir)
    found = []
    for path in prose_files(root):
        text = prose(path, path.read_text(encoding="utf-8"))
        # Every word with its line, so that a run across a line break is found too.
        located = []
        for number, line in enumerate(text.splitlines(), 1):
            located.extend((word, number) for word in words(line))
        ws = [word for word, _ in located]
        i, last_line = 0, 0
        while i <= len(ws) - RUN_WORDS:
            run = ws[i:i + RUN_WORDS]
            # A list of the Atlas's printed numbers is a result, not its prose.
            if tuple(run) in runs and sum(word.isalpha() for word in run) >= RUN_WORDS // 2:
                line = located[i][1]
                if line != last_line:
                    found.append(f"{path.relative_to(root)}:{line}: {' '.join(ws[i:i + RUN_WORDS])}")
                    last_line = line
                i += RUN_WORDS
            else:
                i += 1
    return found


def self_test():
    """The scan finds a copied run across a line break, and passes it quoted or in code."""
    import tempfile
    seed = "the quick brown fox jumps over the lazy dog while the farmer sleeps in the barn"
    copied = "Intro: the quick brown fox jumps over\nthe lazy dog while the farmer sleeps.\n"
    quoted = "As the Atlas says, “the quick brown fox jumps over the lazy dog while the farmer sleeps”.\n"
    fenced = "```\nthe quick brown fox jumps over the lazy dog while the farmer sleeps\n```\n"
    with tempfile.TemporaryDirectory() as tmp:
        root = pathlib.Path(tmp)
        (root / "seeds").mkdir()
        (root / "seeds" / "000_x.txt").write_text(seed, encoding="utf-8")
        (root / "book" / "src").mkdir(parents=True)
        for name, text in [("copied.md", copied), ("quoted.md", quoted), ("fenced.md", fenced)]:
            (root / "book" / "src" / name).write_text(text, encoding="utf-8")
        found = scan(root / "seeds", root)
    assert found == ["book/src/copied.md:1: the quick brown fox jumps over the lazy dog while the farmer"], found
    print("copy scan self-test: ok")
    return 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    root = argv[2] if len(argv) > 2 else pathlib.Path(__file__).resolve().parents[2]
    found = scan(argv[1], root)
    for line in found:
        print(line)
    print(f"copy scan: {len(found)} line(s) share {RUN_WORDS} or more words with the seeds outside quotation marks")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
