#!/usr/bin/python3
"""Opens a report in headless Chromium, as a person would, and prints what
they would see as one JSON object; the Swift tests (ReportBrowserTests)
judge it. Driven through WebDriver (Debian's python3-selenium and
chromium-driver, matched to Debian's chromium): real pointer moves for
hover, real Tab presses for focus, the browser's own console and network
logs.

    open-report.py REPORT.html SCREENSHOT.png [light|dark|no-script]

no-script opens it with JavaScript turned off in the browser's settings.
CHROMEDRIVER_PORT, when set, is the port ChromeDriver listens on: the tests
give one below the kernel's ephemeral range, where Selenium's own choice
(a port-0 socket, closed again) could be taken before ChromeDriver binds it.
"""
import json
import os
import pathlib
import struct
import sys
import tempfile
import zlib

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys


def png_pixels(path):
    """Width, height and rows of RGB(A) pixels of an 8-bit PNG, decoded with the standard library."""
    with open(path, "rb") as file:
        data = file.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    offset, idat, width, height, channels = 8, b"", 0, 0, 0
    while offset < len(data):
        length, kind = struct.unpack(">I4s", data[offset:offset + 8])
        chunk = data[offset + 8:offset + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", chunk[:10])
            assert depth == 8, "only 8-bit PNGs"
            channels = {2: 3, 6: 4}[colour]
        elif kind == b"IDAT":
            idat += chunk
        offset += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for x in range(stride):
            left = line[x - channels] if x >= channels else 0
            up = previous[x]
            upper_left = previous[x - channels] if x >= channels else 0
            if kind == 1:
                line[x] = (line[x] + left) & 0xFF
            elif kind == 2:
                line[x] = (line[x] + up) & 0xFF
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - upper_left
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - upper_left)
                line[x] = (line[x] + (left if pa <= pb and pa <= pc else up if pb <= pc else upper_left)) & 0xFF
        rows.append(bytes(line))
        previous = line
    return width, height, channels, rows


def screenshot_summary(path):
    width, height, channels, rows = png_pixels(path)
    counts = {}
    for row in rows[::3]:
        for x in range(0, width * channels, channels * 3):
            pixel = row[x:x + 3]
            counts[pixel] = counts.get(pixel, 0) + 1
    total = sum(counts.values())
    background = max(counts, key=counts.get)
    return {
        "width": width,
        "height": height,
        "distinctColours": len(counts),
        "nonBackgroundShare": 1 - counts[background] / total,
        "background": list(background),
    }


CONTRAST = """
function rgb(text) { var m = text.match(/[\\d.]+/g); return m ? m.map(Number) : null; }
function luminance(c) {
  var v = c.slice(0, 3).map(function (x) { x /= 255; return x <= 0.03928 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4); });
  return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2];
}
function background(element) {
  for (var e = element; e; e = e.parentElement) {
    var c = rgb(getComputedStyle(e).backgroundColor);
    if (c && (c.length < 4 || c[3] > 0.99)) return c;
  }
  return rgb(getComputedStyle(document.documentElement).backgroundColor) || [255, 255, 255];
}
var lowest = { ratio: 99, text: null, colour: null, background: null };
var walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
for (var node = walker.nextNode(); node; node = walker.nextNode()) {
  var element = node.parentElement;
  if (!node.textContent.trim() || !element || element.closest('script, style, title')) continue;
  var style = getComputedStyle(element);
  var colour = rgb(element.namespaceURI === 'http://www.w3.org/2000/svg' ? style.fill : style.color);
  if (!colour) continue;
  var back = element.namespaceURI === 'http://www.w3.org/2000/svg' ? background(element.closest('svg')) : background(element);
  var a = luminance(colour), b = luminance(back);
  var ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  if (ratio < lowest.ratio) lowest = { ratio: ratio, text: node.textContent.trim().slice(0, 40), colour: String(colour), background: String(back) };
}
return lowest;
"""


