#!/usr/bin/env bash
# End-to-end test of the terminal app, driven in tmux as a person would drive it.
#
# Opens the app, goes into Lab 3, moves the timeout slider, checks the results on screen
# against `resilience-lab run breaker --sim --timeout-ms N`, opens the help, quits, and
# checks the terminal came back (main screen, no mouse capture, same stty settings).
# Then the same after SIGTERM, SIGHUP and Ctrl-C, and Ctrl-C during a live Lab 3 run. Prints "N passed, N failed"; exits 1 on
# any failure.
#
# Usage: tests/e2e_tmux.sh [BINARY]   (default: the newer of target/release and target/debug)

set -u

cd "$(dirname "$0")/.."
BIN="${1:-}"
if [[ -z "$BIN" ]]; then
    # The newer of the release and debug builds: a stale release build would test old code.
    BIN=target/debug/resilience-lab
    if [[ -x target/release/resilience-lab && target/release/resilience-lab -nt "$BIN" ]]; then
        BIN=target/release/resilience-lab
    fi
fi
BIN="$(realpath "$BIN")"
command -v tmux >/dev/null || { echo "tmux is not installed (apt-get install -y tmux)"; exit 2; }
[[ -x "$BIN" ]] || { echo "no binary at $BIN (cargo build first)"; exit 2; }

WORK="$(mktemp -d)"
SESSION="rl-e2e-$$"
PASSED=0
FAILED=0

cleanup() {
    tmux kill-session -t "$SESSION" 2>/dev/null
    [[ -n "${KEEP:-}" ]] && echo "kept $WORK" || rm -rf "$WORK"
}
trap cleanup EXIT

pass() { PASSED=$((PASSED + 1)); echo "ok   $1"; }
fail() {
    FAILED=$((FAILED + 1))
    echo "FAIL $1"
    echo "---- screen ----"; tmux capture-pane -p -t "$SESSION" 2>/dev/null; echo "----------------"
}
check() { if eval "$2"; then pass "$1"; else fail "$1"; fi; }

screen() { tmux capture-pane -p -t "$SESSION"; }
flag() { tmux display-message -p -t "$SESSION" "#{$1}"; }

# Waits up to 10 s for a fixed string on the screen.
wait_for() {
    local text="$1"
    for _ in $(seq 1 100); do
        screen | grep -qF -- "$text" && return 0
        sleep 0.1
    done
    return 1
}

# One key at a time: tmux would otherwise send Escape and the next key as one escape sequence.
keys() {
    for key in "$@"; do
        tmux send-keys -t "$SESSION" "$key"
        sleep 0.15
    done
}

# The terminal is back: main screen, no mouse reporting, the shell's prompt, stty as before.
restored() {
    local label="$1"
    check "$label: exit status printed by the shell" "wait_for 'EXIT='"
    if [[ -n "${2:-}" ]]; then
        check "$label: exit status $2" "screen | grep -qF 'EXIT=$2'"
    fi
    check "$label: left the alternate screen" "[[ \$(flag alternate_on) == 0 ]]"
    check "$label: mouse reporting off" \
        "[[ \$(flag mouse_any_flag)\$(flag mouse_button_flag)\$(flag mouse_standard_flag)\$(flag mouse_sgr_flag) == 0000 ]]"
    tmux send-keys -t "$SESSION" "stty -g > $WORK/stty.after; echo STTY-DONE" Enter
    wait_for STTY-DONE
    check "$label: terminal modes as before (stty -g)" "cmp -s $WORK/stty.before $WORK/stty.after"
    tmux send-keys -t "$SESSION" "clear" Enter
    sleep 0.3
}

# Starts the app from the shell; its pid goes to $WORK/pid.
start_app() {
    tmux send-keys -t "$SESSION" "stty -g > $WORK/stty.before; clear; sh -c 'echo \$\$ > $WORK/pid; exec \"$BIN\" --log $WORK/app.log'; echo EXIT=\$?" Enter
    wait_for "A breaker during a brownout"
}

