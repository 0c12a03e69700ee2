#!/usr/bin/env python3
"""A developer's webhook receiver, written apart from Entitle, and the check of what it received.

  webhook-check.py receive PORT SECRET LOG   listens on 127.0.0.1:PORT; verifies each request's
                                             Entitle-Signature with Python's hmac (401 when it doesn't
                                             verify or its timestamp is stale), appends each event to LOG
  webhook-check.py check LOG SERVER KEY      waits until the server has published and settled every
                                             delivery, then checks: every signature verified, no event ID
                                             twice, and for every subscriber the last entitlement_changed
                                             agrees with GET /v1/subscribers/{id}
"""
import hashlib
import hmac
import json
import sys
import time
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def verified(header, body, secret, now, tolerance=300):
    parts = [part.split("=", 1) for part in header.split(",") if "=" in part]
    timestamps = [value for name, value in parts if name == "t"]
    if len(timestamps) != 1 or not timestamps[0].isdigit():
        return False
    # A request signed more than `tolerance` seconds from now is a replay, refused.
    if abs(now - int(timestamps[0])) > tolerance:
        return False
    expected = hmac.new(secret.encode(), timestamps[0].encode() + b"." + body, hashlib.sha256).hexdigest()
    return any(hmac.compare_digest(expected, value) for name, value in parts if name == "v1")


def receive(port, secret, log_path):
    log = open(log_path, "a", buffering=1)

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            ok = verified(self.headers.get("Entitle-Signature", ""), body, secret, time.time())
            log.write(json.dumps({"verified": ok, "eventID": self.headers.get("Entitle-Event-Id"), "event": json.loads(body) if ok else None}) + "\n")
            self.send_response(200 if ok else 401)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    class Server(ThreadingHTTPServer):
        # The sender has up to 16 requests in flight: with socketserver's default backlog of 5, the
        # connections past it were dropped and their SYN sent again a second later (one round a second).
        request_queue_size = 128

    Server(("127.0.0.1", port), Handler).serve_forever()


def api(server, key, path, app=None):
    request = urllib.request.Request(server + path, headers={"Authorization": "Bearer " + key, **({"Entitle-App": app} if app else {})})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def check(log_path, server, key):
    def settled():
        status = api(server, key, "/v1/webhooks/status")
        return status["pending"] == 0 and status["unpublishedEvents"] == 0, status

    for _ in range(240):
        done, status = settled()
        if done:
            break
        time.sleep(0.5)
    if not done:
        sys.exit(f"error: webhooks did not settle: {status}")
    for attempt in range(5):
        records = [json.loads(line) for line in open(log_path)]
        refused = [record for record in records if not record["verified"]]
        if refused:
            sys.exit(f"error: {len(refused)} webhook requests did not verify with hmac")
        events = [record["event"] for record in records]
        ids = [event["id"] for event in events]
        last = {}
        for event in events:
            if event["type"] == "entitlement_changed":
                last[event["appUserID"]] = event
        if not last:
            sys.exit("error: no entitlement_changed event arrived")
        disagree = []
        for user, event in last.items():
            answer = api(server, key, "/v1/subscribers/" + urllib.parse.quote(user, safe=""))
            if event["data"]["entitlementsAfter"] != answer["entitlements"]:
                disagree.append(user)
        if not disagree:
            break
        # Time moves on in the live demo: a change may have happened since; let it be published.
        time.sleep(3)
    if disagree:
        sys.exit(f"error: the last entitlement_changed disagrees with GET for {len(disagree)} subscribers, e.g. {disagree[:3]}")
    # Delivery is at least once: a repeat carries the same ID and the same body.
    repeats = len(ids) - len(set(ids))
    types = sorted({event["type"] for event in events})
    print(f"webhook check passed: {len(events)} events ({repeats} repeated), every signature verified with hmac, "
          f"{len(last)} subscribers' last entitlement_changed agree with GET; types {', '.join(types)}; {status['delivered']} delivered")


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "receive":
        receive(int(sys.argv[2]), sys.argv[3], sys.argv[4])
    elif len(sys.argv) == 5 and sys.argv[1] == "check":
        check(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        sys.exit(__doc__)
