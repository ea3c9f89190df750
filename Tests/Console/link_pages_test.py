#!/usr/bin/env python3
"""The public listener's pages in a real browser (API.md §7 step 2, step 6, §9).

Starts the built LinkServer (argv[1]) with an iOS app with landing pages and an Android app with a scheme, and opens
its links in Debian's headless Chromium as an iPhone, an Android in-app browser and a Mac's Safari would (the agent
set through the DevTools protocol; `links.example.com` and the stores resolve to 127.0.0.1, so the browser's
navigation to a store is seen in its address, though nothing answers there). Runs the pages' own scripts:
- the landing page's button copies the link with its `lst` token (the Clipboard API, else a selected input and
  `document.execCommand("copy")`), then opens the store, even when both copies fail; the token copied is live;
- the intent page opens the Play Store after 1.5 s when the app did not take the link;
- the platform check reloads with `_lsp=ios` on a touch screen and `_lsp=desktop` without one;
- the pages load nothing from elsewhere and name their language.
Exits 1 on the first failed check, with the server log.
"""
import json
import os
import sys
import time
import urllib.parse

from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from console_test import CONFIG, Server, run_checks

IPHONE = ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
          "Version/17.0 Mobile/15E148 Safari/604.1")
ANDROID_IN_APP = ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 "
                  "Mobile Safari/537.36 Instagram 300.0.0.0")
MAC_SAFARI = ("Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) "
              "Version/17.0 Safari/605.1.15")
APP_STORE = "https://apps.apple.com/app/id123456789"
ROUTE = {"path": "/p/:id", "name": "p", "link": {"preview": {"title": "Item {id}"}}}


def config():
    settings = json.loads(json.dumps(CONFIG))
    settings["links"]["apps"]["ios"]["landingPage"] = True
    settings["links"]["apps"]["android"]["scheme"] = "myapp"
    return settings


