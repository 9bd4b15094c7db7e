#!/usr/bin/env python3
"""Run by hand: random registers through `resilience-lab policy check` and the Atlas's
check_policy.py, comparing standard output and exit code byte for byte.

usage: python3 tests/tools/policy_compare.py PATH/TO/check_policy.py PATH/TO/resilience-lab [COUNT] [SEED]

Registers are well typed (the Rust command refuses badly typed input with exit 2, where
the Python script would crash or print nonsense), but any required field may be left out,
and optional fields come and go, so every rule and every "missing" line is exercised.
"""
import json
import os
import random
import subprocess
import sys
import tempfile

REQUIRED = ["name", "criticality", "timeout_ms", "max_attempts", "sdk_attempts",
            "mesh_attempts", "idempotent", "breaker", "runbook"]
NAMES = ["payments", "inventory", "recommendations", "receipt-store", "search", "auth",
         "cache", "ledger", "ärger", "x y", "db:1"]


def dependency(rng):
    d = {
        "name": rng.choice(NAMES),
        "criticality": rng.choice(["hard", "soft"]),
        "timeout_ms": rng.choice([0, 50, 150, 200, 800, 1000, rng.randint(0, 5000)]),
        "max_attempts": rng.choice([1, 1, 2, 3, rng.randint(1, 10)]),
        "sdk_attempts": rng.choice([1, 1, 3, 4, rng.randint(1, 10)]),
        "mesh_attempts": rng.choice([1, 1, 2, rng.randint(1, 10)]),
        "idempotent": rng.random() < 0.6,
        "breaker": rng.random() < 0.7,
        "runbook": "runbooks/x.md#" + str(rng.randint(0, 99)),
    }
    for field in REQUIRED:
        if rng.random() < 0.06:
            del d[field]
    if rng.random() < 0.5:
        d["sequential"] = rng.random() < 0.6
    if rng.random() < 0.3:
        d["idempotency_key"] = rng.random() < 0.5
    if rng.random() < 0.5:
        d["degraded_behaviour"] = rng.choice(["", "render without the panel", "queue it"])
    if rng.random() < 0.1:
        d["owner_note"] = "ignored by both"
    return d


def register(rng):
    return {
        "service": "svc",
        "inbound_deadline_ms": rng.choice([0, 500, 2000, rng.randint(0, 20000)]),
        "dependencies": [dependency(rng) for _ in range(rng.randint(0, 7))],
    }


def run(command):
    done = subprocess.run(command, capture_output=True)
    return done.returncode, done.stdout


def main():
    python_checker, rust_binary = sys.argv[1], sys.argv[2]
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
    rng = random.Random(int(sys.argv[4]) if len(sys.argv) > 4 else 14)
    outcomes = {0: 0, 1: 0}
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "register.json")
        for i in range(count):
            reg = register(rng)
            with open(path, "w", encoding="utf-8") as fh:
                json.dump(reg, fh, ensure_ascii=rng.random() < 0.5, indent=rng.choice([None, 2]))
            expected = run([sys.executable, python_checker, path])
            got = run([rust_binary, "policy", "check", path])
            if expected != got:
                print(f"register {i} differs:\n{json.dumps(reg, indent=2)}")
                print("python:", expected)
                print("rust:  ", got)
                sys.exit(1)
            outcomes[expected[0]] += 1
    print(f"{count} registers agree (exit 0: {outcomes[0]}, exit 1: {outcomes[1]})")


if __name__ == "__main__":
    main()
