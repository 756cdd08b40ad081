"""Builds the penguins report (Examples/penguins/report.flow.json) from nothing in the page of
`flow serve EMPTY.flow.json`, in headless Chromium, by pointer and keys only: every node from
the palette (its required params typed into the palette's dialog, multi-line texts whole), its other params typed into
its fields, every edge dragged from an output's circle to an input's circle; the table of every
table node is checked to show its columns and rows in the node; then Save.
`Scripts/browser-test.sh` then runs `flow run` on the saved file and compares its output files
with those of the example.

The page gives each added node an id after its kind (`readCSV1`, `sort2`, …); the mapping from
the example's ids is written to MAP (JSON) for the comparison.

usage: browser_penguins.py URL EXAMPLE MAP
"""
import json
import sys

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

import browser_support
from browser_support import answer_prompt, chrome, drag, fail, wait_for

URL, EXAMPLE, MAP = sys.argv[1], sys.argv[2], sys.argv[3]
example = json.load(open(EXAMPLE))


def ordered(document):
    """The nodes in a topological order (Kahn's, the file's order among the ready ones)."""
    nodes = document["nodes"]
    waiting = {node["id"]: 0 for node in nodes}
    for edge in document["edges"]:
        waiting[edge["targetNodeID"]] += 1
    done, order = set(), []
    while len(order) < len(nodes):
        node = next(node for node in nodes if node["id"] not in done and waiting[node["id"]] == 0)
        done.add(node["id"])
        order.append(node)
        for edge in document["edges"]:
            if edge["sourceNodeID"] == node["id"]:
                waiting[edge["targetNodeID"]] -= 1
    return order


def text(value):
    """A param as the page's fields and prompts take it: text as is, the rest as JSON."""
    return value if isinstance(value, str) else json.dumps(value)


