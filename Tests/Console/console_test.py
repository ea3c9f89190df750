#!/usr/bin/env python3
"""The console in a real browser (API.md §13).

Starts the built LinkServer (argv[1]) on port 0 with an admin token, the example config routes and an iOS and an
Android app, opens /console in Debian's headless Chromium through chromedriver (Selenium, the W3C WebDriver
protocol), and checks each view through the page the way a person would use it: typing into labelled fields,
pressing buttons, reading what is shown. Saves a screenshot of every view at 1440 and 360 pixels wide into
$CONSOLE_SCREENSHOTS. Exits 1 on the first failed check, with the page's text, the browser log and the server log.
"""
import base64
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.error
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException, StaleElementReferenceException, TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

TOKEN = "console-test-admin-token"
READ_TOKEN = "console-test-read-token"
SHOTS = os.environ.get("CONSOLE_SCREENSHOTS", os.path.join(tempfile.gettempdir(), "console-screenshots"))
CONFIG = {
    "links": {
        "hosts": ["links.example.com"],
        "webURL": "https://www.example.com{location}",
        "apps": {
            "ios": {"appIDs": ["ABCDE12345.com.example.app"], "scheme": "myapp",
                    "storeURL": "https://apps.apple.com/app/id123456789"},
            "android": {"package": "com.example.app",
                        "sha256CertFingerprints": [":".join(["AB"] * 32)],
                        "storeURL": "https://play.google.com/store/apps/details?id=com.example.app"},
        },
    }
}


