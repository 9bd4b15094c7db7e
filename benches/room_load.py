#!/usr/bin/env python3
"""The room under a class: 200 scripted participants answer one check within 5 s.

  benches/room_load.py [BINARY]     (default target/release/resilience-lab)

Phase 1: one host, 200 participants each POST an answer at a random moment of 5 s, 20 of
them twice (a changed mind). Measured: the host's peak resident set (VmHWM) and its CPU
over the phase (utime+stime from /proc, as a share of one core), the time from a
participant's send to the host's line counting it (p50, p99: the host prints after the
room's state changed, so this is how fast the histogram reflects an answer), answers lost
(200 expected in the session file's counted set) and duplicates (counted once).
Phase 2: a host killed (SIGKILL) after half the class answered and restarted from its
session file at the same port; participants whose send failed resend: 0 lost.
Binds and connects 127.0.0.1 only; every loop is bounded in count and time.
"""
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

CHECK = "retry-predict-layered"
PARTICIPANTS = 200
TWICE = 20
SPREAD_S = 5.0
TICKS = os.sysconf("SC_CLK_TCK")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Host:
    def __init__(self, binary, session, port):
        self.process = subprocess.Popen(
            [binary, "class", "host", "--listen", f"127.0.0.1:{port}", "--session", session, "--check", CHECK],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        first = self.process.stdout.readline().split()
        self.code, self.url = first[1], first[3]
        self.seen = {}  # name -> time its (last) line arrived
        self.counted = 0
        self.reader = threading.Thread(target=self.read, daemon=True)
        self.reader.start()

    def read(self):
        for line in self.process.stdout:
            parts = line.split()
            if parts and parts[0] == "answer":
                self.seen[parts[1]] = time.monotonic()
                self.counted = int(parts[3].lstrip("("))

    def cpu_s(self):
        with open(f"/proc/{self.process.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICKS

    def hwm_kb(self):
        with open(f"/proc/{self.process.pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
        return 0


def send(port, code, name, value):
    """One answer on a fresh connection, as a phone sends it; True once the host took it."""
    body = f"name={name}&code={code}&check={CHECK}&value={value}&reply=text".encode()
    request = (f"POST /answer HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/x-www-form-urlencoded\r\n"
               f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode() + body
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
            s.sendall(request)
            answer = s.recv(4096)
        return answer.startswith(b"HTTP/1.1 200")
    except OSError:
        return False


def class_answers(port, code, names, at, sent, acked):
    def one(name):
        time.sleep(max(0.0, at[name] - time.monotonic()))
        sent[name] = time.monotonic()
        acked[name] = send(port, code, name, random.randint(8, 80))
    threads = [threading.Thread(target=one, args=(n,)) for n in names]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=SPREAD_S + 15)


def counted_in(session):
    with open(session) as f:
        data = json.load(f)
    return {a["name"] for a in data["answers"] if a["check"] == CHECK}, len(data["answers"])


def phase_one(binary, work):
    session = os.path.join(work, "one.json")
    port = free_port()
    host = Host(binary, session, port)
    names = [f"p{i:03}" for i in range(PARTICIPANTS)]
    start = time.monotonic() + 0.2
    at = {n: start + random.uniform(0, SPREAD_S) for n in names}
    sent, acked = {}, {}
    cpu_before, wall_before = host.cpu_s(), time.monotonic()
    class_answers(port, host.code, names, at, sent, acked)
    twice = random.sample(names, TWICE)
    for name in twice:  # a changed mind: the second answer replaces the first
        acked[name] = send(port, host.code, name, 64) and acked[name]
    deadline = time.monotonic() + 5
    while host.counted < PARTICIPANTS and time.monotonic() < deadline:
        time.sleep(0.01)
    cpu_share = (host.cpu_s() - cpu_before) / (time.monotonic() - wall_before)
    hwm_mb = host.hwm_kb() / 1024
    latencies = sorted(host.seen[n] - sent[n] for n in names if n in host.seen and n not in twice)
    p = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000
    host.process.terminate()
    host.process.wait(timeout=10)
    unique, lines = counted_in(session)
    print(f"phase 1: {PARTICIPANTS} participants in {SPREAD_S:.0f} s ({TWICE} twice): "
          f"peak RSS {hwm_mb:.1f} MB, CPU {100 * cpu_share:.1f}% of one core, "
          f"send-to-count p50 {p(0.5):.1f} ms p99 {p(0.99):.1f} ms, "
          f"counted {host.counted}, in the file {len(unique)} participants from {lines} answers, "
          f"lost {PARTICIPANTS - len(unique)}, refused {sum(1 for v in acked.values() if not v)}")
    return hwm_mb < 50 and cpu_share < 0.20 and p(0.99) < 250 and len(unique) == PARTICIPANTS \
        and host.counted == PARTICIPANTS and lines == PARTICIPANTS + TWICE


def phase_two(binary, work):
    session = os.path.join(work, "two.json")
    port = free_port()
    host = Host(binary, session, port)
    names = [f"q{i:03}" for i in range(PARTICIPANTS)]
    start = time.monotonic() + 0.2
    at = {n: start + random.uniform(0, SPREAD_S) for n in names}
    sent, acked = {}, {}
    killer = threading.Timer(0.2 + SPREAD_S / 2, lambda: host.process.send_signal(signal.SIGKILL))
    killer.start()
    class_answers(port, host.code, names, at, sent, acked)
    host.process.wait(timeout=10)
    failed = [n for n in names if not acked.get(n)]
    restarted = Host(binary, session, port)
    assert restarted.code == host.code, "the restarted host keeps the room's code"
    for _ in range(10):  # resend until taken, bounded
        failed = [n for n in failed if not send(port, restarted.code, n, 64)]
        if not failed:
            break
        time.sleep(0.5)
    restarted.process.terminate()
    restarted.process.wait(timeout=10)
    unique, _ = counted_in(session)
    print(f"phase 2: killed at {SPREAD_S / 2:.1f} s, restarted from the session file: "
          f"{sum(1 for n in names if not acked.get(n))} sends failed and were resent, "
          f"{len(unique)} of {PARTICIPANTS} in the file, lost {PARTICIPANTS - len(unique)}")
    return len(unique) == PARTICIPANTS


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else "target/release/resilience-lab"
    random.seed(24)
    with tempfile.TemporaryDirectory() as work:
        ok = phase_one(binary, work) & phase_two(binary, work)
    print("within the issue's bounds" if ok else "OUT of the issue's bounds (50 MB, 20% of a core, p99 250 ms, 0 lost)")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
