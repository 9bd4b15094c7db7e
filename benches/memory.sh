#!/usr/bin/env bash
# The README's memory table: the peak resident set (/usr/bin/time -v) of the heaviest run the
# flags allow, for every live command and every simulation, and how the resident set moved
# over the second half of the run (flat means bounded: a leak shows as a steady slope).
#
#   benches/memory.sh [BINARY] [SOAK_S] [ONLY]
#
# BINARY defaults to target/release/resilience-lab (cargo build --release first). Live runs
# whose longest form lasts longer than SOAK_S seconds (default 60) are stopped by SIGTERM at
# SOAK_S: their rates and limits are the worst the flags allow, only the length is cut, and
# the slope column says whether a longer run could grow. ONLY runs the cases whose name
# contains it (e.g. `breaker`). Every run binds 127.0.0.1 only and ends by itself.
set -euo pipefail
bin=${1:-target/release/resilience-lab}
soak_s=${2:-60}
only=${3:-}
[[ -x "$bin" ]] || { echo "no binary at $bin (cargo build --release)"; exit 2; }
[[ -x /usr/bin/time ]] || { echo "/usr/bin/time is needed (apt-get install -y time)"; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# With RUST_BACKTRACE set, every error (a refused flag too) captures and resolves a
# backtrace: 35 MB and 0.3 s of reading debug info. The table is for a plain environment.
unset RUST_BACKTRACE RUST_LIB_BACKTRACE

# name | arguments: the flags at their heaviest (rate, concurrency, layers, timeouts, length).
cases=(
    "retry --sim, 10,10,10 at p 0.5, 1,000,000 actions|run retry --sim --p 0.5 --attempts 10,10,10 --actions 1000000"
    "breaker --sim, 10,000/s for 3,600 s, window 10,000|run breaker --sim --rate 10000 --duration-s 3600 --window 10000 --min-calls 10000"
    "breaker --sim, open-s 0, 1 ms timeout, 3,600 s brownout|run breaker --sim --rate 10000 --duration-s 3600 --brownout-s 0,3600 --open-s 0 --timeout-ms 1"
    "health --sim|run health --sim --port 0"
    "overload --sim, 20 million arrivals|run overload --sim --offered-per-s 100000 --duration-s 200 --workers 10000"
    "overload --sim, the longest queue (a million waiting)|run overload --sim --offered-per-s 100000 --duration-s 200 --workers 1 --service-ms 10000 --client-timeout-ms 600000"
    "fleet --sim, 10 replicas, 3,600 s, 1,000/s|run fleet --sim --replicas 10 --duration-s 3600 --load-per-s 1000"
    "retry --live metastable (default)|run retry --live --scenario metastable"
    "retry --live metastable, 6 layers x 10, 20,000/s, 60 s waits|run retry --live --scenario metastable --policy layered --attempts 10,10,10,10,10,10 --load-per-s 20000 --before-s 0 --trigger-s 600 --after-s 600 --deadline-ms 60000 --db-timeout-ms 60000 --db-concurrency 1000 --service-ms 1000 --bucket-ms 100"
    "retry --live counting, 4 layers x 10 at p 1 (may reach its 300 s limit)|run retry --live --p 1 --attempts 10,10,10,10 --actions 100"
    "breaker --live (default)|run breaker --live"
    "breaker --live, 500/s, 2 s timeout (sliders' widest)|run breaker --live --rate 500 --timeout-ms 2000 --duration-s 300 --brownout-s 10,300"
    "breaker --live, 10,000/s, 60 s timeout, 3,600 s hang|run breaker --live --rate 10000 --timeout-ms 60000 --duration-s 3600 --brownout-s 0,3600 --window 10000 --min-calls 10000"
    "health --live (default)|run health --live --port 0"
    "overload --live, 5,000/s into 1 worker, 600 s timeout|run overload --live --scenario fifo --offered-per-s 5000 --workers 1 --service-ms 10000 --client-timeout-ms 600000 --duration-s 120"
    "overload --live --sweep (default)|run overload --live --sweep"
    "fleet --live black hole, 10 replicas, 2,000 requests/s|run fleet --live --scenario black-hole --replicas 10 --load-per-s 1000 --time-scale 0.5 --duration-s 1200"
)

# Samples the resident set of $1 every second into $2 while it lives.
sample_rss() {
    while kill -0 "$1" 2>/dev/null; do
        awk '/^VmRSS/ { print $2 }' "/proc/$1/status" 2>/dev/null >>"$2" || true
        sleep 1
    done
}

printf '| %s | %s | %s | %s |\n' "run" "peak RSS" "second half" "wall"
printf '| --- | --- | --- | --- |\n'
for case in "${cases[@]}"; do
    name=${case%%|*}
    args=${case#*|}
    [[ -n "$only" && "$name" != *"$only"* ]] && continue
    : >"$work/rss"
    # shellcheck disable=SC2086
    /usr/bin/time -v timeout -s TERM "$soak_s" "$bin" $args >"$work/out" 2>"$work/time" &
    runner=$!
    sleep 0.3
    # The lab's own process: the child of timeout, itself the child of time.
    pid=$(pgrep -P "$(pgrep -P "$runner" | head -1)" | head -1 || true)
    [[ -n "$pid" ]] && sample_rss "$pid" "$work/rss" &
    wait "$runner" || true
    wait
    peak_kb=$(awk '/Maximum resident/ { print $NF }' "$work/time")
    wall=$(awk '/Elapsed/ { print $NF }' "$work/time")
    stopped=""
    grep -qi "exit status: 124\|signal 15" "$work/time" && stopped=" (stopped at ${soak_s} s)"
    # The slope of the second half: first and last sample after the middle.
    slope=$(awk '{ v[NR] = $1 } END {
        if (NR < 6) { print "too short to tell"; exit }
        h = int(NR / 2); d = (v[NR] - v[h]) / (NR - h);
        printf "%.1f to %.1f MB (%+.0f KB/s)", v[h] / 1024, v[NR] / 1024, d }' "$work/rss")
    printf '| `%s` | %.1f MB | %s | %s%s |\n' "$name" "$(echo "$peak_kb / 1024" | bc -l)" "$slope" "$wall" "$stopped"
done
