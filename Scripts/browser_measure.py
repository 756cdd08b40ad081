"""Measures `flow serve`'s page in headless Chromium (figures for Documentation/Serve.md and
Documentation/Performance.md; nothing is asserted):

1. drag-connect -> updated values on the calculator: an `add` node's input `a` is connected
   again and again, alternately from `total` and `subtotal` (each replaces the edge in that
   input), and the page measures from the pointer's release to the pass's event;
2. a 1,000-node graph's page time to interactive: from navigation start to the page having
   its first event and its scripts bound (`window.flowEventCount >= 1`), as the page measures it.

usage: browser_measure.py FLOWBIN [DRAGS] [NODES]
"""
import json
import pathlib
import random
import shutil
import statistics
import subprocess
import sys
import tempfile

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

import browser_support
from browser_support import chrome, wait_for

FLOW = sys.argv[1]
DRAGS = int(sys.argv[2]) if len(sys.argv) > 2 else 20
NODES = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
ROOT = pathlib.Path(__file__).resolve().parent.parent


def serve(path):
    process = subprocess.Popen([FLOW, "serve", str(path), "--port", "0"], stdout=subprocess.PIPE, text=True)
    return process, process.stdout.readline().split()[-1]


def big(count):
    rng = random.Random(1)
    nodes, edges = [], []
    for index in range(count):
        if index < 50:
            nodes.append({"id": "n%d" % index, "data": {"kind": "number", "params": {"value": index}}})
            continue
        nodes.append({"id": "n%d" % index, "data": {"kind": "add"}})
        for port in ["a", "b"]:
            source = rng.randrange(max(0, index - 40), index)
            edges.append({"id": "e%d" % len(edges), "sourceNodeID": "n%d" % source,
                          "sourceHandleID": "value" if source < 50 else "result", "targetNodeID": "n%d" % index, "targetHandleID": port})
    return {"nodes": nodes, "edges": edges}


def summary(values, unit):
    return "min %.1f %s, median %.1f %s, max %.1f %s over %d" % (
        min(values), unit, statistics.median(values), unit, max(values), unit, len(values))


browser_support.LABEL = "browser measure"
work = pathlib.Path(tempfile.mkdtemp(prefix="flow-measure-"))
driver = chrome(2400, 1400)
try:
    shutil.copy(ROOT / "Examples/calculator.flow.json", work / "calculator.flow.json")
    process, url = serve(work / "calculator.flow.json")
    try:
        driver.get(url)
        wait_for(lambda: driver.execute_script("return window.flowEventCount >= 1"), "the first event")
        Select(driver.find_element(By.CSS_SELECTOR, 'select[data-action="add"]')).select_by_visible_text("add")
        wait_for(lambda: driver.execute_script("return document.querySelector('[data-node=\"add1\"]') !== null"), "add1")
        latencies = []
        for index in range(DRAGS):
            source = "total" if index % 2 == 0 else "subtotal"
            driver.execute_script("window.flowLastEditLatency = undefined;")
            out = driver.find_element(By.CSS_SELECTOR, '[data-node="%s"] circle[data-out="result"]' % source)
            into = driver.find_element(By.CSS_SELECTOR, '[data-node="add1"] circle[data-in="a"]')
            ActionChains(driver).move_to_element(out).click_and_hold().move_to_element(into).release().perform()
            latency = wait_for(lambda: driver.execute_script("return window.flowLastEditLatency"), "the update %d" % index)
            latencies.append(latency)
            # The next drag waits for the picture drawn again with the new edge.
            wait_for(lambda: driver.execute_script(
                "const p = document.querySelector('path.edge[data-target=\"add1\"]'); return p && p.dataset.source === arguments[0];",
                source), "the redrawn edge %d" % index)
        print("browser measure: calculator drag-connect -> updated values: " + summary(latencies, "ms"))
    finally:
        process.send_signal(2)
        process.wait(timeout=10)

    path = work / "big.flow.json"
    path.write_text(json.dumps(big(NODES)))
    times = []
    for attempt in range(3):
        process, url = serve(path)
        try:
            driver.get(url)
            wait_for(lambda: driver.execute_script("return window.flowEventCount >= 1"), "the first event", timeout=60)
            times.append(driver.execute_script("return window.flowFirstEventAt"))
        finally:
            process.send_signal(2)
            process.wait(timeout=30)
    print("browser measure: %d-node page, navigation -> interactive (first event, scripts bound): %s"
          % (NODES, summary(times, "ms")))
finally:
    driver.quit()
    shutil.rmtree(work, ignore_errors=True)
