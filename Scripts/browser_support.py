"""What the browser scripts share: failing with their label, waiting for a condition, and a
headless Chromium with the browser log kept (for console errors)."""
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

LABEL = "browser test"


def fail(message):
    print(LABEL + ": FAILED:", message)
    sys.exit(1)


def wait_for(condition, what, timeout=10.0):
    deadline = time.time() + timeout
    while time.time() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.02)
    fail("timed out waiting for " + what)


def chrome(width, height):
    options = webdriver.ChromeOptions()
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=%d,%d" % (width, height)]:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
