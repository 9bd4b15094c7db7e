#!/usr/bin/env bash
# The README's speed ratios: resilience-lab's headless runs against the Atlas's Python scripts,
# timed as whole processes with hyperfine, interleaved in rounds so that a busy moment on the
# machine hits both sides alike. Prints each round's medians and the ratio's median and spread.
#
#   benches/compare_python.sh PYTHON REFERENCE_DIR [BINARY] [ROUNDS] [RUNS_PER_ROUND]
#
# PYTHON must be the interpreter itself, not a shim that adds its own start-up:
#   benches/compare_python.sh "$(python3 -c 'import sys; print(sys.executable)')" ../shared/reference
# BINARY defaults to target/release/resilience-lab (cargo build --release first).
set -euo pipefail
python=${1:?python interpreter (sys.executable)}
refdir=${2:?folder with retry_lab.py and breaker_lab.py}
bin=${3:-target/release/resilience-lab}
rounds=${4:-10}
runs=${5:-10}
command -v hyperfine >/dev/null || { echo "hyperfine is needed (apt-get install -y hyperfine)"; exit 2; }
[[ -x "$bin" ]] || { echo "no binary at $bin (cargo build --release)"; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The same output first: a ratio between runs that disagree would mean nothing.
for lab in retry breaker; do
    if ! diff -q <("$bin" run "$lab" --sim) <(cd "$refdir" && "$python" "${lab}_lab.py") >/dev/null; then
        echo "run $lab --sim and ${lab}_lab.py disagree; not timing them"; exit 1
    fi
done

median_ms() { "$python" -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["median"]*1000)' "$1"; }

echo "round  lab      resilience-lab  python   ratio"
for ((round = 1; round <= rounds; round++)); do
    for lab in retry breaker; do
        hyperfine -N --warmup 2 --runs "$runs" --export-json "$work/rust.json" \
            "$bin run $lab --sim" >/dev/null 2>&1
        hyperfine -N --warmup 2 --runs "$runs" --export-json "$work/py.json" \
            "$python $refdir/${lab}_lab.py" >/dev/null 2>&1
        rust_ms=$(median_ms "$work/rust.json")
        py_ms=$(median_ms "$work/py.json")
        ratio=$("$python" -c "print(f'{$py_ms / $rust_ms:.1f}')")
        printf '%5d  %-7s  %11.2f ms  %6.1f ms  %5sx\n' "$round" "$lab" "$rust_ms" "$py_ms" "$ratio"
        echo "$lab $rust_ms $py_ms $ratio" >>"$work/rounds.txt"
    done
done

"$python" - "$work/rounds.txt" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
for lab in ("retry", "breaker"):
    mine = [r for r in rows if r[0] == lab]
    ratios = sorted(float(r[3]) for r in mine)
    rust = statistics.median(float(r[1]) for r in mine)
    py = statistics.median(float(r[2]) for r in mine)
    print(f"{lab}: resilience-lab {rust:.2f} ms, python {py:.1f} ms; ratio median {statistics.median(ratios):.1f}x, "
          f"range {ratios[0]:.1f}x to {ratios[-1]:.1f}x over {len(ratios)} interleaved rounds")
PY
