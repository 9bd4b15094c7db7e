#!/usr/bin/env bash
# Runs two builds of resilience-lab on the same random flag sets and fails on the first
# output that differs: the check that a speed-up left every simulated number as it was.
#
#   benches/compare_outputs.sh OLD_BINARY NEW_BINARY [RUNS] [SEED]
#
# Each run draws one `run breaker --sim` and one `run retry --sim` flag set (text or JSON).
set -euo pipefail
old=${1:?old binary}
new=${2:?new binary}
runs=${3:-300}
RANDOM=${4:-1}
ok=0

pick() { echo $(( $1 + RANDOM % ($2 - $1 + 1) )); }
decimal() { printf '%d.%02d' "$(pick "$1" "$2")" "$(pick 0 99)"; }

compare() {
    local a b
    a=$("$old" "$@" 2>&1; echo "exit $?")
    b=$("$new" "$@" 2>&1; echo "exit $?")
    [[ "$a" == *"exit 0" ]] && ok=$((ok + 1))
    if [[ "$a" != "$b" ]]; then
        echo "DIFFERENT: $*"
        diff <(echo "$a") <(echo "$b") | head -20
        exit 1
    fi
}

for ((i = 0; i < runs; i++)); do
    window=$(pick 1 400)
    duration=$(pick 1 240)
    start=$(pick 0 $((duration - 1)))
    flags=(run breaker --sim --rate "$(pick 1 1500)" --duration-s "$duration"
        --timeout-ms "$(pick 1 3000)" --healthy-ms "$(pick 0 400)"
        --brownout-s "$start,$((start + $(pick 1 200)))" --window "$window" --min-calls "$(pick 1 "$window")"
        --threshold "0.$(pick 10 99)" --open-s "$(decimal 0 30)" --trial-calls "$(pick 1 30)")
    (( RANDOM % 3 == 0 )) && flags+=(--json)
    compare "${flags[@]}"

    layers=$(pick 1 4)
    attempts=$(pick 1 6)
    for ((l = 1; l < layers; l++)); do attempts+=",$(pick 1 6)"; done
    case $(( RANDOM % 4 )) in
        0) p=0 ;;
        1) p=1 ;;
        *) p="0.$(pick 0 99)" ;;
    esac
    flags=(run retry --sim --p "$p" --attempts "$attempts" --budget "0.$(pick 0 30)"
        --actions "$(pick 1 3000)" --seed "$(pick 0 100000)")
    (( RANDOM % 3 == 0 )) && flags+=(--json)
    compare "${flags[@]}"
    (( RANDOM % 10 == 0 )) && compare run retry --sim --actions "$(pick 1 20000)" --seed "$(pick 0 1000)"
done
echo "same output for $runs breaker and $runs retry flag sets (and the tables between); $ok ran to exit 0"