class Browser:
    def __init__(self, server):
        self.server = server
        options = webdriver.ChromeOptions()
        options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
        hosts = ["links.example.com", "apps.apple.com", "play.google.com", "www.example.com"]
        for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                         "--no-first-run", "--disable-background-networking", "--disable-component-update",
                         "--host-resolver-rules=" + ", ".join(f"MAP {host} 127.0.0.1" for host in hosts)]:
            options.add_argument(argument)
        service = Service(executable_path=os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
        self.driver = webdriver.Chrome(options=options, service=service)
        self.driver.set_page_load_timeout(20)

    def as_agent(self, agent, touch_points=0):
        self.driver.execute_cdp_cmd("Network.setUserAgentOverride", {"userAgent": agent})
        self.driver.execute_cdp_cmd(
            "Emulation.setTouchEmulationEnabled", {"enabled": touch_points > 0, "maxTouchPoints": touch_points or 1})

    def link(self, path):
        return f"http://links.example.com:{self.server.links_port}{path}"

    def open(self, path):
        self.driver.get(self.link(path))

    def wait_url(self, prefix, what, timeout=10):
        try:
            WebDriverWait(self.driver, timeout, poll_frequency=0.1).until(
                lambda driver: driver.current_url.startswith(prefix))
        except TimeoutException:
            raise AssertionError(f"timed out waiting for {what}: at {self.driver.current_url}") from None

    def script(self, source, *arguments):
        return self.driver.execute_script(source, *arguments)

    def stored(self, key):
        """What a stub saved in the links origin's storage before the page went to the store."""
        self.open("/robots.txt")
        return self.script("return localStorage.getItem(arguments[0])", key)

    def loads_nothing_from_elsewhere(self):
        origin = f"http://links.example.com:{self.server.links_port}"
        elsewhere = [entry for entry in self.script(
            "return performance.getEntriesByType('resource').map(e => e.name)") if not entry.startswith(origin)]
        assert elsewhere == [], elsewhere
        assert self.script("return document.documentElement.lang"), "the page names no language"


def landing_page_copies_the_link_with_a_live_token_then_opens_the_store(server, browser):
    """§9: the button copies the link as clicked with `lst=<token>` added (the Clipboard API), then opens the
    store URL; the token is one the app can claim."""
    browser.as_agent(IPHONE)
    browser.open("/p/7")
    assert browser.script("return document.querySelector('h1').textContent") == "Item 7"
    browser.loads_nothing_from_elsewhere()
    assert browser.script(
        "return document.querySelector('meta[name=apple-itunes-app]').content").startswith("app-id=123456789, ")
    browser.script("localStorage.clear();"
                   "Object.defineProperty(navigator, 'clipboard', {value: {writeText: function (text) {"
                   "  localStorage.setItem('copied', text); return Promise.resolve(); }}});")
    browser.driver.find_element(By.ID, "get").click()
    browser.wait_url(APP_STORE, "the App Store")
    copied = browser.stored("copied")
    assert copied and copied.startswith(f"https://links.example.com:{server.links_port}/p/7?lst="), copied
    token = urllib.parse.parse_qs(urllib.parse.urlsplit(copied).query)["lst"][0]
    status, _, body = server.call("POST", "/v1/deferred/claim", {"token": token, "installId": "browser"})
    assert status == 200, (status, body)
    claim = json.loads(body)
    assert claim["platform"] == "ios" and claim["resolution"]["route"]["name"] == "p", claim


def without_the_clipboard_api_the_input_is_copied(server, browser):
    """§9: without `navigator.clipboard` (a page served over plain HTTP has none), the hidden input holding the
    link is selected and copied with `document.execCommand("copy")`, then the store opens."""
    browser.as_agent(IPHONE)
    browser.open("/p/8")
    assert browser.script("return typeof navigator.clipboard") == "undefined"
    browser.script("localStorage.clear();"
                   "document.execCommand = function (command) {"
                   "  localStorage.setItem('copied', command + ' ' + window.getSelection().toString()"
                   "    + '|' + document.activeElement.value); return true; };")
    browser.driver.find_element(By.ID, "get").click()
    browser.wait_url(APP_STORE, "the App Store")
    copied = browser.stored("copied")
    assert copied and copied.startswith("copy ") and "/p/8?lst=" in copied.split("|")[1], copied


def when_both_copies_fail_the_store_still_opens(server, browser):
    """§9: "then opens the store URL, even if both copies failed"."""
    browser.as_agent(IPHONE)
    browser.open("/p/9")
    browser.script("Object.defineProperty(navigator, 'clipboard', {value: {writeText: function () {"
                   "  return Promise.reject(new Error('denied')); }}});"
                   "document.execCommand = function () { throw new Error('no clipboard'); };")
    browser.driver.find_element(By.ID, "get").click()
    browser.wait_url(APP_STORE, "the App Store")


def intent_page_opens_the_play_store_when_the_app_does_not(server, browser):
    """§7 step 6: an Android in-app browser gets the page whose button is the intent link; when the app does not
    take it, the page opens the Play Store (with the token and the link in its referrer) after 1.5 s. The page's
    timer is held (its delay read, its function run when the checks are done), so a slow machine cannot let it
    fire first."""
    browser.as_agent(ANDROID_IN_APP)
    held = browser.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": (
        "window.heldTimers = [];"
        "window.setTimeout = function (run, delay) { window.heldTimers.push({run: run, delay: delay}); return 0; };")})
    try:
        browser.open("/p/10")
        intent = browser.driver.find_element(By.LINK_TEXT, "Open the app").get_attribute("href")
        assert intent.startswith("intent://links.example.com") and "#Intent;" in intent, intent
        assert "package=com.example.app" in intent, intent
        browser.loads_nothing_from_elsewhere()
        assert browser.script("return window.heldTimers.map(t => t.delay)") == [1500]
        browser.script("window.heldTimers[0].run()")
        browser.wait_url("https://play.google.com/store/apps/details?id=com.example.app", "the Play Store")
    finally:
        browser.driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": held["identifier"]})
    referrer = urllib.parse.parse_qs(urllib.parse.urlsplit(browser.driver.current_url).query)["referrer"][0]
    items = urllib.parse.parse_qs(referrer)
    assert "linkserver_token" in items and items["linkserver_link"] == [
        f"https://links.example.com:{server.links_port}/p/10"], items


def platform_check_asks_the_browser_for_a_touch_screen(server, browser):
    """§7 step 2: Safari on a Mac or an iPad looks the same; the page reloads the link as clicked with `_lsp=ios`
    when `navigator.maxTouchPoints > 1` (an iPad), else with `_lsp=desktop`. (The link as clicked is `https`, served
    behind TLS in production: the follow-up is seen in the browser's address, not loaded from this plain listener.)"""
    clicked = f"https://links.example.com:{server.links_port}"
    browser.as_agent(MAC_SAFARI, touch_points=5)
    browser.open("/p/11")
    browser.wait_url(clicked + "/p/11?_lsp=ios", "the iOS follow-up")
    browser.as_agent(MAC_SAFARI, touch_points=0)
    browser.open("/p/12")
    browser.wait_url(clicked + "/p/12?_lsp=desktop", "the desktop follow-up")


CHECKS = [
    landing_page_copies_the_link_with_a_live_token_then_opens_the_store,
    without_the_clipboard_api_the_input_is_copied,
    when_both_copies_fail_the_store_still_opens,
    intent_page_opens_the_play_store_when_the_app_does_not,
    platform_check_asks_the_browser_for_a_touch_screen,
]


def main():
    started = time.time()
    server = Server(sys.argv[1], config=config())
    browser = None
    failed = None
    try:
        status, _, body = server.call("POST", "/v1/routes", ROUTE)
        assert status == 201, (status, body)
        browser = Browser(server)
        failed = run_checks(CHECKS, server, browser)
    finally:
        if browser:
            browser.driver.quit()
        server.finish(failed)
    print(f"link pages test: {'FAILED at ' + failed if failed else 'all checks passed'} in "
          f"{time.time() - started:.1f} s")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
