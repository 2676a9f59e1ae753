#!/usr/bin/env python3
"""An API that names its description as RFC 8631 says, for `api add … --discover`.

GET / answers with `Link: </specs/notes.json>; rel="service-desc"`, and /specs/notes.json is
testdata/openapi/notes-openapi31.json; /notes is a list of two notes (ids 7 and 9); every other
path is a 404. Prints its port on the first line of standard output, then serves until
killed.
"""

import os
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

HERE = os.path.dirname(os.path.abspath(__file__))
DESCRIPTION = open(os.path.join(HERE, "openapi", "notes-openapi31.json"), "rb").read()


class Handler(BaseHTTPRequestHandler):
    def do_GET(self):
        if self.path == "/":
            self.send_response(200)
            self.send_header("Link", '</specs/notes.json>; rel="service-desc"')
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"{}")
        elif self.path == "/specs/notes.json":
            self.send_response(200)
            self.send_header("Content-Type", "application/openapi+json")
            self.send_header("Content-Length", str(len(DESCRIPTION)))
            self.end_headers()
            self.wfile.write(DESCRIPTION)
        elif self.path == "/notes":
            body = b'[{"id": 7, "text": "a"}, {"id": 9, "text": "b"}]'
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        else:
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()

    def log_message(self, *args):
        pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
try:
    server.serve_forever()
except KeyboardInterrupt:
    sys.exit(0)
