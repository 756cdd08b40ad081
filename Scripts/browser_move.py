"""Moves, undoes and redoes in the page of `flow serve COPY-OF-CALCULATOR.flow.json`, in
headless Chromium, by pointer and keys only (no page functions called):

- a drag on `price`'s title bar moves it; the picture draws it where it was dropped; Save writes
  the new position and leaves every other byte of the document as the Save before the move
  wrote it;
- Ctrl+Z / Ctrl+Shift+Z / Ctrl+Y undo and redo the move, a param edit, an added node and a
  connection, each as one step.

usage: browser_move.py URL FILE   (FILE: the served document, read after each Save)
"""
import difflib
import math
import json
import sys

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

import browser_support
from browser_support import chrome, fail, wait_for

URL, FILE = sys.argv[1], sys.argv[2]

browser_support.LABEL = "browser move"
driver = chrome(1600, 1200)
try:
    driver.get(URL)
    wait_for(lambda: driver.execute_script("return window.flowEventCount >= 1"), "the first event")

    def box(node):
        return driver.execute_script(
            "const r = document.querySelector('[data-node=\"%s\"] rect.body');"
            " return r ? [Number(r.getAttribute('x')), Number(r.getAttribute('y'))] : null;" % node)

    def value(node, port):
        return driver.execute_script(
            "const e = document.querySelector('[data-node=\"%s\"] [data-value=\"%s\"]'); return e ? e.textContent : null;" % (node, port))

    def node_exists(node):
        return driver.execute_script("return document.querySelector('[data-node=\"%s\"]') !== null" % node)

    def status():
        return driver.find_element(By.ID, "status").text

    def save():
        driver.execute_script("document.getElementById('status').textContent = '';")
        driver.find_element(By.CSS_SELECTOR, '[data-action="save"]').click()
        wait_for(lambda: "saved to" in status(), "the save")
        with open(FILE, "rb") as handle:
            return handle.read()

    def keys(*combo):
        driver.find_element(By.CSS_SELECTOR, "header .file").click()  # no field has the focus
        chain = ActionChains(driver)
        for key in combo[:-1]:
            chain = chain.key_down(key)
        chain = chain.send_keys(combo[-1])
        for key in reversed(combo[:-1]):
            chain = chain.key_up(key)
        chain.perform()

    undo = (Keys.CONTROL, "z")
    redo = (Keys.CONTROL, Keys.SHIFT, "z")
    redo_y = (Keys.CONTROL, "y")

    # Move price by its title bar; Save; only its position differs from the Save before.
    before = save()
    x0, y0 = box("price")
    dx, dy = 140, 260
    x1, y1 = math.floor(x0 + dx + 0.5), math.floor(y0 + dy + 0.5)  # the page rounds as Math.round
    title = driver.find_element(By.CSS_SELECTOR, '[data-node="price"] .title')
    ActionChains(driver).move_to_element(title).click_and_hold().move_by_offset(dx // 2, dy // 2) \
        .move_by_offset(dx - dx // 2, dy - dy // 2).release().perform()
    wait_for(lambda: box("price") == [x1, y1], "price drawn where it was dropped (%s)" % box("price"))
    after = save()
    old, new = json.loads(before), json.loads(after)
    for node in old["nodes"]:
        if node["id"] == "price":
            node["position"] = [x1, y1]
    if old != new:
        fail("the saved document differs beyond price's position")
    changed = [line for line in difflib.ndiff(before.decode().splitlines(), after.decode().splitlines())
               if line.startswith(("- ", "+ "))]
    if len(changed) > 4 or any("position" not in line and not line[2:].strip(" ,[]").replace(".", "").isdigit()
                               for line in changed):
        fail("the Save after the move changed more bytes than the position: %s" % changed)

    # Undo and redo the move.
    keys(*undo)
    wait_for(lambda: box("price") == [x0, y0], "the move undone")
    keys(*redo)
    wait_for(lambda: box("price") == [x1, y1], "the move redone (Ctrl+Shift+Z)")
    keys(*undo)
    wait_for(lambda: box("price") == [x0, y0], "the move undone again")
    keys(*redo_y)
    wait_for(lambda: box("price") == [x1, y1], "the move redone (Ctrl+Y)")

    # A param edit.
    field = driver.find_element(By.CSS_SELECTOR, '[data-node="quantity"] input[data-param="value"]')
    field.click()
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys("5", Keys.ENTER)
    wait_for(lambda: value("total", "result") == "result = 75", "total = 75 after the edit")
    keys(*undo)
    wait_for(lambda: value("total", "result") == "result = 60", "the edit undone")
    keys(*redo)
    wait_for(lambda: value("total", "result") == "result = 75", "the edit redone")

    # An added node, then a connection to it.
    Select(driver.find_element(By.CSS_SELECTOR, 'select[data-action="add"]')).select_by_visible_text("add")
    wait_for(lambda: node_exists("add1"), "add1 added")
    keys(*undo)
    wait_for(lambda: not node_exists("add1"), "the addition undone")
    keys(*redo)
    wait_for(lambda: node_exists("add1"), "the addition redone")
    source = driver.find_element(By.CSS_SELECTOR, '[data-node="total"] circle[data-out="result"]')
    target = driver.find_element(By.CSS_SELECTOR, '[data-node="add1"] circle[data-in="a"]')
    ActionChains(driver).move_to_element(source).click_and_hold().move_to_element(target).release().perform()
    wait_for(lambda: value("add1", "result") == "result = 75", "add1 connected")
    keys(*undo)
    wait_for(lambda: value("add1", "result") == "result = 0", "the connection undone")
    keys(*redo)
    wait_for(lambda: value("add1", "result") == "result = 75", "the connection redone")

    errors = [entry for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"]
    if errors:
        fail("console errors: %s" % errors)
    print("browser move: passed (a title-bar drag moves a node, Save writes only its position; "
          "undo/redo by keys of a move, an edit, an addition and a connection)")
finally:
    driver.quit()