class Server:
    """The real binary on port 0, in a fresh data folder."""

    def __init__(self, binary, read_token=None, config=None):
        self.binary = binary
        self.folder = tempfile.mkdtemp(prefix="console-test-")
        settings = config or CONFIG
        config = os.path.join(self.folder, "linkserver.json")
        with open(config, "w") as file:
            json.dump(settings, file)
        self.log_path = os.path.join(self.folder, "server.log")
        self.log = open(self.log_path, "w")
        env = dict(os.environ, LINK_ADMIN_TOKEN=TOKEN)
        if read_token:
            env["LINK_READ_TOKEN"] = read_token
        self.process = subprocess.Popen(
            [binary, "--host", "127.0.0.1", "--port", "0", "--links-port", "0", "--data-dir",
             os.path.join(self.folder, "data"), "--config", config, "--routes", "config/routes.json"],
            stdout=self.log, stderr=subprocess.STDOUT, env=env)
        self.port = self.links_port = None
        deadline = time.time() + 30
        while time.time() < deadline and not (self.port and self.links_port):
            text = open(self.log_path).read()
            api = re.search(r"(?<!links )listening on http://(?:\[[^\]]*\]|[^:\s]+):(\d+)", text)
            links = re.search(r"links listening on http://(?:\[[^\]]*\]|[^:\s]+):(\d+)", text)
            self.port = api and int(api.group(1))
            self.links_port = links and int(links.group(1))
            if self.process.poll() is not None:
                raise RuntimeError("the server exited:\n" + text)
            time.sleep(0.05)
        if not (self.port and self.links_port):
            self.process.kill()
            raise RuntimeError(f"the server did not report its ports (folder {self.folder}):\n"
                               + open(self.log_path).read())
        self.base = f"http://127.0.0.1:{self.port}"

    def call(self, method, path, body=None, token=TOKEN, port=None, headers=None):
        """An API call behind the console's back (another person, an app, a click)."""
        sent = dict(headers or {})
        if token:
            sent["Authorization"] = f"Bearer {token}"
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            sent["Content-Type"] = "application/json"
        request = urllib.request.Request(
            f"http://127.0.0.1:{port or self.port}{path}", data=data, method=method, headers=sent)
        opener = urllib.request.build_opener(NoRedirect)
        try:
            with opener.open(request, timeout=10) as response:
                return response.status, dict(response.headers), response.read()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read()

    def finish(self, failed):
        """Stops the server; after a failed check prints the end of its log (its folder kept), else removes the
        folder: the data and the log of a run that passed are of no further use."""
        self.stop()
        if failed:
            print("--- server log ---\n" + open(self.log_path).read()[-4000:])
        else:
            shutil.rmtree(self.folder, ignore_errors=True)

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Console:
    """The browser, with waits that read the page."""

    def __init__(self, server):
        self.server = server
        options = webdriver.ChromeOptions()
        options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
        for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                         "--window-size=1440,1000", "--lang=en-US", "--no-first-run",
                         "--disable-background-networking", "--disable-component-update"]:
            options.add_argument(argument)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        service = Service(executable_path=os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
        self.driver = webdriver.Chrome(options=options, service=service)
        self.driver.set_page_load_timeout(20)

    def open(self, view=""):
        self.driver.get(f"{self.server.base}/console{('#' + view) if view else ''}")

    def go(self, view):
        """Navigates with the keyboard-reachable nav link, as a person would."""
        self.find(f'nav a[data-view="{view}"]').click()
        self.wait(lambda: not self.find(f"#view-{view}").get_attribute("hidden"), f"the {view} view to show")

    def find(self, css):
        return self.driver.find_element(By.CSS_SELECTOR, css)

    def finds(self, css):
        return self.driver.find_elements(By.CSS_SELECTOR, css)

    def wait(self, condition, what, timeout=10):
        try:
            # The page replaces what it re-renders: an element read a moment ago may be gone; read again.
            return WebDriverWait(
                self.driver, timeout, poll_frequency=0.1, ignored_exceptions=[StaleElementReferenceException]
            ).until(lambda _: condition())
        except TimeoutException:
            raise AssertionError(f"timed out waiting for {what}") from None

    def wait_text(self, css, text, timeout=10):
        def present():
            for element in self.finds(css):
                if text in element.text:
                    return element
            return None
        return self.wait(present, f"{text!r} in {css}", timeout)

    def type(self, css, text, clear=True):
        element = self.find(css)
        if clear:
            element.clear()
        element.send_keys(text)
        return element

    def select(self, css, value):
        self.driver.execute_script(
            "const s = document.querySelector(arguments[0]); s.value = arguments[1];"
            "s.dispatchEvent(new Event('change', {bubbles: true}));", css, value)

    def answer_confirm(self, question, accept):
        """The page's confirm() dialog: checks what it asks, then presses OK (accept) or Cancel."""
        def dialog():
            try:
                return self.driver.switch_to.alert
            except NoAlertPresentException:
                return None
        alert = self.wait(dialog, f"the question {question!r}")
        assert question in alert.text, alert.text
        if accept:
            alert.accept()
        else:
            alert.dismiss()

    def press(self, element):
        """Clicks an element brought to the middle of the window first, clear of the sticky header."""
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
        element.click()

    def open_route(self, pattern):
        """Opens a route of the tree once the tree has loaded (a load re-renders it closed); returns its details."""
        self.wait(lambda: "Loading" not in self.find('[data-status="routes"]').text, "the routes to load")
        route = self.wait(lambda: self.finds(f'details.route[data-pattern="{pattern}"]'), f"{pattern} in the tree")[0]
        self.press(route.find_element(By.CSS_SELECTOR, "summary"))
        self.wait(lambda: route.get_attribute("open") is not None, f"{pattern} to open")
        return route

    def sign_in(self, token=TOKEN):
        self.wait(lambda: self.find("#login").get_attribute("open") is not None, "the sign-in dialog")
        self.type("#login-token", token)
        self.find("#login-submit").click()

    def shot(self, name):
        """The whole page, not only the window (Chromium's Page.captureScreenshot beyond the viewport)."""
        os.makedirs(SHOTS, exist_ok=True)
        size = self.driver.execute_script(
            "return [Math.max(window.innerWidth, document.documentElement.scrollWidth), document.documentElement.scrollHeight]")
        image = self.driver.execute_cdp_cmd("Page.captureScreenshot", {
            "format": "png", "captureBeyondViewport": True,
            "clip": {"x": 0, "y": 0, "width": size[0], "height": min(size[1], 6000), "scale": 1}})
        with open(os.path.join(SHOTS, f"{name}.png"), "wb") as file:
            file.write(base64.b64decode(image["data"]))

    def browser_errors(self):
        return [entry for entry in self.driver.get_log("browser") if entry["level"] == "SEVERE"
                and "favicon" not in entry["message"]]


# The checks, in order: each builds on what the earlier ones made.

def console_is_served_with_its_headers(server, console):
    status, headers, body = server.call("GET", "/console", token=None)
    assert status == 200, status
    lower = {key.lower(): value for key, value in headers.items()}
    assert lower["content-type"] == "text/html; charset=utf-8", lower
    assert lower["content-security-policy"] == "default-src 'self'; frame-ancestors 'none'", lower
    assert lower["referrer-policy"] == "no-referrer", lower
    assert b"<script type=\"module\" src=\"/console/app.js\">" in body
    assert not re.search(rb"<script(?![^>]*\bsrc=)", body), "inline script in index.html"
    status, _, _ = server.call("GET", "/console", token=None, port=server.links_port)
    assert status == 404, f"the links listener served /console: {status}"


def routes_view_opens_on_the_tree(server, console):
    console.open()
    console.wait_text("#route-tree", "/users/:id")
    assert console.find("#view-routes").is_displayed()
    readonly = console.find('details.route[data-pattern="/users/:id"] .badge.readonly')
    assert "read-only" in readonly.text
    # Children are nested under their parent.
    nested = console.finds('details.route[data-pattern="/users/:id"] + ul details.route[data-pattern="/users/:id/posts/:postId"]')
    assert nested, "posts/:postId is not nested under /users/:id"
    # Nested as defined (`parent`), not by the pattern's prefix: a route registered on its own is not a child, so the
    # tree shows what deleting a route removes with it.
    status, _, body = server.call("POST", "/v1/routes", {"path": "/users/:id/likes"})
    assert status == 201, body
    console.find("#routes-refresh").click()
    console.wait(lambda: console.finds('details.route[data-pattern="/users/:id/likes"]'), "the new route in the tree")
    assert not console.finds('details.route[data-pattern="/users/:id"] + ul details.route[data-pattern="/users/:id/likes"]'), \
        "a route registered on its own is shown as a child of /users/:id"
    assert console.finds('#route-tree > ul > li > details.route[data-pattern="/users/:id/likes"]')
    status, _, body = server.call("DELETE", "/v1/routes?pattern=%2Fusers%2F%3Aid%2Flikes")
    assert status == 204, body
    console.find('details.route[data-pattern="/users/:id"] summary').click()
    console.wait_text('details.route[data-pattern="/users/:id"] pre', '"UserProfile"')
    console.shot("routes")


def a_write_without_token_shows_a_prompt_not_a_blank_page(server, console):
    console.type("#route-path", "/promo/:code")
    console.find("#route-submit").click()
    console.wait(lambda: console.find("#login").get_attribute("open") is not None, "the sign-in dialog")
    console.shot("sign-in")
    console.find("#login-cancel").click()
    status = console.wait_text('[data-status="route-form"]', "401 unauthorized")
    assert status.find_element(By.CSS_SELECTOR, "button").text == "Sign in with a token"
    assert console.find("#route-tree").text, "the tree went blank"


def a_wrong_token_is_refused_and_asked_again(server, console):
    console.find('[data-status="route-form"] button').click()
    # A token a header cannot carry (a pasted zero-width space) is refused in the dialog: the browser would refuse
    # every request with it, which read as "the server could not be reached".
    console.sign_in("tok\u200ben")
    console.wait_text("#login-error", "printable ASCII")
    assert console.find("#login").get_attribute("open") is not None, "the dialog closed"
    assert console.driver.execute_script("return sessionStorage.getItem('linkserver.token')") is None
    console.type("#login-token", "not-the-token")
    console.find("#login-submit").click()
    console.find("#route-submit").click()
    console.wait_text("#login-reason", "refused")
    console.sign_in(TOKEN)


def register_a_route_through_the_form(server, console):
    console.wait_text('[data-status="route-form"]', "Registered /promo/:code")
    stored = console.driver.execute_script("return [sessionStorage.getItem('linkserver.token'), localStorage.length]")
    assert stored == [TOKEN, 0], stored
    assert "Signed in" in console.find("#auth-state").text
    console.type("#route-path", "/promo/:code/details")
    console.type("#route-name", "promoDetails")
    console.find("#route-submit").click()
    console.wait_text('[data-status="route-form"]', "Registered")
    # The whole definition as JSON: a route with its own link targets.
    console.find("#route-form details summary").click()
    console.type("#route-json", json.dumps({
        "path": "/spring/:code", "name": "spring", "destination": {"screen": "Promo"},
        "link": {"ios": "https://apps.apple.com/app/id123456789?pt=1&ct={code}",
                 "desktop": "https://www.example.com/spring/{code}"}}))
    console.find("#route-submit").click()
    console.wait_text('[data-status="route-form"]', "Registered /spring/:code")
    console.wait_text("#route-tree", "/spring/:code")
    # Registered on its own, so a route of its own at the top of the tree, not a child of /promo/:code.
    assert console.finds('#route-tree > ul > li > details.route[data-pattern="/promo/:code/details"]')
    # A redirect rule, and an error shown as the API's code.
    console.type("#route-json", json.dumps({"path": "/old/:code", "name": "oldSpring", "redirect": [{"to": "/spring/{code}"}]}))
    console.find("#route-submit").click()
    console.wait_text("#route-tree", "/old/:code")
    console.type("#route-json", json.dumps({"path": "/bad/:x/:x"}))
    console.find("#route-submit").click()
    console.wait_text('[data-status="route-form"]', "400 invalid_pattern")
    console.find("#route-json").clear()
    console.type("#route-filter", "spring")
    console.wait_text("#route-count", "shown")
    console.shot("routes-registered")
    console.find("#route-filter").clear()
    console.find("#route-filter").send_keys(" " + Keys.BACKSPACE)


def register_with_the_link_fields_and_follow_the_tree_buttons(server, console):
    # The simple fields: a destination and a target per platform, without writing JSON for the whole route.
    console.type("#route-path", "/deal/:code")
    console.type("#route-name", "deal")
    console.type("#route-destination", '{"screen": "Deal"}')
    console.type("#route-ios", "https://apps.apple.com/app/id123456789?pt=1&ct={code}")
    console.type("#route-android", "https://play.google.com/store/apps/details?id=com.example.app&referrer={code}")
    console.type("#route-desktop", "https://www.example.com/deal/{code}")
    console.find("#route-submit").click()
    console.wait_text('[data-status="route-form"]', "Registered /deal/:code")
    assert console.find("#route-destination").get_attribute("value") == "", "the form was not emptied"
    route = console.open_route("/deal/:code")
    definition = route.find_element(By.CSS_SELECTOR, "pre").text
    for shown in ['"screen": "Deal"', '"ios": "https://apps.apple.com/app/id123456789?pt=1&ct={code}"',
                  '"android": "https://play.google.com/store/apps/details?id=com.example.app&referrer={code}"',
                  '"desktop": "https://www.example.com/deal/{code}"']:
        assert shown in definition, definition
    # "Try it" fills the Try view with a sample of the pattern.
    console.press(route.find_element(By.LINK_TEXT, "Try it"))
    console.wait(lambda: console.find("#view-try").is_displayed(), "the try view from the tree")
    assert console.find("#try-url").get_attribute("value") == "/deal/code", console.find("#try-url").get_attribute("value")
    for platform, target in [("desktop", "https://www.example.com/deal/code"),
                             ("ios", "https://apps.apple.com/app/id123456789?pt=1&ct=code"),
                             ("android", "https://play.google.com/store/apps/details?id=com.example.app&referrer=code")]:
        console.select("#try-platform", platform)
        console.find("#try-submit").click()
        # (Android's referrer also carries the link itself, for deferred deep links.)
        console.wait(lambda: console.find("#decision-target").text.startswith(target), f"the {platform} target {target}")
    console.wait_text("#try-resolution", '"Deal"')
    # "QR code" draws the sample's code.
    console.go("routes")
    console.press(console.open_route("/deal/:code").find_element(By.LINK_TEXT, "QR code"))
    console.wait_text("#qr-caption", "/deal/code on the first links host")
    assert console.finds("#qr-image svg path")
    # "Clicks" narrows the statistics to the route.
    console.go("routes")
    console.press(console.open_route("/deal/:code").find_element(By.LINK_TEXT, "Clicks"))
    console.wait_text("#stats-result", "route deal")
    assert console.find("#stats-route").get_attribute("value") == "deal"
    assert console.find('#stats-totals [data-total="clicks"] .number').text == "0"
    console.find("#stats-route").clear()  # the later checks read every route


def delete_a_route_through_the_tree(server, console):
    console.go("routes")
    status, _, body = server.call("POST", "/v1/routes", {"path": "/gone/:x", "name": "gone",
                                                         "routes": [{"path": "more", "name": "goneMore"}]})
    assert status == 201, body
    # Registered elsewhere: the page shows it on Refresh.
    console.wait(lambda: "Loading" not in console.find('[data-status="routes"]').text, "the routes to load")
    console.press(console.find("#routes-refresh"))
    console.wait_text("#route-tree", "/gone/:x/more")
    # A config route cannot be deleted from the page; an API route can.
    config = console.find('details.route[data-pattern="/users/:id"]')
    assert not config.find_elements(By.CSS_SELECTOR, ":scope > .buttons button"), "a Delete button on a config route"
    route = console.open_route("/gone/:x")
    # Cancelled: nothing goes.
    console.press(route.find_element(By.CSS_SELECTOR, ":scope > .buttons button.danger"))
    console.answer_confirm("Delete /gone/:x and the routes under it?", accept=False)
    assert console.finds('details.route[data-pattern="/gone/:x"]')
    assert server.call("GET", "/v1/routes/gone")[0] == 200
    console.press(route.find_element(By.CSS_SELECTOR, ":scope > .buttons button.danger"))
    console.answer_confirm("Delete /gone/:x and the routes under it?", accept=True)
    console.wait_text('[data-status="routes"]', "Deleted /gone/:x.")
    console.wait(lambda: "/gone/" not in console.find("#route-tree").text, "/gone/:x and its child to leave the tree")
    assert console.finds('details.route[data-pattern="/deal/:code"]'), "the tree lost other routes"
    for name in ["gone", "goneMore"]:
        status, _, body = server.call("GET", f"/v1/routes/{name}")
        assert status == 404, (name, status, body)
    # Deleted behind the page's back: the API's error, not a silent success.
    status, _, body = server.call("POST", "/v1/routes", {"path": "/gone/again", "name": "goneAgain"})
    assert status == 201, body
    console.press(console.find("#routes-refresh"))
    route = console.open_route("/gone/again")
    status, _, body = server.call("DELETE", "/v1/routes/goneAgain")
    assert status == 204, body
    console.press(route.find_element(By.CSS_SELECTOR, ":scope > .buttons button.danger"))
    console.answer_confirm("Delete /gone/again", accept=True)
    console.wait_text('[data-status="routes"]', "404 no_match")
    console.shot("routes-deleted")


def try_a_link_and_read_the_chain(server, console):
    console.go("try")
    console.type("#try-url", "https://links.example.com/old/SPRING")
    console.select("#try-platform", "ios")
    console.find("#try-submit").click()
    console.wait_text("#try-outcome", "Resolved after 1 redirect")
    steps = [element.text for element in console.finds("#chain .step-location")]
    # Each location once: the route matched is noted on the step it matched (the last was drawn twice).
    assert steps == ["/old/SPRING", "/spring/SPRING"], steps
    assert "rule 0 of oldSpring, then matched /spring/:code (spring)" in console.find("#chain").text, console.find("#chain").text
    decision = console.wait_text("#decision", "Redirect")
    assert decision.get_attribute("data-decision") == "redirect"
    target = console.find("#decision-target").text
    assert target == "https://apps.apple.com/app/id123456789?pt=1&ct=SPRING", target
    console.shot("try")
    # Android has no target on the route: the store of the Android app.
    console.select("#try-platform", "android")
    console.find("#try-submit").click()
    console.wait_text("#decision-target", "play.google.com")
    # No match, said plainly, with the decision of the links listener.
    console.type("#try-url", "/nowhere/at/all")
    console.find("#try-submit").click()
    console.wait_text("#try-outcome", "No route matches this link")
    console.wait_text("#try-resolution", "404 no_match")
    assert console.find("#decision").get_attribute("data-decision") == "not_found"
    # A decision without a resolution draws no chain (it drew the text "null").
    assert "null" not in console.find("#try-decision").text.split(), console.find("#try-decision").text
    # By name and parameters.
    console.select("#try-mode", "name")
    console.type("#try-name", "spring")
    console.type("#try-params", '{"code": "AUTUMN"}')
    console.select("#try-platform", "desktop")
    console.find("#try-submit").click()
    console.wait_text("#decision-target", "https://www.example.com/spring/AUTUMN")
    console.select("#try-mode", "url")
    # A rule on the click's platform: the click's own way is drawn, not only the app's resolution.
    status, _, body = server.call("POST", "/v1/routes", {
        "path": "/plat/:code", "name": "plat",
        "redirect": [{"when": {"==": [{"var": "context.click.platform"}, "android"]}, "to": "/spring/{code}"}]})
    assert status == 201, body
    console.type("#try-url", "/plat/X1")
    console.select("#try-platform", "android")
    console.find("#try-submit").click()
    console.wait_text("#decision-chain", "1 redirect")
    steps = [element.text for element in console.finds("#click-chain .step-location")]
    assert steps == ["/plat/X1", "/spring/X1"], steps
    console.wait_text("#try-outcome", "Resolved directly")


def context_json_decides_a_redirect_rule(server, console):
    for route in [{"path": "/account/:id", "name": "account",
                   "redirect": [{"when": {"!": {"var": "context.loggedIn"}}, "to": "/signin?next={location}"}]},
                  {"path": "/signin", "name": "signin"}]:
        status, _, body = server.call("POST", "/v1/routes", route)
        assert status == 201, body
    console.go("try")
    console.select("#try-mode", "url")
    console.select("#try-platform", "ios")
    console.type("#try-url", "/account/7")
    steps = lambda chain: [element.text for element in console.finds(f"#{chain} .step-location")]
    # No context: not logged in, so the rule sends the app to sign in.
    console.find("#try-context").clear()
    console.find("#try-submit").click()
    signin = ["/account/7", "/signin?next=/account/7"]
    console.wait(lambda: steps("chain") == signin, f"the chain {signin}")
    assert console.find("#try-outcome").text == "Resolved after 1 redirect.", console.find("#try-outcome").text
    assert "rule 0 of account" in console.find("#chain").text
    # Logged in: the same link resolves directly.
    console.type("#try-context", '{"loggedIn": true}')
    console.find("#try-submit").click()
    console.wait(lambda: steps("chain") == ["/account/7"], "the direct chain with loggedIn")
    assert "matched /account/:id (account)" in console.find("#chain").text, console.find("#chain").text
    assert console.find("#try-outcome").text == "Resolved directly.", console.find("#try-outcome").text
    assert "rule 0 of account" not in console.find("#chain").text
    # The click on the links listener has its own context (context.click), without the app's loggedIn.
    console.wait_text("#decision-chain", "1 redirect")
    assert steps("click-chain") == signin, steps("click-chain")
    console.shot("try-context")
    # Not JSON: said so, nothing sent, and the previous answer (for another context) is not left under it.
    console.type("#try-context", '{"loggedIn": tru')
    console.find("#try-submit").click()
    console.wait_text('[data-status="try"]', "Context is not valid JSON")
    console.wait(lambda: not console.find("#try-result").text.strip(), "the previous result to go")
    console.type("#try-context", '{"loggedIn": false}')
    console.find("#try-submit").click()
    console.wait(lambda: steps("chain") == signin, "the sign-in chain with loggedIn false")
    assert "not valid JSON" not in console.find('[data-status="try"]').text


def try_by_name_with_a_query_and_as_a_bot(server, console):
    # By name, with parameters, a query and the context: the location is built from all three.
    console.select("#try-mode", "name")
    console.type("#try-name", "account")
    console.type("#try-params", '{"id": "8"}')
    console.type("#try-query", '{"tab": "orders"}')
    console.type("#try-context", '{"loggedIn": true}')
    console.find("#try-submit").click()
    console.wait_text("#try-resolution dl", "/account/8?tab=orders")
    assert console.find("#try-outcome").text == "Resolved directly.", console.find("#try-outcome").text
    # An unknown name is the API's error.
    console.type("#try-name", "noSuchRoute")
    console.find("#try-submit").click()
    console.wait_text("#try-resolution", "404 unknown_name")
    console.find("#try-context").clear()
    console.find("#try-query").clear()
    console.find("#try-params").clear()
    console.select("#try-mode", "url")
    # Who clicks: bots are sent to the route's web page, a person on an iPhone to the App Store.
    console.type("#try-url", "/spring/SPRING")
    console.select("#try-platform", "ios")
    web, store = "https://www.example.com/spring/SPRING", "https://apps.apple.com/app/id123456789?pt=1&ct=SPRING"
    shown = lambda: (console.find("#try-decision dl dd:nth-of-type(4)").text, console.find("#decision-target").text)
    for bot, expected in [("preview", ("preview", web)), ("crawler", ("crawler", web)), ("", ("no (a person)", store))]:
        console.select("#try-bot", bot)
        console.find("#try-submit").click()
        console.wait(lambda: console.finds("#decision-target") and shown() == expected, f"{expected} for bot={bot!r}")
        assert console.find("#decision").text == "Redirect · HTTP 302", console.find("#decision").text


def edit_a_resource_and_hit_a_conflict(server, console):
    console.go("resources")
    console.wait_text('[data-status="resources"], #resource-list', "No resources yet")
    console.type("#resource-path", "/flags/:platform")
    console.type("#resource-name", "flags")
    console.type("#resource-value", '{"newCheckout": false}')
    console.find("#resource-submit").click()
    console.wait_text('[data-status="resource-create"]', "Created /flags/:platform at revision")
    row = console.wait_text("#resource-list tr", "/flags/:platform")
    row.find_element(By.CSS_SELECTOR, "button").click()
    console.wait(lambda: console.find("#resource-edit-form").is_displayed(), "the edit form")
    # Someone else changes it meanwhile.
    status, _, body = server.call("PATCH", "/v1/resources", {"path": "/flags/:platform", "value": {"newCheckout": "theirs"}})
    assert status == 200, body
    console.type("#resource-edit-value", '{"newCheckout": true}')
    console.find("#resource-save").click()
    conflict = console.wait_text("#resource-conflict", "Conflict")
    assert "theirs" in conflict.text, conflict.text
    console.shot("resources-conflict")
    console.find("#conflict-overwrite").click()
    console.wait_text('[data-status="resource-edit"]', "Saved")
    console.wait_text("#resource-list", '{"newCheckout":true}')
    console.shot("resources")
    # Another conflict, resolved the other way: their version is loaded into the form, and saved on from there.
    status, _, body = server.call("PATCH", "/v1/resources", {"path": "/flags/:platform", "value": {"newCheckout": "again"}})
    assert status == 200, body
    console.type("#resource-edit-value", '{"newCheckout": "mine"}')
    console.find("#resource-save").click()
    console.wait_text("#resource-conflict", "again")
    console.find("#conflict-reload").click()
    console.wait(lambda: not console.find("#resource-conflict").is_displayed(), "the conflict closed")
    loaded = console.find("#resource-edit-value").get_attribute("value")
    assert json.loads(loaded) == {"newCheckout": "again"}, loaded
    status, _, body = server.call("GET", "/v1/resources")
    revision = next(r["revision"] for r in json.loads(body)["resources"] if r["path"] == "/flags/:platform")
    console.type("#resource-edit-value", '{"newCheckout": true}')
    console.find("#resource-save").click()
    console.wait_text('[data-status="resource-edit"]', f"at revision {revision + 1}")
    console.wait_text("#resource-list", '{"newCheckout":true}')


def numbers_a_page_cannot_keep_are_neither_sent_nor_saved_over(server, console):
    # Typed in the form: refused, not sent as the nearest double.
    console.go("resources")
    console.type("#resource-path", "/big/:n")
    console.type("#resource-value", '{"id": 9007199254740993}')
    console.find("#resource-submit").click()
    console.wait_text('[data-status="resource-create"]', "9007199254740993, a number a page cannot send exactly")
    status, _, body = server.call("GET", "/v1/resources")
    assert not any(r["path"] == "/big/:n" for r in json.loads(body)["resources"]), body
    # Stored by the API: shown rounded, and not saved over from the page.
    # (Python's json writes the integer exactly.)
    status, _, body = server.call("POST", "/v1/resources", {"path": "/big/:n", "value": {"id": 9007199254740993, "note": "x"}})
    assert status == 201, body
    console.find("#resources-refresh").click()
    row = console.wait(lambda: console.finds('#resource-list tr[data-path="/big/:n"]'), "the big resource")[0]
    console.press(row.find_element(By.CSS_SELECTOR, 'button[aria-label="Edit /big/:n"]'))
    console.wait_text('[data-status="resource-edit"]', "a whole number past 2^53")
    assert not console.find("#resource-save").is_enabled(), "Save is offered for a value the page holds rounded"
    status, _, body = server.call("GET", "/v1/resources?loc=/big/1")
    assert b"9007199254740993" in body, body
    status, _, body = server.call("DELETE", "/v1/resources?path=%2Fbig%2F%3An")
    assert status == 204, body


def create_a_computed_resource_and_choose_on_exists(server, console):
    console.go("resources")
    revision = lambda path: console.find(f'#resource-list tr[data-path="{path}"] td.revision').text
    # Computed: a JSONLogic rule evaluated when an app reads it.
    console.type("#resource-path", "/greeting/:lang")
    console.type("#resource-name", "greeting")
    console.select("#resource-kind", "compute")
    console.type("#resource-value", '{"cat": ["hello-", {"var": "params.lang"}]}')
    console.find("#resource-submit").click()
    console.wait_text('[data-status="resource-create"]', "Created /greeting/:lang at revision")
    console.wait_text('#resource-list tr[data-path="/greeting/:lang"]', 'compute: {"cat":["hello-",{"var":"params.lang"}]}')
    assert console.find("#resource-kind").get_attribute("value") == "value", "the form was not reset"
    _, _, body = server.call("GET", "/v1/resources?loc=/greeting/fr")
    assert json.loads(body)["value"] == "hello-fr", body
    # Editing a computed resource edits its rule.
    row = console.find('#resource-list tr[data-path="/greeting/:lang"]')
    console.press(row.find_element(By.CSS_SELECTOR, 'button[aria-label="Edit /greeting/:lang"]'))
    console.wait_text("#resource-edit-title", "computed")
    assert json.loads(console.find("#resource-edit-value").get_attribute("value")) == {"cat": ["hello-", {"var": "params.lang"}]}
    console.type("#resource-edit-value", '{"cat": ["bonjour-", {"var": "params.lang"}]}')
    console.find("#resource-save").click()
    console.wait_text('[data-status="resource-edit"]', "Saved: /greeting/:lang is at revision")
    # Still a computed resource after the save (the title dropped ", computed").
    console.wait_text("#resource-edit-title", ", computed)")
    console.wait_text('#resource-list tr[data-path="/greeting/:lang"]', 'compute: {"cat":["bonjour-",{"var":"params.lang"}]}')
    _, _, body = server.call("GET", "/v1/resources?loc=/greeting/fr")
    assert json.loads(body)["value"] == "bonjour-fr", body
    before = revision("/greeting/:lang")
    # It exists: "fail" refuses, "keep" leaves it, "replace" overwrites it.
    def create(on_exists):
        console.type("#resource-path", "/greeting/:lang")
        console.select("#resource-kind", "value")
        console.type("#resource-value", '"hi"')
        console.select("#resource-onexists", on_exists)
        console.find("#resource-submit").click()
    create("fail")
    console.wait_text('[data-status="resource-create"]', "409 resource_exists")
    create("keep")
    # Said as it is: nothing was saved (it said "Saved … at revision").
    console.wait_text('[data-status="resource-create"]', f"Kept the resource already at /greeting/:lang (revision {before}).")
    # The 409 before was announced at once (role alert); this is not.
    assert console.find('[data-status="resource-create"]').get_attribute("role") == "status"
    console.wait(lambda: revision("/greeting/:lang") == before, "the revision kept")
    assert "bonjour-" in console.find('#resource-list tr[data-path="/greeting/:lang"]').text
    assert console.find("#resource-onexists").get_attribute("value") == "fail", "onExists was not reset to fail"
    create("replace")
    console.wait_text('#resource-list tr[data-path="/greeting/:lang"] .value', '"hi"')
    assert revision("/greeting/:lang") != before
    console.wait_text('[data-status="resource-create"]', f"Replaced /greeting/:lang: now at revision {revision('/greeting/:lang')}.")
    _, _, body = server.call("GET", "/v1/resources?loc=/greeting/fr")
    assert json.loads(body)["value"] == "hi", body
    # Not JSON: said so before anything is sent.
    console.type("#resource-path", "/broken")
    console.type("#resource-value", "{nope")
    console.find("#resource-submit").click()
    console.wait_text('[data-status="resource-create"]', "The value is not valid JSON")
    assert not console.finds('#resource-list tr[data-path="/broken"]')


def delete_a_resource_and_meet_a_changed_revision(server, console):
    console.go("resources")
    path = "/flags/:platform"
    row = lambda: console.find(f'#resource-list tr[data-path="{path}"]')
    delete = lambda: console.press(row().find_element(By.CSS_SELECTOR, f'button[aria-label="Delete {path}"]'))
    console.wait_text(f'#resource-list tr[data-path="{path}"]', '{"newCheckout":true}')
    delete()
    console.answer_confirm(f"Delete the resource {path}?", accept=False)
    assert server.call("GET", "/v1/resources?loc=/flags/ios")[0] == 200
    # Changed behind the page's back: the delete carries the revision the page showed, so it is refused
    # (412) and the list shows the resource as it is now.
    shown = row().find_element(By.CSS_SELECTOR, "td.revision").text
    status, _, body = server.call("PATCH", "/v1/resources", {"path": path, "value": {"newCheckout": "changed"}})
    assert status == 200, body
    delete()
    console.answer_confirm(f"Delete the resource {path}?", accept=True)
    console.wait_text('[data-status="resources"]', "412 revision_mismatch")
    console.wait_text(f'#resource-list tr[data-path="{path}"]', '{"newCheckout":"changed"}')
    assert row().find_element(By.CSS_SELECTOR, "td.revision").text != shown
    assert server.call("GET", "/v1/resources?loc=/flags/ios")[0] == 200, "deleted despite the changed revision"
    console.shot("resources-delete-conflict")
    # At the revision shown now it goes.
    delete()
    console.answer_confirm(f"Delete the resource {path}?", accept=True)
    console.wait_text('[data-status="resources"]', f"Deleted {path}.")
    console.wait(lambda: not console.finds(f'#resource-list tr[data-path="{path}"]'), "the row to go")
    assert console.finds('#resource-list tr[data-path="/greeting/:lang"]'), "the list lost another resource"
    status, _, body = server.call("GET", "/v1/resources?loc=/flags/ios")
    assert status == 404, (status, body)
    # Deleted behind its back: the API's 404, and the row goes.
    status, _, body = server.call("POST", "/v1/resources", {"path": "/short/:x", "value": 1})
    assert status == 201, body
    console.press(console.find("#resources-refresh"))
    console.wait_text('#resource-list tr[data-path="/short/:x"]', "/short/:x")
    status, _, body = server.call("DELETE", "/v1/resources?path=/short/:x")
    assert status == 204, body
    path = "/short/:x"
    delete()
    console.answer_confirm(f"Delete the resource {path}?", accept=True)
    console.wait_text('[data-status="resources"]', "404 no_match")
    console.wait(lambda: not console.finds(f'#resource-list tr[data-path="{path}"]'), "the deleted row to go")


def an_emitted_event_appears_in_the_tail(server, console):
    status, _, body = server.call("POST", "/v1/events", {"path": "/seek/:progress", "name": "onSeek"})
    assert status in (200, 201), body
    console.go("events")
    # A pattern that is none: the tail says why, in the envelope's words.
    console.type("#tail-patterns", "seek/:progress")
    console.find("#tail-form button[type=submit]").click()
    console.wait_text("#tail-state", "400 invalid_pattern", timeout=15)
    # Retrying cannot mend it: the tail stops, saying so (it said "Retrying" for ever), and offers to resume.
    assert console.find("#tail-state").text.startswith("Stopped"), console.find("#tail-state").text
    assert console.find("#tail-pause").text == "Resume"
    console.type("#tail-patterns", "/seek/:progress")
    console.find("#tail-form button[type=submit]").click()
    console.wait_text("#tail-state", "Live", timeout=15)
    console.type("#emit-location", "/seek/42")
    console.type("#emit-extra", '{"from": "the console"}')
    console.find("#emit-submit").click()
    console.wait_text('[data-status="emit"]', "delivered to")
    console.wait_text("#event-list", "/seek/42")
    # A real click on the links listener arrives as linkClick.
    status, headers, _ = server.call("GET", "/spring/SPRING", token=None, port=server.links_port,
                                     headers={"User-Agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Mobile/15E148",
                                              "Host": "links.example.com"})
    assert status == 302, status
    console.wait_text("#event-list .event-summary", "redirect · ios · /spring/SPRING", timeout=15)
    # Paused: a new event waits on the server until resumed.
    console.find("#tail-pause").click()
    console.wait_text("#tail-state", "Paused")
    server.call("POST", "/v1/events/emit", {"loc": "/seek/77"})
    time.sleep(1)
    assert "/seek/77" not in console.find("#event-list").text
    console.find("#tail-pause").click()
    console.wait_text("#event-list", "/seek/77", timeout=15)
    console.shot("events")
    # Paused and resumed while a poll waits out its back-off: still one poll loop. (Two would release each
    # other's polls, §5, hundreds of times a second.) The polls fail in the page while it is "offline".
    console.driver.execute_script("""
        window.__polls = 0;
        window.__offline = true;
        const real = window.fetch;
        window.fetch = (url, init) => {
          if (String(url).includes("/v1/events/subscriptions/") && (!init || !init.method || init.method === "GET")) {
            window.__polls += 1;
            if (window.__offline) return Promise.reject(new TypeError("offline"));
          }
          return real(url, init);
        };""")
    console.find("#tail-pause").click()
    console.wait_text("#tail-state", "Paused")
    console.find("#tail-pause").click()
    console.wait_text("#tail-state", "Retrying")
    # No answer has no status: said so, not "0 network".
    console.wait_text("#tail-state", "No answer")
    assert "0 network" not in console.find("#tail-state").text, console.find("#tail-state").text
    console.find("#tail-pause").click()
    console.find("#tail-pause").click()
    console.driver.execute_script("window.__offline = false")
    console.wait_text("#tail-state", "Live", timeout=15)
    before = console.driver.execute_script("return window.__polls")
    time.sleep(3)
    polls = console.driver.execute_script("return window.__polls") - before
    assert polls <= 2, f"{polls} polls in 3 s after a pause and resume during a back-off"
    # Leaving the view pauses the tail (no poll runs where nobody looks, nor asks for a token after a sign-out);
    # coming back goes on.
    console.go("routes")
    console.wait(lambda: console.driver.execute_script(
        "return document.getElementById('tail-state').textContent") == "Paused", "the tail paused on leaving")
    # Paused by leaving, the button says so too (it read "Pause" beside "Paused").
    assert console.driver.execute_script("return document.getElementById('tail-pause').textContent") == "Resume"
    console.go("events")
    console.wait_text("#tail-state", "Live", timeout=15)
    assert console.find("#tail-pause").text == "Pause"


def the_tail_shows_dropped_events_and_a_lost_subscription(server, console):
    """A poll answering more events than the list keeps, with some dropped: the notice stays in view (it was drawn
    first and trimmed away with the oldest rows). Then the subscription is lost (a server restart): the new one is
    marked as a gap in the list."""
    console.go("events")
    console.wait_text("#tail-state", "Live", timeout=15)
    console.driver.execute_script("""
        window.__stub = "missed";
        const real = window.__realFetch || window.fetch;
        window.__realFetch = real;
        window.fetch = (url, init) => {
          const poll = String(url).includes("/v1/events/subscriptions/") && (!init || !init.method || init.method === "GET");
          if (poll && window.__stub === "missed") {
            window.__stub = null;
            const events = Array.from({length: 250}, (_, i) => ({seq: 900000 + i, name: null, pattern: "/seek/:progress",
              location: `/seek/b${i}`, params: {progress: `b${i}`}, query: {}, extra: null, time: new Date().toISOString()}));
            return Promise.resolve(new Response(JSON.stringify({events, cursor: 0, missed: 7}),
              {status: 200, headers: {"Content-Type": "application/json"}}));
          }
          if (poll && window.__stub === "lost") {
            window.__stub = null;
            return Promise.resolve(new Response(JSON.stringify({error: {code: "subscription_not_found",
              message: "No such subscription.", details: {}}}), {status: 404, headers: {"Content-Type": "application/json"}}));
          }
          return real(url, init);
        };""")
    # The next poll is the stub's: release the waiting one by emitting.
    server.call("POST", "/v1/events/emit", {"loc": "/seek/1"})
    console.wait_text("#event-list", "/seek/b249", timeout=15)
    console.wait_text("#event-list li.missed", "7 older events were dropped")
    assert len(console.finds("#event-list > li.event")) == 200
    # Newer events push older rows out, not the notice (it was the first row trimmed).
    server.call("POST", "/v1/events/emit", {"loc": "/seek/after"})
    console.wait_text("#event-list", "/seek/after", timeout=15)
    console.wait_text("#event-list li.missed", "7 older events were dropped")
    console.driver.execute_script("window.__stub = 'lost'")
    server.call("POST", "/v1/events/emit", {"loc": "/seek/2"})
    console.wait_text("#event-list li.gap", "The subscription was lost", timeout=15)
    console.wait_text("#tail-state", "Live", timeout=15)
    console.driver.execute_script("window.fetch = window.__realFetch")
    server.call("POST", "/v1/events/emit", {"loc": "/seek/3"})
    console.wait_text("#event-list", "/seek/3", timeout=15)


def a_click_shows_up_in_the_chart(server, console):
    console.go("stats")
    console.wait_text("#stats-totals", "Clicks")

    def counted():
        console.find("#stats-submit").click()
        time.sleep(0.3)
        totals = console.find('#stats-totals [data-total="clicks"] .number').text
        return totals == "1"
    console.wait(counted, "the click in the statistics", timeout=10)
    today = time.strftime("%Y-%m-%d", time.gmtime())
    bar = console.find(f'#day-chart g.day[data-day="{today}"] rect[data-series="clicks"]')
    assert bar.get_attribute("data-value") == "1"
    assert float(bar.get_attribute("height")) > 0
    assert console.finds('#platform-chart g[data-platform="ios"]')
    console.wait_text("#top-routes", "spring")
    console.shot("stats")
    # One route, from the route tree's link.
    console.open("stats?route=promoDetails")
    console.wait(lambda: console.find('#stats-totals [data-total="clicks"] .number').text == "0", "zero clicks on promoDetails")


def clicks_for_a_date_range(server, console):
    console.go("stats")
    console.find("#stats-route").clear()
    clicks = lambda: console.find('#stats-totals [data-total="clicks"] .number').text
    # A week long past: no clicks, a bar slot per day.
    console.select("#stats-from", "2020-01-01")
    console.select("#stats-to", "2020-01-07")
    console.find("#stats-submit").click()
    console.wait_text("#stats-result", "2020-01-01 to 2020-01-07 (UTC), all routes.")
    assert clicks() == "0", clicks()
    assert len(console.finds("#day-chart g.day")) == 7, len(console.finds("#day-chart g.day"))
    console.wait_text("#stats-result", "No clicks on routes in this range.")
    # Backwards: the API's error, and the chart of the previous range goes.
    console.select("#stats-from", "2020-01-07")
    console.select("#stats-to", "2020-01-01")
    console.find("#stats-submit").click()
    console.wait_text('[data-status="stats"]', "400 invalid_request")
    assert not console.finds("#stats-totals"), "the previous range's totals stayed under the error"
    # Today alone: the click.
    today = time.strftime("%Y-%m-%d", time.gmtime())
    console.select("#stats-from", today)
    console.select("#stats-to", today)
    console.find("#stats-submit").click()
    console.wait_text("#stats-result", f"{today} to {today} (UTC), all routes.")
    assert clicks() == "1", clicks()
    assert len(console.finds("#day-chart g.day")) == 1
    console.wait_text("#top-routes", "spring")


def slots_present_dismiss_and_watch(server, console):
    console.go("slots")
    console.wait_text("#slot-current", "Nothing is showing")
    console.find("#slot-watch").click()
    console.wait_text('[data-status="slot"]', "Live", timeout=15)
    # Watching is a read: the built-in slotChanged, no type registered for the slot.
    _, _, types = server.call("GET", "/v1/events")
    assert b"/slots/home" not in types, types
    console.type("#present-id", "spring-sale")
    console.type("#present-priority", "10")
    console.type("#present-payload", '{"title": "Spring sale"}')
    console.find("#present-submit").click()
    console.wait_text('[data-status="present"]', "Presented")
    console.wait_text("#slot-current-id", "spring-sale")
    # A higher priority from elsewhere replaces it, and the watch shows it.
    server.call("POST", "/v1/slots/home/present", {"id": "outage", "priority": 50, "payload": {"title": "Outage"}})
    console.wait_text("#slot-log", "replaced: outage", timeout=15)
    console.wait_text("#slot-current-id", "outage")
    console.shot("slots")
    console.find("#slot-dismiss").click()
    console.wait_text("#slot-current", "Nothing is showing")
    console.wait_text("#slot-log", "dismissed", timeout=15)
    console.find("#slot-watch").click()


def a_lower_priority_waits_and_a_dismiss_meets_what_replaced_it(server, console):
    console.go("slots")
    console.wait_text("#slot-current", "Nothing is showing")
    def present(id, priority, ttl="3600"):
        console.type("#present-id", id)
        console.type("#present-priority", priority)
        console.type("#present-ttl", ttl)
        console.type("#present-payload", json.dumps({"title": id}))
        console.find("#present-submit").click()
    # A priority past what a page can send exactly is refused in the form, naming the field (the service was sent
    # 100000000000000000000 for 99999999999999999999 and refused it as invalid JSON).
    present("huge", "99999999999999999999")
    console.wait_text('[data-status="present"]', "Priority must be a whole number")
    assert b"huge" not in server.call("GET", "/v1/slots/home")[2]
    present("tip", "20", ttl="60")
    console.wait_text("#slot-current-id", "tip")
    assert console.find('[data-status="present"]').text == "Presented.", console.find('[data-status="present"]').text
    current = json.loads(server.call("GET", "/v1/slots/home")[2])["current"]
    seconds = lambda stamp: time.mktime(time.strptime(stamp[:19], "%Y-%m-%dT%H:%M:%S"))
    assert seconds(current["expires"]) - seconds(current["since"]) in (59, 60, 61), current
    # Not higher than what shows: not presented, and said why.
    present("minor", "5")
    console.wait_text('[data-status="present"]', "Not presented: tip shows at priority 20, which is not lower.")
    assert console.find("#slot-current-id").text == "tip"
    # Replaced behind the page's back: dismissing what the page showed is refused, and what shows now is shown.
    status, _, body = server.call("POST", "/v1/slots/home/present", {"id": "urgent", "priority": 90, "payload": None})
    assert status == 200 and json.loads(body)["presented"], body
    dismiss = console.find("#slot-dismiss")
    assert dismiss.text == "Dismiss tip", dismiss.text
    console.press(dismiss)
    console.wait_text('[data-status="slot"]', "404 not_current")
    console.wait_text("#slot-current-id", "urgent")
    # Another slot, chosen by name: its own state and presentations.
    console.type("#slot-name", "banner")
    console.find("#slot-form button[type=submit]").click()
    console.wait_text("#slot-current h3", "Slot banner")
    console.wait_text("#slot-current", "Nothing is showing")
    present("b1", "1")
    console.wait_text("#slot-current-id", "b1")
    assert json.loads(server.call("GET", "/v1/slots/banner")[2])["current"]["id"] == "b1"
    assert json.loads(server.call("GET", "/v1/slots/home")[2])["current"]["id"] == "urgent"
    # The card's Dismiss acts on the card's slot, whatever is typed in the field since (it used the field).
    console.type("#slot-name", "home")
    console.press(console.find("#slot-dismiss"))
    console.wait_text("#slot-current", "Nothing is showing")
    assert console.find("#slot-current h3").text == "Slot banner", console.find("#slot-current h3").text
    assert json.loads(server.call("GET", "/v1/slots/banner")[2])["current"] is None
    assert json.loads(server.call("GET", "/v1/slots/home")[2])["current"]["id"] == "urgent"
    console.type("#slot-name", "home")
    console.find("#slot-form button[type=submit]").click()
    console.wait_text("#slot-current-id", "urgent")
    console.press(console.find("#slot-dismiss"))
    console.wait_text("#slot-current", "Nothing is showing")
    assert json.loads(server.call("GET", "/v1/slots/home")[2])["current"] is None


def association_files_flag_shadowed_and_case_insensitive_routes(server, console):
    for route in [{"path": "/a/:x", "name": "narrow", "link": {"appLinks": False}},
                  {"path": "/:y/b/c", "name": "wide"},
                  {"path": "/:y/é/z", "name": "wideUnicode"},
                  {"path": "/Shop", "name": "shop", "caseInsensitive": True},
                  {"path": "/summer sale/:code", "name": "summerSale"},
                  {"path": "/:y/b", "name": "wideB"}]:
        status, _, body = server.call("POST", "/v1/routes", route)
        assert status == 201, body
    console.go("association")
    console.wait_text("#apple-file", "apple-app-site-association")
    shadowed = console.wait_text('#apple-components tr[data-route="wide"]', "Shadowed")
    assert "/a/b/c" in shadowed.text and "narrow" in shadowed.text, shadowed.text
    # A pattern's text is its canonical, percent-encoded form (`/summer%20sale`): read decoded, sent encoded once.
    # The device sends /summer%20sale/b/c by summerSale's component first (LinkServer: wide), and
    # /summer%20sale/b reaches wideB on both sides (no flag).
    console.wait_text('#apple-components tr[data-route="wide"]', "summerSale")
    assert "/summer%20sale/b/c" in console.find('#apple-components tr[data-route="wide"]').text
    assert "Shadowed" not in console.find('#apple-components tr[data-route="summerSale"]').text
    # A literal outside ASCII: the glob is percent-encoded, the pattern is not; shadowed all the same.
    console.wait_text('#apple-components tr[data-route="wideUnicode"]', "Shadowed")
    console.wait_text('#android-components tr[data-route="shop"]', "/SHOP will not open the app")
    console.wait_text('#apple-components tr[data-route="shop"]', "Case-insensitive on iOS")
    console.shot("association")
    # A route registered meanwhile appears on Refresh.
    status, _, body = server.call("POST", "/v1/routes", {"path": "/later/:id", "name": "later"})
    assert status == 201, body
    assert not console.finds('#apple-components tr[data-route="later"]')
    console.find("#association-refresh").click()
    console.wait_text('#apple-components tr[data-route="later"]', "/later/")


def association_shadowing_reads_globs_as_devices_do(server, console):
    """Samples are encoded as the globs are (`&`, `=` stay as written), so a route is not flagged as shadowed by a
    later catch-all; a catch-all is tried over several segments, so a route it loses to on the device is flagged; a
    pattern thousands of characters long wraps instead of widening the table."""
    added = [{"path": "/*all", "name": "everything"},
             {"path": "/amp/a&b/:c", "name": "amp"},
             {"path": "/eq/k=v", "name": "eq"},
             {"path": "/docs/*path", "name": "docs"},
             {"path": "/docs/:a/edit", "name": "docsEdit", "link": {"appLinks": False}},
             {"path": "/long/" + "x" * 3000, "name": "long"}]
    for route in added:
        status, _, body = server.call("POST", "/v1/routes", route)
        assert status == 201, body
    try:
        console.go("association")
        console.find("#association-refresh").click()
        docs = console.wait_text('#apple-components tr[data-route="docs"]', "Shadowed")
        assert "docsEdit" in docs.text and "stays in the browser" in docs.text, docs.text
        for name in ["amp", "eq"]:
            row = console.wait_text(f'#apple-components tr[data-route="{name}"]', "/")
            assert "Shadowed" not in row.text, row.text
        width = console.driver.execute_script("return document.getElementById('apple-components').scrollWidth")
        assert width < 2000, f"the table is {width} px wide"
        # Short texts keep their natural breaks: a row's number and a route's name are never cut mid-word.
        number = console.find('#apple-components tr[data-route="amp"] td')
        assert "\n" not in number.text, repr(number.text)
        status, _, body = server.call("POST", "/v1/resources", {"path": "/wide/" + "y" * 2000, "value": 1})
        assert status == 201, body
        console.go("resources")
        console.wait(lambda: console.finds('#resource-list tr[data-path^="/wide/"]'), "the long resource")
        width = console.driver.execute_script("return document.querySelector('#resource-list table').scrollWidth")
        assert width < 2000, f"the resources table is {width} px wide"
        server.call("DELETE", "/v1/resources?path=/wide/" + "y" * 2000)
    finally:
        for route in added:
            server.call("DELETE", "/v1/routes/" + route["name"])


def a_qr_code_for_a_link(server, console):
    console.open("qr?url=" + "https%3A%2F%2Flinks.example.com%2Fspring%2FSPRING")
    console.wait(lambda: console.finds("#qr-image svg path"), "the QR code")
    # (The view may still show an earlier check's code for a moment.)
    console.wait(lambda: console.find("#qr-caption").text == "https://links.example.com/spring/SPRING", "the link's caption")
    assert console.find("#qr-download-png").is_displayed()
    console.type("#qr-url", "not a url")
    console.find("#qr-submit").click()
    console.wait_text('[data-status="qr"]', "400")
    # The code drawn before is not this link's: it goes, with its downloads.
    assert not console.finds("#qr-image svg"), "the previous QR code stayed under the error"
    assert not console.find("#qr-downloads").is_displayed()
    console.type("#qr-url", "/promo/SPRING")
    console.find("#qr-submit").click()
    console.wait_text("#qr-caption", "/promo/SPRING")
    console.shot("qr")


def qr_code_size_error_correction_and_downloads(server, console):
    console.go("qr")
    drawn = lambda: console.find("#qr-image svg")
    view_box = lambda: console.driver.execute_script("return document.querySelector('#qr-image svg')?.getAttribute('viewBox')")
    console.type("#qr-url", "/spring/SIZE")
    console.type("#qr-size", "128")
    console.select("#qr-ecc", "L")
    console.find("#qr-submit").click()
    console.wait_text("#qr-caption", "/spring/SIZE on the first links host")
    console.wait(lambda: drawn().get_attribute("width") == "128", "a code 128 pixels wide")
    # Shown at the size asked for (it was drawn 320 px wide whatever the size), a large one within the column.
    shown = lambda: console.driver.execute_script("return document.querySelector('#qr-image svg').getBoundingClientRect().width")
    assert shown() == 128, f"the code is shown {shown()} px wide, not 128"
    low = view_box()
    assert low, "no viewBox on the code"
    console.select("#qr-ecc", "H")
    console.type("#qr-size", "2048")
    console.find("#qr-submit").click()
    console.wait(lambda: view_box() not in (None, low), "a larger code at error correction H")
    column = console.driver.execute_script("return document.querySelector('#qr-image').getBoundingClientRect().width")
    assert 128 < shown() <= column, f"a 2048 px code is shown {shown()} px wide in a column of {column} px"
    console.type("#qr-size", "128")
    console.find("#qr-submit").click()
    console.wait(lambda: drawn().get_attribute("width") == "128", "the code at error correction H, 128 pixels wide")
    # The downloads are files of the code drawn, at its size.
    folder = tempfile.mkdtemp(prefix="console-downloads-")
    console.driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": folder})
    try:
        for button, name in [("#qr-download-png", "qr-code.png"), ("#qr-download-svg", "qr-code.svg")]:
            console.find(button).click()
            path = os.path.join(folder, name)
            console.wait(lambda: os.path.exists(path) and os.path.getsize(path) > 0, f"{name} to download")
        png = open(os.path.join(folder, "qr-code.png"), "rb").read()
        assert png[:8] == b"\x89PNG\r\n\x1a\n", png[:16]
        size = (int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big"))
        assert size == (128, 128), size
        svg = open(os.path.join(folder, "qr-code.svg")).read()
        assert 'width="128"' in svg and f'viewBox="{view_box()}"' in svg, svg[:300]
    finally:
        console.driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "default"})
        shutil.rmtree(folder, ignore_errors=True)
    console.type("#qr-size", "512")
    console.select("#qr-ecc", "M")


