#!/usr/bin/env python3
"""A server for the HTTP cache's tests: each path answers with the caching headers it is named
for, and counts the requests it got, so a test can tell a cache hit (no request) from a
revalidation (a conditional request, answered 304) and a miss.

    python3 testdata/cache-server.py

It listens on 127.0.0.1 on a free port, prints the port, and serves:

    /fresh            Cache-Control: max-age=60
    /expires          Expires a minute after Date
    /no-cache         Cache-Control: no-cache, ETag "v1" (304 to If-None-Match: "v1")
    /modified         Cache-Control: max-age=0, Last-Modified (304 to If-Modified-Since)
    /no-store         Cache-Control: no-store, max-age=60
    /vary             Cache-Control: max-age=60, Vary: Accept (the body echoes Accept)
    /auth             Cache-Control: max-age=60 (the body echoes Authorization)
    /etag-changes     Cache-Control: no-cache, ETag "vN" where N counts its requests
    /count?path=P     {"P": requests to P, "conditional": conditional requests to P}
    /doc              GET: the document with ETag "vN"; PUT with If-Match "vN": stored, N + 1;
                      PUT with another If-Match: 412 with the current ETag in the body
"""
import json
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from email.utils import formatdate
import time
import threading
from urllib.parse import urlparse, parse_qs

counts = {}
conditional = {}
lock = threading.Lock()
LAST_MODIFIED = formatdate(time.time() - 3600, usegmt=True)
doc = {"version": 1, "body": {"title": "first"}}
# What PUT /mutable stores and GET /mutable gives (fresh for 60 s).
mutable = {"value": None}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send(self, status, body, headers):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Date", formatdate(time.time(), usegmt=True))
        for k, v in headers:
            self.send_header(k, v)
        if status != 304:
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if status != 304:
            self.wfile.write(data)

    def do_GET(self):
        url = urlparse(self.path)
        path = url.path
        if path == "/count":
            p = parse_qs(url.query).get("path", [""])[0]
            with lock:
                self.send(200, {"requests": counts.get(p, 0), "conditional": conditional.get(p, 0)}, [("Cache-Control", "no-store")])
            return
        inm, ims = self.headers.get("If-None-Match"), self.headers.get("If-Modified-Since")
        with lock:
            counts[path] = counts.get(path, 0) + 1
            n = counts[path]
            if inm or ims:
                conditional[path] = conditional.get(path, 0) + 1
        if path == "/fresh":
            self.send(200, {"n": n}, [("Cache-Control", "max-age=60")])
        elif path == "/expires":
            self.send(200, {"n": n}, [("Expires", formatdate(time.time() + 60, usegmt=True))])
        elif path == "/no-cache":
            if inm == '"v1"':
                self.send(304, None, [("ETag", '"v1"'), ("Cache-Control", "no-cache")])
            else:
                self.send(200, {"n": n}, [("ETag", '"v1"'), ("Cache-Control", "no-cache")])
        elif path == "/modified":
            if ims == LAST_MODIFIED:
                self.send(304, None, [("Cache-Control", "max-age=0")])
            else:
                self.send(200, {"n": n}, [("Last-Modified", LAST_MODIFIED), ("Cache-Control", "max-age=0")])
        elif path == "/no-store":
            self.send(200, {"n": n}, [("Cache-Control", "no-store, max-age=60")])
        elif path == "/vary":
            self.send(200, {"n": n, "accept": self.headers.get("Accept")}, [("Cache-Control", "max-age=60"), ("Vary", "Accept")])
        elif path == "/auth":
            self.send(200, {"n": n, "auth": self.headers.get("Authorization")}, [("Cache-Control", "max-age=60")])
        elif path == "/doc":
            with lock:
                self.send(200, doc["body"], [("ETag", '"v%d"' % doc["version"]), ("Cache-Control", "no-cache")])
        elif path == "/mutable":
            with lock:
                self.send(200, {"n": n, "value": mutable["value"]}, [("Cache-Control", "max-age=60")])
        elif path == "/etag-changes":
            self.send(200, {"n": n}, [("ETag", '"v%d"' % n), ("Cache-Control", "no-cache")])
        else:
            self.send(404, {"error": "no such path"}, [])


def do_PUT(self):
    length = int(self.headers.get("Content-Length", "0"))
    body = json.loads(self.rfile.read(length) or b"null")
    if self.path == "/mutable" or self.path == "/mutable-elsewhere":
        with lock:
            mutable["value"] = body
        # A change made through another URL names the one it changed (Content-Location).
        self.send(200, body, [("Content-Location", "/mutable")] if self.path == "/mutable-elsewhere" else [])
        return
    with lock:
        current = '"v%d"' % doc["version"]
        if self.path != "/doc" or self.headers.get("If-Match") not in (current, "*"):
            self.send(412, {"error": "precondition failed", "current": current}, [("ETag", current)])
            return
        doc["version"] += 1
        doc["body"] = body
        self.send(200, body, [("ETag", '"v%d"' % doc["version"])])


Handler.do_PUT = do_PUT


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
