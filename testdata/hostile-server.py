#!/usr/bin/env python3
"""A misbehaving HTTP/1.1 server for vow's tests: each route breaks the protocol in one way on
purpose (resets, excess or missing bytes, bodies where none may be, contradictory framing, broken
or nested content codings, decompression bombs, endless lines, stalled headers), so that the
client's tests can check it survives what curl survives. Connections are kept alive, several
requests each, unless a route says otherwise. Each request line is appended to LOG if one is
named. Prints its port, then serves until stdin closes.

    hostile-server.py [LOG]

Routes (query parameters optional):
    /ok                  200 "ok", keep-alive
    /reset-after         200 "ok" with keep-alive headers, then a TCP reset ~20 ms later
    /excess              200 Content-Length: 2, but more bytes follow; connection kept
    /excess-late         the same, the extra bytes written 10 ms after the response
    /no-content-body     204 followed by body bytes; connection kept
    /not-modified-body   304 followed by body bytes; connection kept
    /short               200 Content-Length: 100 with 10 bytes of body, then close
    /te-and-cl           200 with both Transfer-Encoding: chunked and Content-Length: 5
    /garbage-status      "HTTP/1.1 two hundred OK" then close
    /not-http            an SSH banner then close
    /gzip-twice          Content-Encoding: gzip, gzip
    /gzip-bad            Content-Encoding: gzip with a corrupt stream
    /gzip?size=N         N bytes of patterned data, gzip (default 100000)
    /deflate?size=N      the same, zlib (RFC 1950) deflate
    /br?size=N           the same, brotli (501 if no brotli module or command)
    /gzip-bomb?size=N    N zero bytes, gzip (default 1 GiB)
    /endless-line?mb=N   chunked ndjson: N MiB of "a" with no newline (default 512)
    /endless-event?mb=N  chunked event stream: "data: " then N MiB of "a" with no newline
    /slow-headers        a status line, then nothing for 30 s, then close
    anything else        404
"""
import os
import shutil
import socket
import struct
import subprocess
import sys
import threading
import time
import zlib
from urllib.parse import parse_qs, urlsplit

try:
    import brotli
except ImportError:
    brotli = None
brotli_command = shutil.which("brotli")

log_path = sys.argv[1] if len(sys.argv) > 1 else None
log_lock = threading.Lock()
cache = {}
cache_lock = threading.Lock()
key_locks = {}

MIB = 1 << 20
CHUNK = 64 * 1024
MAX_HEAD = 64 * 1024


def log(line):
    if log_path is None:
        return
    with log_lock, open(log_path, "a") as f:
        f.write(line + "\n")
        f.flush()


def cached(key, make):
    """make() once per key, even when several connections ask at the same time."""
    with cache_lock:
        if key in cache:
            return cache[key]
        lock = key_locks.setdefault(key, threading.Lock())
    with lock:
        with cache_lock:
            if key in cache:
                return cache[key]
        value = make()
        with cache_lock:
            cache[key] = value
        return value


