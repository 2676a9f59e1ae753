"""Shared helpers for scripts/bench-*: run a command, measure wall time and peak memory; the
generated JSON document of scripts/bench json and json-whole; an nginx of the benchmark's own."""
import json
import os
import random
import subprocess
import sys
import tempfile
import time


def build_release(product):
    """Builds PRODUCT in release, vow's own modules first made consistent (scripts/fresh-modules)."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    subprocess.run([os.path.join(root, "scripts/fresh-modules"), "release"], check=True)
    subprocess.run(["swift", "build", "-c", "release", "--product", product], cwd=root, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def measure(cmd, runs=3, stdin=None, env=None):
    """Runs cmd `runs` times; returns (best seconds, peak RSS in bytes of that run, stdout)."""
    best = None
    for _ in range(runs):
        start = time.perf_counter()
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=stdin, env=env)
        out, err = p.communicate()
        elapsed = time.perf_counter() - start
        if p.returncode != 0:
            sys.stderr.write("bench: %s failed (%d): %s\n" % (" ".join(cmd), p.returncode, err.decode(errors="replace")[:500]))
            sys.exit(1)
        if best is None or elapsed < best[0]:
            best = (elapsed, out)
    rss = peak_rss(cmd, stdin_path=None, env=env)
    return best[0], rss, best[1]


def peak_rss(cmd, stdin_path=None, env=None):
    """Runs cmd once and returns its peak resident set size in bytes (from wait4's rusage)."""
    pid = os.fork()
    if pid == 0:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        try:
            os.execvpe(cmd[0], cmd, env or os.environ)
        finally:
            os._exit(127)
    _, status, usage = os.wait4(pid, 0)
    return usage.ru_maxrss * 1024


def ensure_tool(name, package):
    """Installs a Debian package when its command is missing (as root, or through sudo)."""
    from shutil import which
    if which(name):
        return True
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    sys.stderr.write("bench: installing %s\n" % package)
    subprocess.run(sudo + ["apt-get", "update", "-qq"], check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    r = subprocess.run(sudo + ["apt-get", "install", "-y", "-qq", package], env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"),
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return r.returncode == 0 and which(name) is not None


def run_once(cmd, env=None):
    """Runs cmd once; returns (seconds, peak RSS in bytes, stdout), the time and the memory of the
    same run (wait4's rusage). Exits the benchmark when cmd fails."""
    out_r, out_w = os.pipe()
    err = tempfile.TemporaryFile()
    start = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(out_r)
            os.dup2(out_w, 1)
            os.dup2(err.fileno(), 2)
            os.execvpe(cmd[0], cmd, env or os.environ)
        finally:
            os._exit(127)
    os.close(out_w)
    chunks = []
    while True:
        b = os.read(out_r, 1 << 16)
        if not b:
            break
        chunks.append(b)
    os.close(out_r)
    _, status, usage = os.wait4(pid, 0)
    elapsed = time.perf_counter() - start
    if status != 0:
        err.seek(0)
        sys.stderr.write("bench: %s failed (%d): %s\n" % (" ".join(cmd), status, err.read().decode(errors="replace")[:500]))
        sys.exit(1)
    return elapsed, usage.ru_maxrss * 1024, b"".join(chunks)


def median(xs):
    """The middle of xs (the upper middle for an even count)."""
    s = sorted(xs)
    return s[len(s) // 2]


def timed_run(cmd):
    """Runs cmd once, its output to /dev/null; returns (seconds, peak RSS in bytes) from wait4.
    Exits when the command fails."""
    start = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        try:
            os.execvp(cmd[0], cmd)
        finally:
            os._exit(127)
    _, status, usage = os.wait4(pid, 0)
    elapsed = time.perf_counter() - start
    if status != 0:
        sys.exit("bench: %s failed (status %d)" % (" ".join(cmd), status))
    return elapsed, usage.ru_maxrss * 1024


def bench_json_file():
    """The 500,000-record document (generated once, seeded) that scripts/bench json and
    json-whole read: {"items": [{id, name, score, active, tags, address {city, zip, geo}, big,
    note}, ...]}. Returns its path."""
    path = os.path.join(tempfile.gettempdir(), "vow-bench-500k.json")
    if os.path.exists(path):
        return path
    rng = random.Random(42)
    words = ["alpha", "beta", "gamma", "delta", "tab\there", "quote\"d", "line\nbreak", "ünïcødé", "emoji😀", "back\\slash"]
    with open(path + ".tmp", "w") as f:
        f.write('{"items": [')
        for i in range(500_000):
            if i:
                f.write(",")
            item = {
                "id": i, "name": "user-%d-%s" % (i, rng.choice(words)), "score": rng.random() * 1000,
                "active": rng.random() < 0.5, "tags": [rng.choice(words) for _ in range(3)],
                "address": {"city": rng.choice(words), "zip": "%05d" % rng.randrange(100000), "geo": [rng.uniform(-90, 90), rng.uniform(-180, 180)]},
                "big": rng.randrange(1 << 60), "note": None,
            }
            f.write(json.dumps(item, ensure_ascii=False))
        f.write("]}")
    os.rename(path + ".tmp", path)
    return path


def start_nginx(name, body):
    """Starts Debian's nginx on a free loopback port with a configuration of its own, serving
    `body` (bytes) as /NAME. Returns (url, pid, stop) where stop() ends it and removes its files."""
    import shutil
    import signal
    import socket
    if not ensure_tool("nginx", "nginx") and not os.path.exists("/usr/sbin/nginx"):
        sys.exit("bench: nginx is needed")
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    work = tempfile.mkdtemp(prefix="vow-bench-nginx-")
    www = os.path.join(work, "www")
    os.makedirs(www)
    os.chmod(work, 0o755)  # nginx's workers run as another user, which must read the document
    with open(os.path.join(www, name), "wb") as f:
        f.write(body)
    os.chmod(os.path.join(www, name), 0o644)
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    conf = os.path.join(work, "nginx.conf")
    with open(conf, "w") as f:
        f.write("""
worker_processes 1;
pid %(w)s/nginx.pid;
error_log %(w)s/error.log;
events { worker_connections 1024; }
http {
    access_log off;
    default_type application/json;
    keepalive_requests 1000000;
    client_body_temp_path %(w)s/tmp; proxy_temp_path %(w)s/tmp; fastcgi_temp_path %(w)s/tmp;
    uwsgi_temp_path %(w)s/tmp; scgi_temp_path %(w)s/tmp;
    server { listen 127.0.0.1:%(p)d; root %(w)s/www; }
}
""" % {"w": work, "p": port})
    subprocess.run([nginx, "-c", conf, "-p", work], check=True)
    for _ in range(100):
        if os.path.exists(os.path.join(work, "nginx.pid")):
            break
        time.sleep(0.05)
    pid = int(open(os.path.join(work, "nginx.pid")).read())

    def stop():
        os.kill(pid, signal.SIGTERM)
        shutil.rmtree(work, ignore_errors=True)
    return "http://127.0.0.1:%d/%s" % (port, name), pid, stop
