#!/usr/bin/env python3
"""Loads Entitle's dashboard in headless Chromium and checks that it renders what the API reports.

Usage: dashboard-browser-check.py BASE_URL SECRET_KEY [SCREENSHOT.png]

Signs in with the secret key through the login form, then compares every headline figure, chart and
table of the overview, the funnels, cohorts and products pages, a subscriber's timeline and a CSV export with
GET /v1/analytics/overview, GET /v1/analytics/funnels (and GET /v1/subscribers/{id}) fetched with the same key. Charts must have
a laid-out size in the browser, not only exist in the markup. Exits 1 listing every mismatch.
"""
import json
import sys
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait
from selenium.webdriver.support.select import Select
from selenium.webdriver.common.virtual_authenticator import VirtualAuthenticatorOptions

base, key = sys.argv[1].rstrip("/"), sys.argv[2]
screenshot = sys.argv[3] if len(sys.argv) > 3 else None
problems = []


def check(condition, message):
    if not condition:
        problems.append(message)


def api(path, cookie=None):
    request = urllib.request.Request(base + path)
    if cookie:
        request.add_header("Cookie", cookie)
    else:
        request.add_header("Authorization", "Bearer " + key)
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.read().decode()


report = json.loads(api("/v1/analytics/overview"))
months = report["months"]
currencies = report["currencies"]

options = webdriver.ChromeOptions()
for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1600,2400"]:
    options.add_argument(argument)
options.binary_location = "/usr/bin/chromium"
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
# Pages load as the machine allows: every look-up waits for its element up to 15 s, and every click that
# navigates waits until the page it leaves is gone.
driver.implicitly_wait(15)


def gone(element):
    """True once the element has left the document. Chromium reports a node of a page that has just been
    replaced either as stale or, mid-navigation, with an inspector error; both mean it is gone."""
    def predicate(_):
        try:
            element.is_enabled()
            return False
        except WebDriverException:
            return True
    return predicate


def navigate(action):
    old = driver.find_element(By.TAG_NAME, "html")
    action()
    WebDriverWait(driver, 30).until(gone(old))
    WebDriverWait(driver, 30, ignored_exceptions=(WebDriverException,)).until(
        lambda d: d.execute_script("return document.readyState") == "complete")

