#!/usr/bin/env python3
"""An HTTP/2 server over TLS (ALPN h2) that misbehaves on purpose, for vow's tests.

Usage: h2-hostile-server.py CERT KEY  -- prints the port it listens on (127.0.0.1), then serves
until its standard input closes. Each connection is served on a thread of its own.

Paths:
  /ok                      200 with a small JSON body
  /big-header?size=N       200 whose header block holds one header of N bytes
  /many-headers?n=N        200 with N headers of their own
Header blocks larger than the peer's frame size go out as HEADERS plus CONTINUATION frames,
which is what a server with a huge header block sends.
"""
import os
import socket
import ssl
import sys
import threading
from urllib.parse import urlsplit, parse_qs

import h2.config
import h2.connection
import h2.events
import h2.settings


def hpack_int(value, prefix_bits, first=0):
    """An HPACK integer with a prefix of `prefix_bits` bits (RFC 7541, 5.1)."""
    limit = (1 << prefix_bits) - 1
    if value < limit:
        return bytes([first | value])
    out = [first | limit]
    value -= limit
    while value >= 128:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def literal(name, value):
    """A header field as a literal without indexing, neither part Huffman-coded (RFC 7541, 6.2.2)."""
    name, value = name.encode(), value.encode()
    return b"\x00" + hpack_int(len(name), 7) + name + hpack_int(len(value), 7) + value


def frame(kind, flags, stream_id, payload):
    return len(payload).to_bytes(3, "big") + bytes([kind, flags]) + stream_id.to_bytes(4, "big") + payload


def respond(conn, sock, stream_id, path):
    url = urlsplit(path)
    query = parse_qs(url.query)
    body = b'{"ok": true}'
    headers = [(":status", "200"), ("content-type", "application/json"), ("content-length", str(len(body)))]
    if url.path == "/big-header":
        size = int(query.get("size", ["65536"])[0])
        headers.append(("x-big", "a" * size))
    elif url.path == "/many-headers":
        n = int(query.get("n", ["20000"])[0])
        headers.extend((f"x-h{i}", "v") for i in range(n))
    # The frames are written here rather than by h2, whose encoder takes seconds over a
    # megabyte and which would check the header block against the peer's limit: a header block
    # larger than a frame goes out as HEADERS plus CONTINUATION frames, as a server's would.
    block = b"".join(literal(n, v) for n, v in headers)
    chunks = [block[i:i + 16384] for i in range(0, len(block), 16384)] or [b""]
    out = [frame(0x1, 0x4 if len(chunks) == 1 else 0x0, stream_id, chunks[0])]
    for i, chunk in enumerate(chunks[1:], start=2):
        out.append(frame(0x9, 0x4 if i == len(chunks) else 0x0, stream_id, chunk))
    out.append(frame(0x0, 0x1, stream_id, body))
    sock.sendall(b"".join(out))


def serve(sock):
    config = h2.config.H2Configuration(client_side=False, validate_outbound_headers=False,
                                       normalize_outbound_headers=False)
    conn = h2.connection.H2Connection(config=config)
    conn.initiate_connection()
    sock.sendall(conn.data_to_send())
    paths = {}
    try:
        while True:
            data = sock.recv(65536)
            if not data:
                return
            for event in conn.receive_data(data):
                if isinstance(event, h2.events.RequestReceived):
                    hdrs = {k.decode() if isinstance(k, bytes) else k: v.decode() if isinstance(v, bytes) else v
                            for k, v in event.headers}
                    paths[event.stream_id] = hdrs.get(":path", "/")
                    if event.stream_ended:
                        respond(conn, sock, event.stream_id, paths.pop(event.stream_id))
                elif isinstance(event, h2.events.StreamEnded) and event.stream_id in paths:
                    respond(conn, sock, event.stream_id, paths.pop(event.stream_id))
            pending = conn.data_to_send()
            if pending:
                sock.sendall(pending)
    except Exception:
        pass
    finally:
        try:
            sock.close()
        except Exception:
            pass


def watch_stdin():
    """Ends the server when its standard input closes (the test is done, or gone)."""
    while sys.stdin.buffer.read(65536):
        pass
    os._exit(0)


def main():
    cert, key = sys.argv[1], sys.argv[2]
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    context.set_alpn_protocols(["h2"])
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    print(listener.getsockname()[1], flush=True)
    threading.Thread(target=watch_stdin, daemon=True).start()
    while True:
        raw, _ = listener.accept()
        try:
            tls = context.wrap_socket(raw, server_side=True)
        except Exception:
            raw.close()
            continue
        threading.Thread(target=serve, args=(tls,), daemon=True).start()


if __name__ == "__main__":
    main()