def sign_out_and_in_from_the_header(server, console):
    button = console.find("#auth-button")
    assert button.text == "Sign out", button.text
    console.press(button)
    console.wait_text("#auth-state", "No token")
    assert console.find("#auth-button").text == "Sign in"
    assert console.driver.execute_script("return sessionStorage.getItem('linkserver.token')") is None
    # Sign in from the header: cancelling keeps the page signed out.
    console.press(console.find("#auth-button"))
    console.wait(lambda: console.find("#login").get_attribute("open") is not None, "the sign-in dialog")
    console.find("#login-cancel").click()
    console.wait(lambda: console.find("#login").get_attribute("open") is None, "the dialog to close")
    assert console.find("#auth-state").text == "No token"
    console.press(console.find("#auth-button"))
    console.sign_in(TOKEN)
    console.wait_text("#auth-state", "Signed in with a token")
    assert console.find("#auth-button").text == "Sign out"


def every_control_has_a_label_and_the_keyboard_reaches_the_nav(server, console):
    unlabelled = []
    for view in ["routes", "try", "stats", "resources", "events", "slots", "association", "qr"]:
        console.go(view)
        time.sleep(0.3)
        unlabelled += console.driver.execute_script("""
            return [...document.querySelectorAll('input, select, textarea, button')]
              .filter((e) => e.offsetParent !== null)
              .filter((e) => !(e.labels && e.labels.length) && !e.getAttribute('aria-label') && !(e.textContent || '').trim())
              .map((e) => e.outerHTML.slice(0, 80));""")
    assert not unlabelled, unlabelled
    console.open("routes")
    console.wait_text("#route-tree", "/users/:id")
    console.driver.refresh()
    console.wait_text("#route-tree", "/users/:id")
    keys = ActionChains(console.driver)
    keys.send_keys(Keys.TAB).perform()
    assert console.driver.switch_to.active_element.get_attribute("class") == "skip", "the first Tab is not the skip link"
    for _ in range(2):  # Routes, then Try a link
        keys.send_keys(Keys.TAB).perform()
    active = console.driver.switch_to.active_element
    assert active.get_attribute("data-view") == "try", active.get_attribute("outerHTML")
    active.send_keys(Keys.ENTER)
    console.wait(lambda: console.find("#view-try").is_displayed(), "the try view from the keyboard")
    # The skip link moves the focus to the content and stays on the view (it went to the routes, its #main being no
    # view's name).
    console.open("slots")
    console.driver.refresh()
    console.wait(lambda: console.find("#view-slots").is_displayed(), "the slots view")
    keys.send_keys(Keys.TAB).perform()
    assert console.driver.switch_to.active_element.get_attribute("class") == "skip"
    keys.send_keys(Keys.ENTER).perform()
    console.wait(lambda: console.driver.switch_to.active_element.get_attribute("id") == "main", "the focus on the content")
    assert console.find("#view-slots").is_displayed(), "the skip link left the view"
    assert console.driver.execute_script("return location.hash") == "#slots"


