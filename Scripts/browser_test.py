"""Drives the page of `flow serve Examples/calculator.flow.json` in headless Chromium.

Checks: the page shows the values; editing `quantity` updates exactly its descendants without
a reload; a refused edit shows its reason beside the node and changes nothing; undo restores
the values; the editor adds nodes from the palette, connects them by dragging from an output's
circle to an input's circle (the handles found by `data-port="<node>.<port>"` and
`data-direction`; a cycle is refused with its message at the handle, `data-message`), selects the
new edge (`data-edge="<id>"`) by a click on its line and deletes it with the Delete key, deletes
the selected node, and undo brings each back; the console has no errors. Prints the edit ->
update latency the page measured.
"""
import statistics
import sys
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

import browser_support
from browser_support import answer_prompt, chrome, click_edge, fail, wait_for

URL = sys.argv[1]
SCREENSHOT = sys.argv[2] if len(sys.argv) > 2 else ""


browser_support.LABEL = "browser test"
driver = chrome(1500, 720)
try:
    driver.get(URL)
    wait_for(lambda: driver.execute_script("return window.flowEventCount >= 1"), "the first event")

    def values():
        return driver.execute_script("""
            const out = {};
            document.querySelectorAll('[data-node]').forEach((node) => {
              node.querySelectorAll('[data-value]').forEach((port) => { out[node.dataset.node + '.' + port.dataset.value] = port.textContent; });
            });
            return out;""")

    before = values()
    if before.get("total.result") != "result = 60":
        fail("the page shows total %r, not 60" % before.get("total.result"))
    driver.execute_script("window.flowMarker = 'no reload';")

    def edit(node, text):
        field = driver.find_element(By.CSS_SELECTOR, '[data-node="%s"] input[data-param="value"]' % node)
        field.click()
        field.send_keys(Keys.CONTROL, "a")
        field.send_keys(text, Keys.ENTER)

    # Edit quantity 4 -> 5: subtotal, tax, total, perPerson and tip change; price and taxRate do not.
    count = driver.execute_script("return window.flowEventCount")
    edit("quantity", "5")
    wait_for(lambda: values().get("total.result") == "result = 75", "total = 75")
    after = values()
    changed = sorted(key for key in after if after[key] != before[key])
    expected = ["perPerson.result", "quantity.value", "subtotal.result", "tax.result", "tip.result", "total.result"]
    if changed != expected:
        fail("changed %s, expected %s" % (changed, expected))
    ran = sorted(driver.execute_script("return Array.from(document.querySelectorAll('.node.ran')).map((n) => n.dataset.node)"))
    if ran != ["perPerson", "quantity", "subtotal", "tax", "tip", "total"]:
        fail("the nodes marked as ran are %s" % ran)
    if driver.execute_script("return window.flowMarker") != "no reload":
        fail("the page reloaded")
    if driver.execute_script("return window.flowEventCount") != count + 1:
        fail("one edit should bring one event")

    # Latency: several edits, each measured in the page from the commit to the updated values.
    latencies = [driver.execute_script("return window.flowLastEditLatency")]
    for number in [6, 7, 8, 9, 10, 11, 12, 13, 14, 13]:
        driver.execute_script("window.flowLastEditLatency = undefined;")
        edit("quantity", str(number))
        wait_for(lambda: driver.execute_script("return window.flowLastEditLatency !== undefined"), "the update for %d" % number)
        if values().get("subtotal.result") != "result = %g" % (12.5 * number):
            fail("subtotal for quantity %d is %r" % (number, values().get("subtotal.result")))
        latencies.append(driver.execute_script("return window.flowLastEditLatency"))

    # A refused edit: the reason beside the node, nothing changed.
    settled = values()
    edit("price", "twelve")
    reason = wait_for(lambda: "".join(element.text for element in driver.find_elements(By.CSS_SELECTOR, '[data-node="price"] .rejection')),
                      "the rejection")
    if "expects a number" not in reason:
        fail("the rejection says %r" % reason)
    if values() != settled:
        fail("a refused edit changed values")
    price = driver.find_element(By.CSS_SELECTOR, '[data-node="price"] input[data-param="value"]').get_attribute("value")
    if price != "12.5":
        fail("the refused field shows %r, not its value" % price)

    # Undo with the button brings quantity back to 14 (the value before the last edit).
    driver.find_element(By.CSS_SELECTOR, "body").click()
    driver.find_element(By.CSS_SELECTOR, '[data-action="undo"]').click()
    wait_for(lambda: values().get("quantity.value") == "value = 14", "undo")

    edit("quantity", "5")
    wait_for(lambda: values().get("total.result") == "result = 75", "total = 75 again")
    driver.execute_script("document.activeElement.blur();")
    time.sleep(1.0)  # let the flash settle for the picture
    if SCREENSHOT:
        width, height = driver.execute_script(
            "const s = document.querySelector('svg.flow-graph'); return [s.width.baseVal.value + 60, s.height.baseVal.value + 120];")
        driver.set_window_size(max(800, int(width)), max(400, int(height) + 160))
        time.sleep(0.3)
        driver.save_screenshot(SCREENSHOT)
        print("browser test: screenshot", SCREENSHOT)

    # The editor, by pointer and keys: add from the palette, drag to connect, refuse a cycle,
    # select and delete, undo.
    driver.set_window_size(2400, 1400)
    def node_exists(node):
        return driver.execute_script("return document.querySelector('[data-node=\"%s\"]') !== null" % node)
    def port(node, direction, name):
        return driver.find_element(By.CSS_SELECTOR, '[data-port="%s.%s"][data-direction="%s"]' % (node, name, direction))
    def drag(source, target):
        driver.execute_script("arguments[0].scrollIntoView({block: 'center', inline: 'center'});", source)
        ActionChains(driver).move_to_element(source).click_and_hold().move_to_element(target).release().perform()
    Select(driver.find_element(By.CSS_SELECTOR, 'select[data-action="add"]')).select_by_visible_text("add")
    wait_for(lambda: node_exists("add1"), "the added node add1")
    drag(port("total", "out", "result"), port("add1", "in", "a"))
    wait_for(lambda: values().get("add1.result") == "result = 75", "add1 = total + 0 after the drag")
    status = driver.find_element(By.ID, "status")
    drag(port("add1", "out", "result"), port("subtotal", "in", "a"))
    wait_for(lambda: "cycle" in status.text, "the cycle refused with its message")
    message = wait_for(lambda: driver.execute_script(
        "const m = document.querySelector('[data-message]'); return m ? [m.getAttribute('data-message'), m.textContent] : null;"),
        "the refusal's message at the handle")
    if "cycle" not in message[0] or message[0] != message[1]:
        fail("the refusal at the handle says %r" % (message,))
    if values().get("subtotal.result") != "result = 62.5":
        fail("a refused connection changed subtotal to %r" % values().get("subtotal.result"))
    Select(driver.find_element(By.CSS_SELECTOR, 'select[data-action="add"]')).select_by_visible_text("filter")
    answer_prompt(driver, "filter", {"where": "result > 100"})
    wait_for(lambda: node_exists("filter1"), "the added filter1 with its required param")
    # The edge total -> add1 by its id: a click on its line selects it, Delete removes it (add1's
    # input a back to 0), undo brings it back.
    edge_id = "total.result->add1.a"
    def edge_exists():
        return driver.execute_script("return document.querySelector('[data-edge=\"%s\"]') !== null" % edge_id)
    if not edge_exists():
        fail("no element carries data-edge=%r: %s" % (edge_id, driver.execute_script(
            "return Array.from(document.querySelectorAll('[data-edge]')).map((e) => e.dataset.edge)")))
    click_edge(driver, edge_id)
    wait_for(lambda: driver.execute_script("return document.querySelector('.edge.selected[data-edge=\"%s\"]') !== null" % edge_id),
             "the edge selected by a click")
    ActionChains(driver).send_keys(Keys.DELETE).perform()
    wait_for(lambda: not edge_exists() and values().get("add1.result") == "result = 0", "the edge deleted (add1 = 0)")
    driver.find_element(By.CSS_SELECTOR, '[data-action="undo"]').click()
    wait_for(lambda: edge_exists() and values().get("add1.result") == "result = 75", "the edge back after undo")
    driver.find_element(By.CSS_SELECTOR, '[data-node="add1"] .title').click()
    ActionChains(driver).send_keys(Keys.DELETE).perform()
    wait_for(lambda: not node_exists("add1"), "add1 deleted")
    driver.find_element(By.CSS_SELECTOR, '[data-action="undo"]').click()
    wait_for(lambda: node_exists("add1") and values().get("add1.result") == "result = 75", "add1 back after undo")

    errors = [entry for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"]
    if errors:
        fail("console errors: %s" % errors)
    latencies = [value for value in latencies if isinstance(value, (int, float))]
    if not latencies:
        fail("the page measured no latency")
    print("browser test: edit -> update latency in the page over %d edits: min %.1f ms, median %.1f ms, max %.1f ms"
          % (len(latencies), min(latencies), statistics.median(latencies), max(latencies)))
    print("browser test: passed (descendants updated without reload, refused edit shown, undo, "
          "add/connect/refused cycle at its handle/edge and node delete by pointer and keys, no console errors)")
finally:
    driver.quit()