tmux new-session -d -s "$SESSION" -x 100 -y 30 "bash --norc --noprofile"
tmux send-keys -t "$SESSION" "PS1='e2e\$ '" Enter

# 1. Drive Lab 3 and quit with keys.
start_app
check "home screen shows the three labs" "screen | grep -qF 'Retry amplification'"
check "the app runs on the alternate screen" "[[ \$(flag alternate_on) == 1 ]]"
check "mouse capture is on while the app runs" "[[ \$(flag mouse_any_flag) == 1 ]]"
keys Down Down Enter
check "Lab 3 opens" "wait_for 'Lab 3 · A breaker during a brownout'"
check "Lab 3 shows the Atlas's default row" \
    "wait_for 'with breaker  calls= 2911 to sick=   44 degraded= 3133 p99 wait= 40 ms stuck= 0.3'"
# Focus the timeout (third slider) and move it 5 steps of 10 ms: 200 -> 250 ms.
keys Tab Tab Right Right Right Right Right
check "the timeout slider shows 250 ms" "wait_for '250 ms'"
EXPECTED="$("$BIN" run breaker --sim --timeout-ms 250)"
TIMEOUT_ROW="$(sed -n 1p <<<"$EXPECTED")"
BREAKER_ROW="$(sed -n 2p <<<"$EXPECTED")"
check "timeout-only row matches the CLI at 250 ms" "wait_for '$TIMEOUT_ROW'"
check "with-breaker row matches the CLI at 250 ms" "wait_for '$BREAKER_ROW'"
check "the default row is gone" "! screen | grep -qF 'stuck=20.0'"
tmux resize-window -t "$SESSION" -x 70 -y 20
check "a small terminal gets the too-small message" "wait_for 'terminal too small: needs 80x24, have 70x20'"
tmux resize-window -t "$SESSION" -x 100 -y 30
check "resizing back redraws the lab" "wait_for '$BREAKER_ROW'"
keys '?'
check "? opens the help overlay" "wait_for 'Keys: lab screen'"
check "the help lists Shift+arrows" "screen | grep -qF 'Shift+←/→'"
keys Escape
check "Esc closes the help" "! screen | grep -qF 'Keys: lab screen'"
keys Escape
check "Esc goes back home" "wait_for 'Enter open'"
keys q
restored "quit with q" 0

# 2. SIGTERM (and then SIGHUP) while on a lab screen.
for sig in TERM HUP; do
    start_app
    keys Down Down Enter
    wait_for 'Lab 3 · A breaker during a brownout'
    kill -"$sig" "$(cat "$WORK/pid")"
    restored "SIG$sig"
done

# 3. Lab 3 live: m, s, samples arrive, b browns out, Ctrl-C quits while the run goes on.
# Waits up to `$2` tenths of a second for an extended regex on the screen.
wait_for_re() {
    local pattern="$1" tenths="${2:-100}"
    for _ in $(seq 1 "$tenths"); do
        screen | grep -qE -- "$pattern" && return 0
        sleep 0.1
    done
    return 1
}
start_app
keys Down Down Enter
wait_for 'Lab 3 · A breaker during a brownout'
keys m
check "m switches Lab 3 to live" "wait_for 'live · 127.0.0.1'"
keys s
check "s starts a live run" "wait_for_re 'running [0-9]+/60 s' 50"
check "live samples arrive (calls/s above 0)" "wait_for_re '[1-9][0-9]* calls/s' 80"
keys b
check "b browns the dependency out now" "wait_for 'sick by hand'"
keys C-c
restored "Ctrl-C during a live run" 0
check "the live labs were shut down before the terminal was restored" "grep -q 'live labs shut down (0 aborted' $WORK/app.log"

# 4. Ctrl-C in raw mode is a key: it quits too.
start_app
keys C-c
restored "Ctrl-C" 0

check "nothing was printed over the screen (the log took the diagnostics)" "grep -q 'terminal app started' $WORK/app.log"

echo "$PASSED passed, $FAILED failed"
[[ $FAILED -eq 0 ]]