driver.set_page_load_timeout(60)
try:
    # Unauthenticated: the dashboard sends the browser to the sign-in form; a wrong key is refused.
    driver.get(base + "/dashboard")
    check(driver.current_url.endswith("/dashboard/login"), f"without a session /dashboard lands on {driver.current_url}")
    # The key's form is folded under the people's (email and password).
    driver.find_element(By.CSS_SELECTOR, "details summary").click()
    driver.find_element(By.NAME, "key").send_keys("sk_not_a_key_of_this_server")
    navigate(driver.find_element(By.CSS_SELECTOR, "form[data-key-sign-in] button[type=submit]").click)
    check(len([e for e in driver.find_elements(By.CSS_SELECTOR, "p.error") if e.is_displayed()]) == 1, "a wrong key shows an error")
    driver.find_element(By.CSS_SELECTOR, "details summary").click()
    driver.find_element(By.NAME, "key").send_keys(key)
    navigate(driver.find_element(By.CSS_SELECTOR, "form[data-key-sign-in] button[type=submit]").click)
    check(driver.title.startswith("Overview"), f"after sign-in the title is {driver.title!r}")

    # The report on the page must be the same range as the API's default.
    check(driver.find_element(By.NAME, "from").get_attribute("value") == report["from"], "the range starts where the API's does")
    check(driver.find_element(By.NAME, "to").get_attribute("value") == report["to"], "the range ends where the API's does")

    # Headline figures.
    current = report["current"]
    expected = {
        "active-paid": current["activePaid"],
        "active-trials": current["activeTrials"],
        "active-app-trials": current["activeAppTrials"],
        "active-family-shared": current["activeFamilyShared"],
    }
    for currency in currencies:
        expected[f"mrr-{currency}"] = current["mrr"].get(currency, 0)
        expected[f"arr-{currency}"] = current["arr"].get(currency, 0)
    for metric, value in expected.items():
        element = driver.find_element(By.CSS_SELECTOR, f'[data-metric="{metric}"]')
        check(int(element.get_attribute("data-value")) == value, f"card {metric}: page {element.get_attribute('data-value')}, API {value}")
        check(element.is_displayed() and element.text.strip() != "", f"card {metric} is shown")

    def chart(name):
        svg = driver.find_element(By.CSS_SELECTOR, f'svg[data-chart="{name}"]')
        size = svg.size
        check(size["width"] > 300 and size["height"] > 100, f"chart {name} is laid out ({size})")
        return {g.get_attribute("data-series"): g for g in svg.find_elements(By.CSS_SELECTOR, "g.series")}

    def bars(group):
        return [float(rect.get_attribute("data-value")) for rect in group.find_elements(By.TAG_NAME, "rect")]

    # Daily line charts: one point per day, ending on the API's figures.
    days = len(report["daily"])
    last = report["daily"][-1]
    mrr = chart("mrr")
    for currency in currencies:
        series = mrr.get(f"MRR {currency}")
        check(series is not None, f"the MRR chart has a {currency} series")
        if series is not None:
            check(int(series.get_attribute("data-count")) == days, f"MRR {currency} has {days} points")
            check(series.get_attribute("data-last") == "%.2f" % (last["mrr"].get(currency, 0) / 1000), f"MRR {currency} ends at the API's MRR")
            points = series.find_element(By.TAG_NAME, "polyline").get_attribute("points").split()
            check(len(points) == days, f"MRR {currency} draws {len(points)} of {days} points")
    active = chart("active")
    for name, field in [("Paid", "activePaid"), ("Introductory trials", "activeTrials"), ("App-managed trials", "activeAppTrials"), ("Family-shared", "activeFamilyShared")]:
        series = active.get(name)
        check(series is not None and series.get_attribute("data-last") == str(last[field]), f"active chart {name} ends at {last[field]}")

    # Monthly bar charts: one bar per month with the API's value.
    trials = chart("trials")
    check(bars(trials["Introductory trials started"]) == [m["introTrialStarts"] for m in months], "trial starts per month match")
    check(bars(trials["App-managed trials started"]) == [m["appTrialStarts"] for m in months], "app trial starts per month match")
    churn = chart("churn")
    check(bars(churn["Churn %"]) == [round((m.get("churnRate") or 0) * 100, 1) for m in months], "churn per month matches")
    refunds = chart("refunds")
    check(bars(refunds["Refunds"]) == [m["refunds"] for m in months], "refunds per month match")
    revenue = chart("revenue")
    for currency in currencies:
        check(bars(revenue[f"Revenue {currency}"]) == [round(m["revenue"].get(currency, 0) / 1000, 2) for m in months], f"revenue {currency} per month matches")
    proceeds = chart("proceeds")
    for currency in currencies:
        check(bars(proceeds[f"Proceeds {currency}"]) == [round(m["proceeds"].get(currency, 0) / 1000, 2) for m in months], f"proceeds {currency} per month match")

    # The business checks panel: every check with its threshold.
    checks = driver.find_elements(By.CSS_SELECTOR, 'section[data-checks] table[data-table="checks"] tbody tr')
    names = [r.find_elements(By.TAG_NAME, "td")[0].text for r in checks]
    check(all(name in names for name in ["Introductory trial conversion", "App-managed trial conversion", "Paywall bounce", "Purchase failures", "Payment failures"]),
          f"the business checks panel lists its checks ({names})")

    # The monthly table.
    rows = driver.find_elements(By.CSS_SELECTOR, 'table[data-table="monthly"] tbody tr')
    check([r.find_elements(By.TAG_NAME, "td")[0].text for r in rows] == [m["month"] for m in months], "the monthly table lists the API's months")
    check([int(r.find_elements(By.TAG_NAME, "td")[3].text.replace(",", "")) for r in rows] == [m["newPaid"] for m in months], "new paid per month match")
    if screenshot:
        driver.save_screenshot(screenshot)
        # Proceeds, and the amounts in one currency when the server has exchange rates.
        panels = driver.find_elements(By.CSS_SELECTOR, "section[data-reporting]") or driver.find_elements(By.CSS_SELECTOR, 'svg[data-chart="proceeds"]')
        if panels:
            driver.execute_script("arguments[0].scrollIntoView()", panels[0])
            driver.save_screenshot(screenshot.replace(".png", "-proceeds.png"))
            driver.execute_script("window.scrollTo(0, 0)")
    if report.get("reporting"):
        reporting_rows = driver.find_elements(By.CSS_SELECTOR, 'table[data-table="reporting"] tbody tr')
        check([r.find_elements(By.TAG_NAME, "td")[0].text for r in reporting_rows] == [m["month"] for m in report["reporting"]["months"]],
              f"the months in {report['reporting']['currency']} match")

    # CSV export with the browser's session.
    session = driver.get_cookie("entitle_session")
    check(session is not None and session.get("httpOnly"), "the session cookie is HttpOnly")
    if session:
        lines = api(f"/dashboard/export/churn.csv?from={report['from']}&to={report['to']}", cookie=f"entitle_session={session['value']}").strip().split("\r\n")
        check(lines[0] == "month,active_at_start,expirations,reactivations,churn_rate", f"churn CSV header {lines[0]!r}")
        check([line.split(",")[2] for line in lines[1:]] == [str(m["expirations"]) for m in months], "churn CSV expirations match")

    # Cohorts and products.
    navigate(driver.find_element(By.LINK_TEXT, "Cohorts").click)
    cohort_rows = driver.find_elements(By.CSS_SELECTOR, 'table[data-table="cohorts"] tbody tr')
    shown = sorted({(r.find_elements(By.TAG_NAME, "td")[0].text, int(r.find_elements(By.TAG_NAME, "td")[1].text.replace(",", ""))) for r in cohort_rows})
    check(shown == sorted((c["cohort"], c["customers"]) for c in report["cohorts"]), "cohorts and their sizes match")
    retention_rows = driver.find_elements(By.CSS_SELECTOR, 'table[data-table="retention"] tbody tr')
    shown = [(r.find_elements(By.TAG_NAME, "td")[0].text, int(r.find_elements(By.TAG_NAME, "td")[1].text.replace(",", ""))) for r in retention_rows]
    check(shown == [(c["cohort"], c["customers"]) for c in report["retention"]], f"retention cohorts and their sizes match ({len(shown)})")
    check(len(shown) > 0, "the demo's customers have retention cohorts")
    if screenshot:
        driver.save_screenshot(screenshot.replace(".png", "-cohorts.png"))
    navigate(driver.find_element(By.LINK_TEXT, "Products").click)
    product_rows = driver.find_elements(By.CSS_SELECTOR, 'table[data-table="products"] tbody tr')
    shown = sorted((r.find_elements(By.TAG_NAME, "td")[0].text, int(r.find_elements(By.TAG_NAME, "td")[2].text.replace(",", ""))) for r in product_rows)
    check(shown == sorted((p["product"], p["activePaid"]) for p in report["products"]), "products and their active counts match")
    storefront_rows = driver.find_elements(By.CSS_SELECTOR, 'table[data-table="storefronts"] tbody tr')
    shown = [(r.find_elements(By.TAG_NAME, "td")[0].text, int(r.find_elements(By.TAG_NAME, "td")[1].text.replace(",", ""))) for r in storefront_rows]
    check(shown == [(s["storefront"] or "–", s["newPaid"]) for s in report["storefronts"]], f"storefronts and their new paid match ({shown})")

    # Funnels: the path from first seen to paid, the monthly charts and the table by paywall.
    funnels = json.loads(api("/v1/analytics/funnels"))
    navigate(driver.find_element(By.LINK_TEXT, "Funnels").click)
    check(driver.title.startswith("Funnels"), f"the funnels page's title is {driver.title!r}")
    path = funnels["path"]
    check(path["sawPaywall"] > 0, "the demo's subscribers saw paywalls")
    for metric, field in [("arrivals", "arrivals"), ("arrivals-saw-paywall", "sawPaywall"), ("arrivals-trials", "trials"), ("arrivals-paid", "paid")]:
        element = driver.find_element(By.CSS_SELECTOR, f'[data-metric="{metric}"]')
        check(int(element.get_attribute("data-value")) == path[field], f"card {metric}: page {element.get_attribute('data-value')}, API {path[field]}")
    arrivals = chart("arrivals")
    check(bars(arrivals["First seen"]) == [m["path"]["arrivals"] for m in funnels["months"]], "arrivals per month match")
    check(bars(arrivals["Paid"]) == [m["path"]["paid"] for m in funnels["months"]], "arrivals who paid per month match")
    paywall_chart = chart("paywalls")
    check(bars(paywall_chart["Impressions"]) == [m["paywalls"]["impressions"] for m in funnels["months"]], "paywall impressions per month match")
    funnel_rows = driver.find_elements(By.CSS_SELECTOR, 'table[data-table="funnel-paywall"] tbody tr')
    shown = sorted((r.find_elements(By.TAG_NAME, "td")[0].text, int(r.find_elements(By.TAG_NAME, "td")[1].text.replace(",", ""))) for r in funnel_rows)
    check(shown and shown == sorted((s["value"], s["impressions"]) for s in funnels["segments"] if s["dimension"] == "paywall"),
          "the paywalls and their impressions match")

    # Experiments: the demo's, with each variant's exposed and paid subscribers as the API reports them.
    experiments = json.loads(api("/v1/experiments"))
    check(len(experiments) > 0, "the demo runs an experiment")
    navigate(driver.find_element(By.LINK_TEXT, "Experiments").click)
    for experiment in experiments:
        results = json.loads(api(f"/v1/experiments/{experiment['id']}"))["results"]
        panel = driver.find_element(By.CSS_SELECTOR, f'section[data-experiment="{experiment["id"]}"]')
        check(panel.find_element(By.CSS_SELECTOR, "[data-state]").text == experiment["state"].replace("_", " "), f"experiment {experiment['id']}'s state")
        rows = panel.find_elements(By.CSS_SELECTOR, "tbody tr")
        shown = [(r.find_elements(By.TAG_NAME, "td")[0].text, int(r.find_elements(By.TAG_NAME, "td")[3].text.replace(",", ""))) for r in rows]
        check(shown == [(v["variantID"], v["exposed"]) for v in results["variants"]], f"experiment {experiment['id']}: variants and exposed match")
        check(sum(v["exposed"] for v in results["variants"]) > 0, f"experiment {experiment['id']} enrolled the demo's subscribers")

    # The customer list: the API's first page, then filtered (refunded), and its CSV with every match.
    navigate(driver.find_element(By.LINK_TEXT, "Customers").click)
    listed = [r.find_elements(By.TAG_NAME, "td")[0].text for r in driver.find_elements(By.CSS_SELECTOR, 'table[data-table="customers"] tbody tr')]
    first_page = json.loads(api("/v1/subscribers?limit=50"))
    check(listed == [c["appUserID"] for c in first_page["subscribers"]], f"the customers page lists the API's first page ({len(listed)})")
    check(driver.find_elements(By.CSS_SELECTOR, "a[data-next]") != [] or first_page.get("nextCursor") is None, "a next page link while there are more")
    driver.find_element(By.CSS_SELECTOR, 'form[data-filters] select[name="refunded"] option[value="true"]').click()
    navigate(driver.find_element(By.CSS_SELECTOR, "form[data-filters] button").click)
    refunded_rows = driver.find_elements(By.CSS_SELECTOR, 'table[data-table="customers"] tbody tr')
    refunded_api = json.loads(api("/v1/subscribers?refunded=true&limit=50"))
    check([r.find_elements(By.TAG_NAME, "td")[0].text for r in refunded_rows] == [c["appUserID"] for c in refunded_api["subscribers"]],
          "filtered by refunds, the page lists what the API lists")
    check(all("refunded" in r.find_elements(By.TAG_NAME, "td")[5].text for r in refunded_rows), "every refunded row is flagged")
    if screenshot:
        driver.save_screenshot(screenshot.replace(".png", "-customers.png"))
    session = driver.get_cookie("entitle_session")
    if session:
        exported = api(driver.find_element(By.CSS_SELECTOR, "a[data-export]").get_attribute("href").replace(base, ""),
                       cookie=f"entitle_session={session['value']}").strip().split("\r\n")
        every = []
        cursor = None
        while True:
            page = json.loads(api("/v1/subscribers?refunded=true&limit=1000" + (f"&cursor={cursor}" if cursor else "")))
            every += [c["appUserID"] for c in page["subscribers"]]
            cursor = page.get("nextCursor")
            if not cursor:
                break
        check([line.split(",")[0] for line in exported[1:]] == every, f"the CSV holds every refunded customer ({len(every)})")

    # Subscriber search and timeline.
    navigate(driver.find_element(By.LINK_TEXT, "Subscribers").click)
    recent = driver.find_elements(By.CSS_SELECTOR, 'table[data-table="recent-subscribers"] tbody tr')
    check(len(recent) == 50, f"the subscribers page lists the 50 latest subscribers ({len(recent)})")
    driver.find_element(By.CSS_SELECTOR, 'form[data-filters] select[name="state"] option[value="active"]').click()
    navigate(driver.find_element(By.CSS_SELECTOR, "form[data-filters] button").click)
    active_rows = driver.find_elements(By.CSS_SELECTOR, 'table[data-table="recent-subscribers"] tbody tr')
    check(len(active_rows) > 0 and all(": active" in r.find_elements(By.TAG_NAME, "td")[2].text for r in active_rows),
          "filtered by state, every listed subscriber has an active purchase")
    box = driver.find_element(By.NAME, "q")
    box.send_keys("user-")
    navigate(box.submit)
    results = driver.find_elements(By.CSS_SELECTOR, '[data-results="subscribers"] a')
    check(len(results) > 0, "searching user- finds subscribers")
    if results:
        subscriber_id = results[0].text
        navigate(results[0].click)
        subscriber = json.loads(api(f"/v1/subscribers/{subscriber_id}"))
        check(driver.find_element(By.TAG_NAME, "h1").text == subscriber_id, "the subscriber page names the subscriber")
        shown = sorted((r.find_elements(By.TAG_NAME, "td")[0].text, r.find_elements(By.TAG_NAME, "td")[2].text)
                       for r in driver.find_elements(By.CSS_SELECTOR, 'table[data-table="entitlements"] tbody tr'))
        check(shown == sorted((e["id"], e["state"]) for e in subscriber["entitlements"]), f"{subscriber_id}'s entitlements match the API")
        timeline = driver.find_elements(By.CSS_SELECTOR, 'table[data-table="timeline"] tbody tr')
        check(len(timeline) > 0, f"{subscriber_id} has a timeline")

    # People: the owner (the key's session) invites a support agent from the accounts page; the agent
    # opens the link, chooses a password, reads the overview, and is refused an admin form.
    driver.get(base + "/dashboard/accounts")
    driver.find_element(By.CSS_SELECTOR, "form[data-invite] input[name=email]").send_keys("agent@example.com")
    Select(driver.find_element(By.CSS_SELECTOR, "form[data-invite] select[name=role]")).select_by_value("support")
    navigate(driver.find_element(By.CSS_SELECTOR, "form[data-invite] button[type=submit]").click)
    link = driver.find_element(By.CSS_SELECTOR, "code[data-invitation-link]").text
    check("/dashboard/invitation?token=inv_" in link, f"the invitation link is shown once: {link!r}")
    navigate(driver.find_element(By.CSS_SELECTOR, "header form button").click)
    driver.get(link)
    check("agent@example.com" in driver.page_source and "support" in driver.page_source, "the invitation names the person and the role")
    driver.find_element(By.NAME, "password").send_keys("a long password for the agent")
    navigate(driver.find_element(By.CSS_SELECTOR, "form[data-accept] button[type=submit]").click)
    check(driver.title.startswith("Overview"), f"after accepting the invitation the title is {driver.title!r}")
    check(driver.find_element(By.CSS_SELECTOR, "[data-signed-in]").text == "agent@example.com · support", "the header names the agent")
    driver.get(base + "/dashboard/keys")
    navigate(driver.find_element(By.CSS_SELECTOR, "form[action='/dashboard/keys'] button[type=submit]").click)
    check("needs admin" in driver.page_source and "sk_" not in driver.find_element(By.TAG_NAME, "main").text,
          "a support agent is refused the key form, told the role it needs")
    driver.get(base + "/dashboard/accounts")
    check("needs owner" in driver.page_source, "a support agent is refused the accounts page")
    # Signed out, then in again with the password.
    navigate(driver.find_element(By.CSS_SELECTOR, "header form button").click)
    driver.find_element(By.NAME, "email").send_keys("agent@example.com")
    driver.find_element(By.NAME, "password").send_keys("a long password for the agent")
    navigate(driver.find_element(By.CSS_SELECTOR, "form[data-sign-in] button[type=submit]").click)
    check(driver.title.startswith("Overview"), f"after signing in with the password the title is {driver.title!r}")

    # Passkeys, at localhost (WebAuthn takes a domain, not an IP address), with Chromium's virtual
    # authenticator: the agent adds one on their own page, signs out, and signs in with it, no password.
    navigate(driver.find_element(By.CSS_SELECTOR, "header form button").click)
    local = base.replace("127.0.0.1", "localhost")
    options = VirtualAuthenticatorOptions()
    options.protocol = VirtualAuthenticatorOptions.Protocol.CTAP2
    options.transport = VirtualAuthenticatorOptions.Transport.INTERNAL
    options.has_resident_key = True
    options.has_user_verification = True
    options.is_user_verified = True
    driver.add_virtual_authenticator(options)
    driver.get(local + "/dashboard/login")
    driver.find_element(By.NAME, "email").send_keys("agent@example.com")
    driver.find_element(By.NAME, "password").send_keys("a long password for the agent")
    navigate(driver.find_element(By.CSS_SELECTOR, "form[data-sign-in] button[type=submit]").click)
    driver.get(local + "/dashboard/me")
    driver.find_element(By.CSS_SELECTOR, "[data-passkey-name]").send_keys("virtual authenticator")
    navigate(driver.find_element(By.CSS_SELECTOR, "[data-add-passkey]").click)
    rows = driver.find_elements(By.CSS_SELECTOR, 'table[data-table="passkeys"] tbody tr')
    errors = [e.text for e in driver.find_elements(By.CSS_SELECTOR, "[data-passkey-error]") if e.text]
    check(len(rows) == 1 and "virtual authenticator" in rows[0].text, f"the passkey is listed on the agent's page (errors: {errors})")
    check(len(driver.get_credentials()) == 1, "the authenticator holds one credential")
    navigate(driver.find_element(By.CSS_SELECTOR, "header form button").click)
    navigate(driver.find_element(By.CSS_SELECTOR, "[data-passkey-sign-in]").click)
    errors = [e.text for e in driver.find_elements(By.CSS_SELECTOR, "[data-passkey-error]") if e.text]
    check(driver.title.startswith("Overview"), f"after signing in with the passkey the title is {driver.title!r} (errors: {errors})")
    check(driver.find_element(By.CSS_SELECTOR, "[data-signed-in]").text == "agent@example.com · support", "the passkey signed in the agent")

    # Signing out ends the session.
    navigate(driver.find_element(By.CSS_SELECTOR, "header form button").click)
    driver.get(local + "/dashboard")
    check(driver.current_url.endswith("/dashboard/login"), "after signing out /dashboard asks to sign in again")
finally:
    driver.quit()

if problems:
    print("dashboard check failed:", file=sys.stderr)
    for problem in problems:
        print("  - " + problem, file=sys.stderr)
    sys.exit(1)
print(f"dashboard check passed: {report['from']}..{report['to']}, {len(months)} months, {len(report['daily'])} days, "
      f"MRR {current['mrr']}, {current['activePaid']} paid, {current['activeTrials']} trials, {len(report['cohorts'])} cohorts, "
      f"{funnels['path']['arrivals']} arrivals of whom {funnels['path']['sawPaywall']} saw a paywall and {funnels['path']['paid']} paid, {len(experiments)} experiment(s); "
      f"a support agent invited, refused the key form and the accounts page, signed in with a password and with a passkey")