def main():
    report, screenshot, scheme = sys.argv[1], sys.argv[2], (sys.argv[3] if len(sys.argv) > 3 else "light")
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in [
        "--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,900", "--hide-scrollbars",
        # Nothing may leave the file; were something to try, it fails here and shows in the log.
        "--host-resolver-rules=MAP * ~NOTFOUND", "--no-first-run", "--disable-extensions",
        "--user-data-dir=" + tempfile.mkdtemp(prefix="report-browser-"),
    ]:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    if scheme == "no-script":
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    port = int(os.environ.get("CHROMEDRIVER_PORT", "0"))
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver", port=port), options=options)
    try:
        # The viewport a person at a 1280×900 window sees, exactly (the window's size includes its frame).
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": False})
        if scheme == "dark":
            driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
        # Percent-encoded as the browser writes it (a space is %20), so the page's own requests are known by it.
        page = pathlib.Path(report).resolve().as_uri()
        driver.get(page)
        result = {
            "title": driver.title,
            "bars": len(driver.find_elements(By.CSS_SELECTOR, "a.fetch")),
            "slices": len(driver.find_elements(By.CSS_SELECTOR, "g[data-fetch]")),
            "aggregatedNote": driver.execute_script("var n = document.getElementById('aggregated'); return n ? n.textContent : null;"),
            "empty": driver.execute_script("var n = document.getElementById('empty'); return n ? n.textContent : null;"),
            "images": len(driver.find_elements(By.TAG_NAME, "img")),
            "scripts": len(driver.find_elements(By.TAG_NAME, "script")),
            "pwned": driver.execute_script("return window.__pwned === undefined ? null : String(window.__pwned);"),
            "background": driver.execute_script("return getComputedStyle(document.body).backgroundColor;"),
            "textColour": driver.execute_script("return getComputedStyle(document.body).color;"),
            # What a reader sees as text (WebDriver reads it with scripts off too).
            "text": driver.find_element(By.TAG_NAME, "body").text,
            "links": len(driver.find_elements(By.CSS_SELECTOR, "a.fetch[href^='#f-']")),
            "rows": len(driver.find_elements(By.CSS_SELECTOR, "tr[id^='f-']")),
            # The time axis's labels as drawn (the folds' ⋯ marks left out): text and horizontal extent.
            "axisLabels": driver.execute_script(
                "return Array.from(document.querySelectorAll('svg.timeline > text.axis')).map(function (t) {"
                " var r = t.getBoundingClientRect(); return {text: t.textContent, left: r.left, right: r.right}; });"),
            # How each kind of bar and slice is drawn (the first of each class): what besides colour tells them apart.
            "shapes": driver.execute_script(
                "var out = {}; document.querySelectorAll('svg.timeline rect.slice, svg.timeline rect.bar').forEach(function (r) {"
                " var k = r.getAttribute('class'); if (out[k]) return; var s = getComputedStyle(r);"
                " out[k] = {fill: s.fill, dash: s.strokeDasharray, height: r.getBBox().height}; }); return out;"),
            "loadMilliseconds": driver.execute_script(
                "var t = performance.getEntriesByType('navigation')[0]; return t ? t.loadEventEnd : null;"),
            # The page's sections in order, and how far down the first screen the problems start.
            "sections": driver.execute_script("return Array.from(document.querySelectorAll('body > section')).map(function (s) { return s.id; });"),
            "problemsTop": driver.execute_script("var p = document.getElementById('problems'); return p ? p.getBoundingClientRect().top : null;"),
            # The rows of the problems, sources and slowest tables as a reader sees them.
            "problemRows": driver.execute_script(
                "return Array.from(document.querySelectorAll('#problems tbody tr')).map(function (r) { return r.innerText; });"),
            "sourceRows": driver.execute_script(
                "return Array.from(document.querySelectorAll('#sources tbody tr')).map(function (r) {"
                " return {text: r.innerText, border: getComputedStyle(r.cells[0]).borderLeftWidth}; });"),
            "slowestRows": driver.execute_script(
                "return Array.from(document.querySelectorAll('#slowest tbody tr')).map(function (r) { return r.innerText; });"),
            # The lanes' labels as drawn (their tooltips left out).
            "laneLabels": driver.execute_script(
                "return Array.from(document.querySelectorAll('svg.timeline text.lane-label')).map(function (t) {"
                " return Array.from(t.childNodes).filter(function (n) { return n.nodeType === 3; }).map(function (n) { return n.textContent; }).join(''); });"),
            # Links within the page whose target is not on it.
            "brokenLinks": driver.execute_script(
                "return Array.from(document.querySelectorAll('a[href^=\"#\"]')).map(function (a) { return a.getAttribute('href').slice(1); })"
                ".filter(function (id) { return !document.getElementById(id); });"),
        }
        # WCAG contrast of every piece of text against the background it is drawn on (the nearest
        # element with an opaque one): the lowest ratio, and where.
        result["contrast"] = driver.execute_script(CONTRAST)
        targets = driver.find_elements(By.CSS_SELECTOR, "[data-fetch]")
        if targets:
            # Tab from the top of the page until a stop of the timeline has focus: the stop just before
            # it, and whether it shows when reached.
            previous, before = None, None
            for _ in range(400):
                ActionChains(driver).send_keys(Keys.TAB).perform()
                reached = driver.execute_script(
                    "var e = document.activeElement; if (!e || e === document.body) return null; var r = e.getBoundingClientRect();"
                    " return {text: e.textContent, href: e.getAttribute('href'), shown: r.width > 0 && r.left >= 0 && r.top >= 0,"
                    " inTimeline: !!e.closest('svg.timeline')};")
                if reached and reached["inTimeline"]:
                    before = previous
                    break
                previous = reached
            result["beforeTimeline"] = before
            # Back to the top: the next Tab starts from the heading.
            driver.execute_script("var h = document.querySelector('h1'); h.tabIndex = -1; h.focus(); h.removeAttribute('tabindex'); window.scrollTo(0, 0);")
            # Hover on a slice where fetches failed or timed out: the panel names its problems.
            failing = driver.find_elements(By.CSS_SELECTOR, "svg.timeline g[data-fetch]:has(path.some-failed)")
            if failing:
                ActionChains(driver).move_to_element(failing[0]).perform()
                result["failedSlice"] = {"details": driver.find_element(By.ID, "details").text, "expected": failing[0].get_attribute("data-details")}
            # Hover: the pointer moves onto the first bar; the panel shows its details.
            ActionChains(driver).move_to_element(targets[0]).perform()
            result["hoverDetails"] = driver.find_element(By.ID, "details").text
            result["hoverExpected"] = targets[0].get_attribute("data-details")
            # Focus: the pointer moves off the timeline, Tab moves through the page until a bar has
            # focus, then once more, so the bar focused is not the one the pointer was on.
            ActionChains(driver).move_to_element(driver.find_element(By.TAG_NAME, "h1")).perform()
            driver.execute_script("document.getElementById('details').textContent = '';")
            focused, reached = None, 0
            for _ in range(400):
                ActionChains(driver).send_keys(Keys.TAB).perform()
                focused = driver.execute_script(
                    "var e = document.activeElement; var t = e && e.closest ? e.closest('[data-fetch]') : null;"
                    " return t ? t.getAttribute('data-details') : null;")
                if focused:
                    reached += 1
                    if reached == 2 or len(targets) == 1:
                        break
            result["focusExpected"] = focused
            result["focusDetails"] = driver.find_element(By.ID, "details").text
        driver.save_screenshot(screenshot)
        result["screenshot"] = screenshot_summary(screenshot)
        result["consoleErrors"] = [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
        requests = []
        for entry in driver.get_log("performance"):
            message = json.loads(entry["message"])["message"]
            # Requests the report's page made (not the browser's own pages), other than for the file itself.
            if message.get("method") == "Network.requestWillBeSent" and message["params"].get("documentURL") == page:
                url = message["params"]["request"]["url"]
                if url != page:
                    requests.append(url)
        result["requests"] = requests
        print(json.dumps(result))
    finally:
        driver.quit()


main()