def a_fragment_naming_no_view_opens_the_routes(server, console):
    # `#constructor` named an inherited property of the views' table: a TypeError and a blank page.
    for fragment in ["constructor", "__proto__", "toString", "nothing"]:
        console.open(fragment)
        console.wait(lambda: not console.find("#view-routes").get_attribute("hidden"), f"the routes view for #{fragment}")
    # (An error thrown meanwhile would also fail no_errors_in_the_browser below.)


def readable_at_360_pixels(server, console):
    console.driver.set_window_size(360, 800)
    wide = []
    for view in ["routes", "try", "stats", "resources", "events", "slots", "association", "qr"]:
        console.open(view)
        time.sleep(0.8)
        console.shot(f"narrow-{view}")
        width = console.driver.execute_script("return document.documentElement.scrollWidth")
        inner = console.driver.execute_script("return window.innerWidth")
        if width > inner + 1:
            wide.append(f"{view}: {width} > {inner}")
    console.driver.set_window_size(1440, 1000)
    assert not wide, wide


def no_errors_in_the_browser(server, console):
    errors = [e for e in console.browser_errors()
              # 4xx answers the checks provoked on purpose are logged by the browser as failed loads.
              if not re.search(r"status of (400|401|404|409|412)", e["message"])]
    assert not errors, errors


