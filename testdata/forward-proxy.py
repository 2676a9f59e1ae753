#!/usr/bin/env python3
"""A forward HTTP proxy for vow's tests: every request it is sent, whatever host it names, goes to
127.0.0.1:UPSTREAM (the fixture server), so that a test can name hosts that do not exist and still
see the proxy answer. It handles the absolute form (GET http://host/path) and CONNECT tunnels.
Each request's first line is appended to LOG. Prints its port, then serves until stdin closes.

    forward-proxy.py UPSTREAM_PORT LOG
"""
import socket
import sys
import threading

upstream = int(sys.argv[1])
log_path = sys.argv[2]
lock = threading.Lock()


def log(line):
    with lock, open(log_path, "a") as f:
        f.write(line + "\n")


def pipe(a, b):
    try:
        while True:
            data = a.recv(65536)
            if not data:
                break
            b.sendall(data)
    except OSError:
        pass
    finally:
        for s in (a, b):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def handle(client):
    buf = b""
    while b"\r\n\r\n" not in buf:
        data = client.recv(65536)
        if not data:
            client.close()
            return
        buf += data
    head, rest = buf.split(b"\r\n\r\n", 1)
    lines = head.split(b"\r\n")
    method, target, version = lines[0].decode("latin-1").split(" ", 2)
    log("%s %s" % (method, target))
    server = socket.create_connection(("127.0.0.1", upstream))
    if method == "CONNECT":
        client.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
        if rest:
            server.sendall(rest)
    else:
        # Absolute form to origin form; the host it was meant for goes along as a header.
        after = target.split("://", 1)[1]
        host, _, path = after.partition("/")
        first = ("%s /%s %s" % (method, path, version)).encode("latin-1")
        server.sendall(b"\r\n".join([first] + lines[1:] + [b"X-Proxied-For: " + host.encode("latin-1")]) + b"\r\n\r\n" + rest)
    threading.Thread(target=pipe, args=(server, client), daemon=True).start()
    pipe(client, server)


listener = socket.socket()
listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
listener.bind(("127.0.0.1", 0))
listener.listen(64)
print(listener.getsockname()[1], flush=True)


def serve():
    while True:
        c, _ = listener.accept()
        threading.Thread(target=handle, args=(c,), daemon=True).start()


threading.Thread(target=serve, daemon=True).start()
sys.stdin.read()
