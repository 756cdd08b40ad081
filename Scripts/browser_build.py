"""Builds a calculator from nothing in the page of `flow serve EMPTY.flow.json`, in headless
Chromium, by pointer and keys only: two `number` nodes and a `multiply` from the palette, their
values typed into the fields, the numbers dragged (handle `data-port` to handle `data-port`) into
the multiply's inputs, and a `text` node whose two-line value is typed into its multi-line field
(Enter a new line, Ctrl+Enter commits, one pass), then Save. `Scripts/browser-test.sh` then runs
`flow run` on the saved file and checks the same result and the text saved exactly.
"""
import json
import sys
import urllib.request

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

import browser_support
from browser_support import chrome, fail, wait_for

URL = sys.argv[1]


browser_support.LABEL = "browser build"
driver = chrome(1800, 1200)
try:
    driver.get(URL)
    wait_for(lambda: driver.execute_script("return window.flowEventCount >= 1"), "the first event")

    def node_exists(node):
        return driver.execute_script("return document.querySelector('[data-node=\"%s\"]') !== null" % node)

    def value(node, port):
        return driver.execute_script(
            "const e = document.querySelector('[data-node=\"%s\"] [data-value=\"%s\"]'); return e ? e.textContent : null;" % (node, port))

    def add(kind, node):
        Select(driver.find_element(By.CSS_SELECTOR, 'select[data-action="add"]')).select_by_visible_text(kind)
        wait_for(lambda: node_exists(node), "the added " + node)

    def type_into(node, param, text):
        field = wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, '[data-node="%s"] input[data-param="%s"]' % (node, param)),
                         "the field %s.%s" % (node, param))[0]
        field.click()
        field.send_keys(Keys.CONTROL, "a")
        field.send_keys(text, Keys.ENTER)

    def port(node, direction, name):
        return driver.find_element(By.CSS_SELECTOR, '[data-port="%s.%s"][data-direction="%s"]' % (node, name, direction))

    def output(node, port):
        state = json.load(urllib.request.urlopen(URL + "state.json"))
        return state["outputs"].get(node, {}).get(port)

    def drag(source, target):
        driver.execute_script("arguments[0].scrollIntoView({block: 'center', inline: 'center'});", source)
        ActionChains(driver).move_to_element(source).click_and_hold().move_to_element(target).release().perform()

    add("number", "number1")
    add("number", "number2")
    add("multiply", "multiply1")
    type_into("number1", "value", "12.5")
    wait_for(lambda: value("number1", "value") == "value = 12.5", "number1 = 12.5")
    type_into("number2", "value", "4")
    wait_for(lambda: value("number2", "value") == "value = 4", "number2 = 4")
    drag(port("number1", "out", "value"), port("multiply1", "in", "a"))
    wait_for(lambda: len(driver.execute_script("return document.querySelectorAll('path.edge')")) == 1, "the first edge drawn")
    drag(port("number2", "out", "value"), port("multiply1", "in", "b"))
    wait_for(lambda: value("multiply1", "result") == "result = 50", "multiply1 = 50")
    add("text", "text1")
    wait_for(lambda: output("text1", "value") == "", "text1's first value")
    area = wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, '[data-node="text1"] textarea[data-param="value"]'),
                    "text1's multi-line field")[0]
    events = driver.execute_script("return window.flowEventCount")
    area.click()
    area.send_keys("first line", Keys.ENTER, "  second line: a + b")
    area.send_keys(Keys.CONTROL, Keys.ENTER)
    wait_for(lambda: output("text1", "value") == "first line\n  second line: a + b", "text1 = the two lines")
    wait_for(lambda: driver.execute_script("return window.flowEventCount") >= events + 1, "the pass's event")
    if driver.execute_script("return window.flowEventCount") != events + 1:
        fail("Enter in the multi-line field committed (%d passes, not 1)" % (driver.execute_script("return window.flowEventCount") - events))
    driver.find_element(By.CSS_SELECTOR, '[data-action="save"]').click()
    wait_for(lambda: "saved to" in driver.find_element(By.ID, "status").text, "the save")
    errors = [entry for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"]
    if errors:
        fail("console errors: %s" % errors)
    print("browser build: passed (a calculator built from an empty document by pointer and keys, saved)")
finally:
    driver.quit()
