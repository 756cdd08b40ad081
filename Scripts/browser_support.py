"""What the browser scripts share: failing with their label, waiting for a condition, and a
headless Chromium with the browser log kept (for console errors)."""
import sys
import time

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains

LABEL = "browser test"


def fail(message):
    print(LABEL + ": FAILED:", message)
    sys.exit(1)


def wait_for(condition, what, timeout=10.0, detail=None):
    """`condition()` once it is true; fails after `timeout` s, saying `what` (and `detail()`)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.02)
    fail("timed out waiting for " + what + (" (" + detail() + ")" if detail else ""))


def chrome(width, height):
    options = webdriver.ChromeOptions()
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=%d,%d" % (width, height)]:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def drag(driver, source, target, tries=3):
    """A pointer drag from the element `source()` finds to the one `target()` finds (each found
    again when a picture drawn anew replaced it before the drag began: the page holds a new
    picture while a drag is under way, not before)."""
    for attempt in range(tries):
        try:
            start, end = source(), target()
            driver.execute_script("arguments[0].scrollIntoView({block: 'center', inline: 'center'});", start)
            # Short pointer moves (WebDriver's default takes 250 ms each): the page reads only
            # where the pointer goes down and comes up.
            ActionChains(driver, duration=20).move_to_element(start).click_and_hold().move_to_element(end).release().perform()
            return
        except StaleElementReferenceException:
            if attempt == tries - 1:
                raise


def click_edge(driver, edge_id):
    """Clicks a pixel of the edge `data-edge=edge_id` where the line itself is hit (a point of
    the line from its middle outwards); fails when no pixel of it can be clicked."""
    from selenium.webdriver.common.actions.action_builder import ActionBuilder
    point = driver.execute_script("""
        const path = document.querySelector('[data-edge="' + arguments[0] + '"]');
        if (path === null) { return null; }
        path.scrollIntoView({block: 'center', inline: 'center'});
        const m = path.getScreenCTM(), length = path.getTotalLength();
        for (let step = 0; step <= 50; step += 1) {
          const at = length / 2 + (step % 2 ? 1 : -1) * Math.ceil(step / 2) * length / 102;
          const p = path.getPointAtLength(at);
          const x = Math.round(m.a * p.x + m.c * p.y + m.e), y = Math.round(m.b * p.x + m.d * p.y + m.f);
          if (document.elementFromPoint(x, y) === path) { return [x, y]; }
        }
        return null;""", edge_id)
    if point is None:
        fail("no pixel of the edge %s can be clicked" % edge_id)
    actions = ActionBuilder(driver)
    actions.pointer_action.move_to_location(point[0], point[1]).click()
    actions.perform()


def answer_prompt(driver, kind, values):
    """Types `values` ({name: text}) into the palette's dialog for `kind`'s required params, by
    keys (a text's line breaks as Enter in its multi-line field), and adds the node with
    Ctrl+Enter; fails when a field is missing."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    form = wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, 'form.prompt[data-kind="%s"]' % kind),
                    "the palette asking for %s's required params" % kind)[0]
    field = None
    for name, text in values.items():
        found = form.find_elements(By.CSS_SELECTOR, '[data-prompt="%s"]' % name)
        if not found:
            fail("the dialog for %s has no field %s" % (kind, name))
        field = found[0]
        field.click()
        field.send_keys(text)
    field.send_keys(Keys.CONTROL, Keys.ENTER)
    wait_for(lambda: not driver.find_elements(By.CSS_SELECTOR, "form.prompt"), "the dialog for %s to close" % kind)