def patterned(n):
    # bytes((i * 31 + 7) % 251 for i in range(n)), which repeats every 251 bytes.
    period = bytes((i * 31 + 7) % 251 for i in range(251))
    return (period * (n // 251 + 1))[:n]


def gzip_bytes(data):
    c = zlib.compressobj(wbits=31)
    return c.compress(data) + c.flush()


def deflate_bytes(data):
    return zlib.compress(data)


def brotli_bytes(data):
    if brotli is not None:
        return brotli.compress(data)
    return subprocess.run([brotli_command, "-c"], input=data, stdout=subprocess.PIPE, check=True).stdout


def gzip_zeros(n):
    c = zlib.compressobj(wbits=31)
    zeros = bytes(MIB)
    out = []
    left = n
    while left > 0:
        step = min(left, MIB)
        out.append(c.compress(zeros if step == MIB else bytes(step)))
        left -= step
    out.append(c.flush())
    return b"".join(out)


REASONS = {200: "OK", 204: "No Content", 304: "Not Modified", 400: "Bad Request", 404: "Not Found",
           431: "Request Header Fields Too Large", 501: "Not Implemented"}


def head(status, headers, keep):
    lines = ["HTTP/1.1 %d %s" % (status, REASONS[status])]
    lines += ["%s: %s" % kv for kv in headers]
    lines.append("Connection: " + ("keep-alive" if keep else "close"))
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


def plain(status, body, keep, content_type="text/plain", extra=()):
    return head(status, [("Content-Type", content_type), ("Content-Length", str(len(body)))] + list(extra), keep) + body


class Closed(Exception):
    """The route is done with the connection (or the client went away)."""


def reset(conn):
    conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    conn.close()
    raise Closed


def size_param(query, name, default):
    values = parse_qs(query).get(name)
    if not values:
        return default
    n = int(values[0])
    if n < 0:
        raise ValueError(values[0])
    return n


def chunked_stream(conn, content_type, prefix, mib, keep):
    conn.sendall(head(200, [("Content-Type", content_type), ("Transfer-Encoding", "chunked")], keep))
    piece = b"%x\r\n" % CHUNK + b"a" * CHUNK + b"\r\n"
    try:
        if prefix:
            conn.sendall(b"%x\r\n" % len(prefix) + prefix + b"\r\n")
        for _ in range(mib * (MIB // CHUNK)):
            conn.sendall(piece)
        conn.sendall(b"0\r\n\r\n")
    except (BrokenPipeError, ConnectionResetError):
        raise Closed


def slow_headers(conn):
    conn.sendall(b"HTTP/1.1 200 OK\r\n")
    deadline = time.monotonic() + 30
    # Nothing more for 30 s; stop early if the client hangs up (its timeout fired).
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            break
        conn.settimeout(left)
        try:
            if not conn.recv(65536):
                break
        except socket.timeout:
            break
        except OSError:
            break
    raise Closed


def respond(conn, method, target, keep):
    """Answer one request. Returns normally to keep the connection, raises Closed to drop it."""
    url = urlsplit(target)
    path, query = url.path, url.query
    if path == "/ok":
        conn.sendall(plain(200, b"ok", keep))
    elif path == "/reset-after":
        conn.sendall(head(200, [("Content-Type", "text/plain"), ("Content-Length", "2"),
                                ("Keep-Alive", "timeout=5, max=100")], True) + b"ok")
        time.sleep(0.02)
        reset(conn)
    elif path == "/excess":
        conn.sendall(head(200, [("Content-Type", "text/plain"), ("Content-Length", "2")], keep)
                     + b"okEXTRA-BYTES-NOT-PART-OF-ANY-RESPONSE\r\n")
    elif path == "/excess-late":
        conn.sendall(head(200, [("Content-Type", "text/plain"), ("Content-Length", "2")], keep) + b"ok")
        time.sleep(0.01)
        conn.sendall(b"EXTRA-BYTES-NOT-PART-OF-ANY-RESPONSE\r\n")
    elif path == "/no-content-body":
        conn.sendall(head(204, [], keep) + b"oops this is a body")
    elif path == "/not-modified-body":
        conn.sendall(head(304, [], keep) + b"oops this is a body")
    elif path == "/short":
        conn.sendall(head(200, [("Content-Type", "text/plain"), ("Content-Length", "100")], False) + b"0123456789")
        raise Closed
    elif path == "/te-and-cl":
        conn.sendall(head(200, [("Content-Type", "text/plain"), ("Transfer-Encoding", "chunked"),
                                ("Content-Length", "5")], keep) + b"2\r\nok\r\n0\r\n\r\n")
    elif path == "/chunk-spaces":
        # Whitespace after a chunk size (RFC 9112 §7.1.1 allows it before an extension).
        response = (head(200, [("Content-Type", "text/plain"), ("Transfer-Encoding", "chunked")], keep)
                    + (b"5 x\r\nhello\r\n0\r\n\r\n" if "junk=1" in query
                       else b"5 ;ext=1\r\nhello\r\n6\t \r\n world\r\n0 \r\nX-Trailer: 1\r\n\r\n"))
        if "trickle=1" in query:
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            for i in range(len(response)):
                conn.sendall(response[i:i + 1])
                time.sleep(0.001)
        else:
            conn.sendall(response)
    elif path == "/bom":
        conn.sendall(plain(200, b"\xef\xbb\xbf" + b'{"name": "ada"}', keep, "application/json"))
    elif path == "/nul-header":
        conn.sendall(b"HTTP/1.1 200 OK\r\nX-Bad: a\x00b\r\nContent-Length: 2\r\n\r\nok")
        raise Closed
    elif path == "/garbage-status":
        conn.sendall(b"HTTP/1.1 two hundred OK\r\nContent-Length: 2\r\n\r\nok")
        raise Closed
    elif path == "/not-http":
        conn.sendall(b"SSH-2.0-OpenSSH_9.2\r\n")
        raise Closed
    elif path == "/gzip-twice":
        body = cached(("gzip-twice",), lambda: gzip_bytes(gzip_bytes(b"hello twice\n")))
        conn.sendall(plain(200, body, keep, extra=[("Content-Encoding", "gzip, gzip")]))
    elif path == "/gzip-bad":
        body = gzip_bytes(b"hello, this will not survive\n")[:10] + b"\xff" * 30
        conn.sendall(plain(200, body, keep, extra=[("Content-Encoding", "gzip")]))
    elif path in ("/gzip", "/deflate", "/br"):
        n = size_param(query, "size", 100000)
        if path == "/br" and brotli is None and brotli_command is None:
            conn.sendall(plain(501, b"no brotli on this machine\n", keep))
            return
        coding, compress = {"/gzip": ("gzip", gzip_bytes), "/deflate": ("deflate", deflate_bytes),
                            "/br": ("br", brotli_bytes)}[path]
        body = cached((coding, n), lambda: compress(patterned(n)))
        conn.sendall(plain(200, body, keep, "application/octet-stream", [("Content-Encoding", coding)]))
    elif path == "/gzip-bomb":
        n = size_param(query, "size", 1 << 30)
        body = cached(("bomb", n), lambda: gzip_zeros(n))
        conn.sendall(plain(200, body, keep, "application/octet-stream", [("Content-Encoding", "gzip")]))
    elif path == "/endless-line":
        chunked_stream(conn, "application/x-ndjson", b"", size_param(query, "mb", 512), keep)
    elif path == "/endless-event":
        chunked_stream(conn, "text/event-stream", b"data: ", size_param(query, "mb", 512), keep)
    elif path == "/slow-headers":
        slow_headers(conn)
    else:
        conn.sendall(plain(404, b"not found: " + path.encode("latin-1", "replace") + b"\n", keep))
    if not keep:
        raise Closed


def handle(conn):
    buf = b""
    try:
        while True:
            while b"\r\n\r\n" not in buf:
                if len(buf) > MAX_HEAD:
                    conn.sendall(plain(431, b"request head too large\n", False))
                    return
                data = conn.recv(65536)
                if not data:
                    return
                buf += data
            raw, buf = buf.split(b"\r\n\r\n", 1)
            lines = raw.decode("latin-1").split("\r\n")
            request_line = lines[0]
            log(request_line)
            parts = request_line.split(" ")
            if len(parts) != 3 or not parts[2].startswith("HTTP/"):
                conn.sendall(plain(400, b"bad request line\n", False))
                return
            method, target, version = parts
            headers = {}
            for line in lines[1:]:
                name, _, value = line.partition(":")
                headers[name.strip().lower()] = value.strip()
            if "transfer-encoding" in headers:
                conn.sendall(plain(501, b"request bodies must have a Content-Length\n", False))
                return
            try:
                length = int(headers.get("content-length", "0"))
                if length < 0:
                    raise ValueError(length)
            except ValueError:
                conn.sendall(plain(400, b"bad Content-Length\n", False))
                return
            while len(buf) < length:
                data = conn.recv(65536)
                if not data:
                    return
                buf += data
            buf = buf[length:]
            connection = headers.get("connection", "").lower()
            if version == "HTTP/1.0":
                keep = "keep-alive" in connection
            else:
                keep = "close" not in connection
            try:
                respond(conn, method, target, keep)
            except ValueError:
                conn.sendall(plain(400, b"bad query parameter\n", False))
                return
    except (Closed, OSError):
        pass
    finally:
        try:
            conn.close()
        except OSError:
            pass


def watch_stdin():
    while sys.stdin.buffer.read(65536):
        pass
    os._exit(0)


listener = socket.socket()
listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
listener.bind(("127.0.0.1", 0))
listener.listen(64)
print(listener.getsockname()[1], flush=True)
threading.Thread(target=watch_stdin, daemon=True).start()

while True:
    c, _ = listener.accept()
    threading.Thread(target=handle, args=(c,), daemon=True).start()