def with_a_read_token_the_console_asks_for_one_and_reads_with_it(server, console):
    """A server with `auth.readToken`: reads need a token too. The console asks for one as it opens, shows the tree
    with the read token, and asks again (saying the token was refused) for a write, which the admin token makes."""
    reader = Server(server.binary, read_token=READ_TOKEN)
    console.server = reader
    try:
        console.open()
        console.wait(lambda: console.find("#login").get_attribute("open") is not None, "the sign-in dialog")
        console.sign_in(READ_TOKEN)
        console.wait_text("#route-tree", "/users/:id")
        console.wait_text("#auth-state", "Signed in with a token")
        console.type("#route-path", "/read/:only")
        console.find("#route-submit").click()
        console.wait_text("#login-reason", "refused")
        console.find("#login-cancel").click()
        console.wait_text('[data-status="route-form"]', "401 unauthorized")
        status, _, body = reader.call("GET", "/v1/routes", token=READ_TOKEN)
        assert status == 200 and b"/read/:only" not in body, (status, body)
        console.find('[data-status="route-form"] button').click()
        console.sign_in(TOKEN)
        console.find("#route-submit").click()
        console.wait_text('[data-status="route-form"]', "Registered /read/:only")
        # Signed out, the events tail is refused; its sign-in cancelled, it stops saying so, and signing in from
        # that message starts it again (it stayed stopped until Resume).
        console.find("#auth-button").click()
        console.wait_text("#auth-state", "No token")
        console.go("events")
        console.wait(lambda: console.find("#login").get_attribute("open") is not None, "the sign-in dialog")
        # A mistyped token, refused for the tail's subscribe (a read, though a POST): asked again as a refused
        # token, not as one lacking the admin token's rights, and not kept once the dialog is cancelled.
        console.sign_in("readtok-typo")
        reason = console.wait_text("#login-reason", "Try again").text
        assert "admin" not in reason, reason
        console.find("#login-cancel").click()
        console.wait_text("#tail-state", "401 unauthorized")
        console.wait_text("#auth-state", "No token")
        console.find("#tail-state button").click()
        console.sign_in(READ_TOKEN)
        console.wait_text("#tail-state", "Live")
        assert console.find("#tail-pause").text == "Pause", console.find("#tail-pause").text
    finally:
        console.server = server
        reader.stop()
        shutil.rmtree(reader.folder, ignore_errors=True)


