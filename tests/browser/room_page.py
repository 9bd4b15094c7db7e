#!/usr/bin/env python3
"""The room's web page in a real browser: headless Chromium through chromedriver (W3C
WebDriver, spoken here with the standard library only) opens the page, joins, sees the
open question, submits an answer with the plain form, and the host counts it; at a
desktop and at a phone-sized window.

Usage: tests/browser/room_page.py path/to/resilience-lab
Prints one line per case and `N passed, M failed` last; exit 1 on any failure.
"""
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

CHECK = "retry-predict-layered"
WINDOWS = [("desktop", 1280, 800), ("phone", 390, 844)]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Driver:
    def __init__(self, port):
        self.base = f"http://127.0.0.1:{port}"

    def call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.loads(response.read() or b"{}").get("value")


def start_driver():
    port = free_port()
    driver = shutil.which("chromedriver") or "/usr/bin/chromedriver"
    process = subprocess.Popen([driver, f"--port={port}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 15
    while time.time() < deadline:
        try:
            Driver(port).call("GET", "/status")
            return process, Driver(port)
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise SystemExit("chromedriver did not start")


def session(driver, width, height, profile):
    args = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            f"--user-data-dir={profile}", f"--window-size={width},{height}"]
    chrome = shutil.which("chromium") or "/usr/bin/chromium"
    options = {"binary": chrome, "args": args}
    if width < 500:
        # A headless window is at least 500 px wide: a phone is emulated (its viewport,
        # pixel ratio and touch), as Chromium's device mode does.
        options["mobileEmulation"] = {"deviceMetrics": {"width": width, "height": height, "pixelRatio": 3.0,
                                                        "touch": True}}
    caps = {"capabilities": {"alwaysMatch": {"browserName": "chrome", "goog:chromeOptions": options}}}
    return driver.call("POST", "/session", caps)["sessionId"]


def element(driver, sid, css):
    found = driver.call("POST", f"/session/{sid}/element", {"using": "css selector", "value": css})
    return next(iter(found.values()))


def text_of(driver, sid):
    return driver.call("POST", f"/session/{sid}/execute/sync",
                       {"script": "return document.body.innerText", "args": []})


def case(binary, driver, label, width, height, workdir):
    session_file = os.path.join(workdir, f"{label}.json")
    host = subprocess.Popen([binary, "class", "host", "--session", session_file, "--check", CHECK],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        first = host.stdout.readline().split()
        code, url = first[1], first[3]
        sid = session(driver, width, height, os.path.join(workdir, f"profile-{label}"))
        try:
            driver.call("POST", f"/session/{sid}/url", {"url": url})
            element(driver, sid, "#name")
            name_box = element(driver, sid, "#name")
            driver.call("POST", f"/session/{sid}/element/{name_box}/value", {"text": f"Zoë <{label}>"})
            code_box = element(driver, sid, "#code")
            driver.call("POST", f"/session/{sid}/element/{code_box}/value", {"text": code.lower()})
            driver.call("POST", f"/session/{sid}/element/{element(driver, sid, 'button')}/click", {})
            # A click under phone emulation (touch) may return before the next page has loaded:
            # wait for it, bounded, as for the acknowledgement below.
            deadline = time.time() + 5
            page = text_of(driver, sid)
            while "How many database attempts" not in page and time.time() < deadline:
                time.sleep(0.1)
                page = text_of(driver, sid)
            assert "How many database attempts" in page, f"the question is not shown: {page!r}"
            assert f"Zoë <{label}>" in page, f"the name is not shown as typed: {page!r}"
            inner, scroll = driver.call("POST", f"/session/{sid}/execute/sync", {
                "script": "return [window.innerWidth, document.documentElement.scrollWidth]", "args": []})
            assert inner == width, f"the viewport is {inner} px wide, not {width}"
            assert scroll <= width, f"the page scrolls sideways: {scroll} > {width}"
            font_px = driver.call("POST", f"/session/{sid}/execute/sync", {
                "script": "return parseFloat(getComputedStyle(document.getElementById('value')).fontSize)",
                "args": []})
            assert font_px >= 16, f"the answer field's text is {font_px} px: phones zoom in below 16"
            value_box = element(driver, sid, "#value")
            driver.call("POST", f"/session/{sid}/element/{value_box}/value", {"text": "64"})
            driver.call("POST", f"/session/{sid}/element/{element(driver, sid, 'button')}/click", {})
            deadline = time.time() + 5
            page = text_of(driver, sid)
            while "Your answer" not in page and time.time() < deadline:
                time.sleep(0.1)
                page = text_of(driver, sid)
            assert "Your answer: 64 attempts" in page, f"no acknowledgement: {page!r}"
            line = host.stdout.readline().strip()
            assert line == f"answer Zoë <{label}> {CHECK} (1 counted)", f"the host did not count it: {line!r}"
        finally:
            driver.call("DELETE", f"/session/{sid}")
        with open(session_file) as f:
            answers = json.load(f)["answers"]
        assert [a["value"] for a in answers] == [64.0], answers
    finally:
        host.terminate()
        host.wait(timeout=10)


def main():
    binary = sys.argv[1]
    process, driver = start_driver()
    passed = failed = 0
    workdir = tempfile.mkdtemp(prefix="room-browser-")
    try:
        for label, width, height in WINDOWS:
            try:
                case(binary, driver, label, width, height, workdir)
                print(f"ok   room page at a {label} window ({width}x{height}): question seen, answer counted")
                passed += 1
            except Exception as err:  # one line per failed case, then the next
                print(f"FAIL room page at a {label} window ({width}x{height}): {err}")
                failed += 1
    finally:
        process.kill()
        shutil.rmtree(workdir, ignore_errors=True)
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
