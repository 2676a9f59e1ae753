#!/usr/bin/env python3
"""An HTTP server that keeps the time each request arrived by its own clock, for the tests of
rate limits: GET /times gives the arrival times (seconds, monotonic) of every other request so
far but those of /warm, as JSON; GET /hits gives how many requests each path had. Other paths:

  /pages/N        {"items": [N], "next": "/pages/N+1"} up to page 10, whose next is null
  /status/CODE    an empty JSON object with that status
  anything else   200 {"ok": true}; a POST is 201 and echoes its JSON body

Prints its port on the first line of standard output, then serves until killed.
"""
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

lock = threading.Lock()
times = []
hits = {}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send(self, status, value):
        body = json.dumps(value).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        now = time.monotonic()
        if self.path == "/times":
            with lock:
                self.send(200, list(times))
            return
        if self.path == "/hits":
            with lock:
                self.send(200, dict(hits))
            return
        with lock:
            if self.path != "/warm":
                times.append(now)
            hits[self.path] = hits.get(self.path, 0) + 1
        parts = self.path.strip("/").split("/")
        if len(parts) == 2 and parts[0] == "pages" and parts[1].isdigit():
            n = int(parts[1])
            self.send(200, {"items": [n], "next": f"/pages/{n + 1}" if n < 10 else None})
        elif len(parts) == 2 and parts[0] == "status" and parts[1].isdigit():
            self.send(int(parts[1]), {})
        else:
            self.send(200, {"ok": True})


    def do_POST(self):
        now = time.monotonic()
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length)
        with lock:
            times.append(now)
            hits[self.path] = hits.get(self.path, 0) + 1
        try:
            value = json.loads(body or b"null")
        except ValueError:
            self.send(400, {"error": "not JSON"})
            return
        self.send(201, value)


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
