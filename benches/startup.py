#!/usr/bin/env python3
"""Whole-process start-up cost: `run breaker --sim` against the Atlas's breaker_lab.py.

hyperfine is not on the shared machine, so this times each process with
time.perf_counter around subprocess.run, interleaved (A, B, A, B, ...) so that a busy moment
hits both sides alike, and prints each side's median and the ratio (issue 27 item 14).

    python3 benches/startup.py REFERENCE_DIR [BINARY ...] [--runs N]

Several binaries (a dynamic and a static build, say) are timed in the same rounds.
"""

import statistics
import subprocess
import sys
import time


def timed(argv, cwd=None):
    started = time.perf_counter()
    subprocess.run(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return (time.perf_counter() - started) * 1e3


def main():
    args = sys.argv[1:]
    runs = 50
    if "--runs" in args:
        at = args.index("--runs")
        runs = int(args[at + 1])
        del args[at : at + 2]
    if not args:
        sys.exit("usage: startup.py REFERENCE_DIR [BINARY ...] [--runs N]")
    refdir, binaries = args[0], args[1:] or ["target/release/resilience-lab"]
    sides = [(b, [b, "run", "breaker", "--sim"], None) for b in binaries]
    sides.append(("python breaker_lab.py", [sys.executable, "breaker_lab.py"], refdir))
    times = {name: [] for name, _, _ in sides}
    for _ in range(runs):
        for name, argv, cwd in sides:
            times[name].append(timed(argv, cwd))
    python_ms = statistics.median(times[sides[-1][0]])
    for name, _, _ in sides:
        median = statistics.median(times[name])
        print(f"{name}: median {median:.2f} ms over {runs} runs; python / this = {python_ms / median:.1f}x")


if __name__ == "__main__":
    main()