browser_support.LABEL = "browser penguins"
driver = chrome(4200, 3200)
try:
    driver.get(URL)
    wait_for(lambda: driver.execute_script("return window.flowEventCount >= 1"), "the first event")

    def node_exists(node):
        return driver.execute_script("return document.querySelector('[data-node=\"%s\"]') !== null" % node)

    def revision():
        return driver.execute_script("return window.flowRevision")

    def rejection():
        return driver.execute_script("const r = document.querySelector('.node.rejected .rejection'); return r ? r.textContent : '';")

    def type_into(node, param, value):
        field = wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, '[data-node="%s"] [data-param="%s"]' % (node, param)),
                         "the field %s.%s" % (node, param))[0]
        if field.get_attribute("value") == value:
            return
        field.click()
        field.send_keys(Keys.CONTROL, "a")
        if field.tag_name == "textarea":  # a text: Enter is a new line, Ctrl+Enter commits
            field.send_keys(value)
            field.send_keys(Keys.CONTROL, Keys.ENTER)
        else:
            field.send_keys(value, Keys.ENTER)
        wait_for(lambda: driver.execute_script(
            "const n = document.querySelector('[data-node=\"%s\"]'); const f = n && n.querySelector('[data-param=\"%s\"]');"
            " const same = (a, b) => { try { return JSON.stringify(JSON.parse(a)) === JSON.stringify(JSON.parse(b)); }"
            " catch (e) { return a === b; } };"
            " return f !== null && same(f.value, arguments[0]) && document.activeElement !== f;" % (node, param), value)
            or rejection(), "%s.%s = %s" % (node, param, value))
        if rejection():
            fail("%s.%s refused: %s" % (node, param, rejection()))

    # What the page saw of each drag (for the message when an edge is not drawn): the elements
    # under the pointer at its down and up, and the requests posted and answered.
    driver.execute_script("""
        window.flowTrace = [];
        const where = (e) => e.type + ' ' + (e.target && e.target.outerHTML ? e.target.outerHTML.slice(0, 90) : String(e.target))
                              + ' @' + e.clientX + ',' + e.clientY;
        document.addEventListener('pointerdown', (e) => window.flowTrace.push(where(e)), true);
        document.addEventListener('pointerup', (e) => window.flowTrace.push(where(e) + ' under: '
            + ((document.elementFromPoint(e.clientX, e.clientY) || {}).outerHTML || '').slice(0, 90)), true);
        const post = window.flowPost;
        window.flowPost = (path, body) => { window.flowTrace.push('post ' + path);
            return post(path, body).then((r) => { window.flowTrace.push('answered ' + path + ' ' + r.status); return r; }); };""")

    def trace():
        return "the page says %r; busy %s; trace %s" % (
            driver.find_element(By.ID, "status").text, driver.execute_script("return window.flowBusy()"),
            driver.execute_script("return window.flowTrace.slice(-6)"))

    palette = Select(driver.find_element(By.CSS_SELECTOR, 'select[data-action="add"]'))
    ids, counts = {}, {}
    for node in ordered(example):
        kind, params = node["data"]["kind"], node["data"].get("params", {})
        counts[kind] = counts.get(kind, 0) + 1
        ident = kind[0].lower() + kind[1:] + str(counts[kind])
        ids[node["id"]] = ident
        option = driver.find_element(By.CSS_SELECTOR, 'select[data-action="add"] option[data-kind="%s"]' % kind)
        required = [entry.split(":")[0] for entry in option.get_attribute("data-required").split()]
        palette.select_by_visible_text(kind)
        if required:
            # Typed whole into the dialog's fields, a text's line breaks included.
            answer_prompt(driver, kind, {name: text(params[name]) for name in required})
        wait_for(lambda: node_exists(ident), "the added " + ident)
        for name, value in params.items():
            if name not in required:
                type_into(ident, name, text(value) if isinstance(value, str) else text(value).replace("\n", " "))
        for edge in example["edges"]:
            if edge["targetNodeID"] == node["id"]:
                source = ids[edge["sourceNodeID"]]
                # Not while a picture drawn again is on its way (it would replace the handles).
                wait_for(lambda: driver.execute_script("return window.flowBusy() === 0"), "the page to apply its events")
                edges = driver.execute_script("return document.querySelectorAll('path.edge').length")
                drag(driver, lambda: driver.find_element(
                    By.CSS_SELECTOR, '[data-port="%s.%s"][data-direction="out"]' % (source, edge["sourceHandleID"])),
                    lambda: wait_for(lambda: driver.find_elements(
                        By.CSS_SELECTOR, '[data-port="%s.%s"][data-direction="in"]' % (ident, edge["targetHandleID"])),
                        "the input %s.%s" % (ident, edge["targetHandleID"]))[0])
                wait_for(lambda: driver.execute_script("return document.querySelectorAll('path.edge').length") == edges + 1,
                         "the edge %s.%s -> %s.%s" % (source, edge["sourceHandleID"], ident, edge["targetHandleID"]),
                         timeout=30,  # a loaded machine draws the picture again slowly
                         detail=trace)

    # Every table shows its columns and rows in its node.
    def table_lines(node):
        return driver.execute_script(
            "return Array.from(document.querySelectorAll('[data-node=\"%s\"] text.table')).map((t) => t.textContent)" % node)
    wait_for(lambda: len(table_lines(ids["ordered"])) >= 3, "the sorted report's rows in its node")
    for original in ["penguins", "clean", "measured", "withKg", "groups", "named", "ordered", "heaviest", "top"]:
        lines = table_lines(ids[original])
        if len(lines) < 2 or "species" not in " ".join(lines):
            fail("%s (%s) shows no table rows: %s" % (ids[original], original, lines))

    driver.find_element(By.CSS_SELECTOR, '[data-action="save"]').click()
    wait_for(lambda: "saved to" in driver.find_element(By.ID, "status").text, "the save")
    errors = [entry for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"]
    if errors:
        fail("console errors: %s" % errors)
    json.dump(ids, open(MAP, "w"))
    print("browser penguins: passed (%d nodes and %d edges built by pointer and keys, tables shown in the nodes, saved)"
          % (len(example["nodes"]), len(example["edges"])))
finally:
    driver.quit()
