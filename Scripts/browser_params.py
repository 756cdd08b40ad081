"""Every param is also an input, in the page of `flow serve`: in headless Chromium, by pointer
and keys only, a `number`'s output is dragged onto the target handle of a `limit`'s `count`
param (a param no edge fed, drawn with its field); the table then has the number's rows, the
param is drawn `count (from edge)` without its field, and Save writes the edge (browser-test.sh
then checks `flow run` of the saved file gives the same rows). The edge is then selected by a
click on its line and deleted: the written count applies again and its field is back.

usage: browser_params.py URL
"""
import sys

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import browser_support
from browser_support import chrome, click_edge, drag, fail, wait_for

URL = sys.argv[1]
browser_support.LABEL = "browser params"
driver = chrome(1600, 1000)
try:
    driver.get(URL)
    wait_for(lambda: driver.execute_script("return window.flowEventCount >= 1 && window.flowBusy() === 0"), "the first event")

    def shown(node, port):
        return driver.execute_script(
            "const e = document.querySelector('[data-node=\"%s\"] [data-value=\"%s\"]'); return e ? e.textContent : null;" % (node, port))

    def field(node, param):
        return driver.execute_script(
            "const f = document.querySelector('[data-node=\"%s\"] [data-param=\"%s\"]'); return f ? f.value : null;" % (node, param))

    def fed_label(node):
        return driver.execute_script(
            "const t = document.querySelector('[data-node=\"%s\"] text.fed'); return t ? t.textContent : null;" % node)

    wait_for(lambda: shown("first", "table") == "table = table (5 rows × 1 columns)", "first = 5 rows")
    if field("first", "count") != "5":
        fail("the written count is not in its field: %r" % field("first", "count"))
    handles = driver.execute_script(
        "return Array.from(document.querySelectorAll('[data-node=\"first\"] circle[data-param-handle]')).map((c) => c.dataset.paramHandle)")
    if "count" not in handles:
        fail("first has no handle for its param count: %s" % handles)
    drag(driver, lambda: driver.find_element(By.CSS_SELECTOR, '[data-port="two.value"][data-direction="out"]'),
         lambda: driver.find_element(By.CSS_SELECTOR, '[data-node="first"] circle[data-param-handle="count"]'))
    wait_for(lambda: shown("first", "table") == "table = table (2 rows × 1 columns)" and fed_label("first") == "count (from edge)"
             and field("first", "count") is None, "first = 2 rows, its count fed by the edge",
             detail=lambda: "shows %r, %r, the page says %r" % (shown("first", "table"), fed_label("first"),
                                                               driver.find_element(By.ID, "status").text))
    edges = driver.execute_script("return Array.from(document.querySelectorAll('path.edge')).map((e) => e.dataset.edge)")
    fed = [edge for edge in edges if edge.startswith("two.value->first.count")]
    if len(fed) != 1:
        fail("not one edge two.value -> first.count: %s" % edges)
    driver.find_element(By.CSS_SELECTOR, '[data-action="save"]').click()
    wait_for(lambda: "saved to" in driver.find_element(By.ID, "status").text, "the save")

    # Disconnected: the written value applies again, in its field.
    wait_for(lambda: driver.execute_script("return window.flowBusy() === 0"), "the page to apply its events")
    click_edge(driver, fed[0])
    wait_for(lambda: driver.execute_script("return document.querySelector('.edge.selected') !== null"), "the edge selected by a click")
    ActionChains(driver).send_keys(Keys.DELETE).perform()
    wait_for(lambda: shown("first", "table") == "table = table (5 rows × 1 columns)" and field("first", "count") == "5"
             and fed_label("first") is None, "first = 5 rows again, its count's field back")
    errors = [entry for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"]
    if errors:
        fail("console errors: %s" % errors)
    print("browser params: passed (a number dragged onto limit's count handle feeds it, saved; deleting the edge "
          "brings the written count back)")
finally:
    driver.quit()