CHECKS = [
    console_is_served_with_its_headers,
    routes_view_opens_on_the_tree,
    a_write_without_token_shows_a_prompt_not_a_blank_page,
    a_wrong_token_is_refused_and_asked_again,
    register_a_route_through_the_form,
    register_with_the_link_fields_and_follow_the_tree_buttons,
    delete_a_route_through_the_tree,
    try_a_link_and_read_the_chain,
    context_json_decides_a_redirect_rule,
    try_by_name_with_a_query_and_as_a_bot,
    edit_a_resource_and_hit_a_conflict,
    numbers_a_page_cannot_keep_are_neither_sent_nor_saved_over,
    create_a_computed_resource_and_choose_on_exists,
    delete_a_resource_and_meet_a_changed_revision,
    an_emitted_event_appears_in_the_tail,
    the_tail_shows_dropped_events_and_a_lost_subscription,
    a_click_shows_up_in_the_chart,
    clicks_for_a_date_range,
    slots_present_dismiss_and_watch,
    a_lower_priority_waits_and_a_dismiss_meets_what_replaced_it,
    association_files_flag_shadowed_and_case_insensitive_routes,
    association_shadowing_reads_globs_as_devices_do,
    a_qr_code_for_a_link,
    qr_code_size_error_correction_and_downloads,
    sign_out_and_in_from_the_header,
    every_control_has_a_label_and_the_keyboard_reaches_the_nav,
    a_fragment_naming_no_view_opens_the_routes,
    readable_at_360_pixels,
    no_errors_in_the_browser,
    with_a_read_token_the_console_asks_for_one_and_reads_with_it,
]


