"""A subgraph document in the page of `flow serve` (Examples/subgraphs/pipeline.flow.json, whose
`clean` is an instance of the library's `cleanSales`): in headless Chromium, the instance is one
node (none of its inner nodes in the picture); a double click on it opens its inside, read-only,
over the picture, with its inner nodes (ids `clean/<inner>`), their values and table rows; Escape
closes it.

usage: browser_inside.py URL
"""
import sys

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import browser_support
from browser_support import chrome, fail, wait_for

URL = sys.argv[1]
browser_support.LABEL = "browser inside"
driver = chrome(1800, 1000)
try:
    driver.get(URL)
    wait_for(lambda: driver.execute_script("return window.flowEventCount >= 1 && window.flowBusy() === 0"), "the first event")
    nodes = driver.execute_script("return Array.from(document.querySelectorAll('#graph [data-node]')).map((n) => n.dataset.node)")
    if sorted(nodes) != ["byRegion", "clean", "sales"]:
        fail("the picture's nodes are %s, not the document's three (the instance as one node)" % nodes)
    kind = driver.execute_script("const n = document.querySelector('#graph [data-node=\"clean\"]'); return n.dataset.subgraph")
    if kind != "cleanSales":
        fail("the instance clean does not name its definition: %r" % kind)
    title = driver.find_element(By.CSS_SELECTOR, '#graph [data-node="clean"] .title')
    ActionChains(driver).double_click(title).perform()
    inner = wait_for(lambda: driver.execute_script(
        "const o = document.querySelector('.inside[data-inside=\"clean\"]');"
        " return o ? Array.from(o.querySelectorAll('[data-node]')).map((n) => n.dataset.node) : null"), "the inside of clean")
    if "clean/totals" not in inner or any(not node.startswith("clean/") for node in inner):
        fail("the inside of clean shows %s" % inner)

    def inner_text(node, selector):
        return driver.execute_script(
            "return Array.from(document.querySelectorAll('.inside [data-node=\"%s\"] %s')).map((t) => t.textContent)" % (node, selector))
    if inner_text("clean/totals", '[data-value="table"]') != ["table = table (4 rows × 4 columns)"]:
        fail("clean/totals shows %s" % inner_text("clean/totals", "text"))
    rows = inner_text("clean/totals", "text.table")
    if not rows or "total" not in rows[0]:
        fail("clean/totals shows no table rows: %s" % rows)
    if driver.execute_script("return document.querySelectorAll('.inside input, .inside textarea').length") != 0:
        fail("the inside has fields (it is read-only)")
    if driver.execute_script("return document.querySelectorAll('#graph [data-node^=\"clean/\"]').length") != 0:
        fail("the instance's inner nodes are in the picture itself")
    ActionChains(driver).send_keys(Keys.ESCAPE).perform()
    wait_for(lambda: driver.execute_script("return document.querySelector('.inside') === null"), "the inside closed by Escape")
    errors = [entry for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"]
    if errors:
        fail("console errors: %s" % errors)
    print("browser inside: passed (the instance clean is one node; a double click opens its %d inner nodes with values and rows,"
          " read-only; Escape closes it)" % len(inner))
finally:
    driver.quit()