def run_checks(checks, server, browser, on_failure=lambda name: None):
    """Runs each check with the server and the browser, printing `ok`/`not ok` lines; stops at the first failure,
    after `on_failure(name)`, and answers its name (None when all passed)."""
    for check in checks:
        begun = time.time()
        try:
            check(server, browser)
        except Exception:
            print(f"not ok - {check.__name__}", flush=True)
            traceback.print_exc()
            on_failure(check.__name__)
            return check.__name__
        print(f"ok - {check.__name__} ({time.time() - begun:.1f} s)", flush=True)
    return None


def main():
    started = time.time()
    server = Server(sys.argv[1])
    console = None
    failed = None
    try:
        console = Console(server)
        print(f"console test: {console.driver.capabilities.get('browserVersion')} against {server.base}", flush=True)

        def report(name):
            try:
                console.shot(f"FAILED-{name}")
                print("--- page text ---\n" + console.find("main").text[:4000])
                print("--- browser log ---\n" + "\n".join(e["message"] for e in console.driver.get_log("browser")))
            except Exception:
                pass

        failed = run_checks(CHECKS, server, console, report)
    finally:
        if console:
            console.driver.quit()
        server.finish(failed)
    print(f"console test: {'FAILED at ' + failed if failed else 'all checks passed'} in {time.time() - started:.1f} s; "
          f"screenshots in {SHOTS}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
