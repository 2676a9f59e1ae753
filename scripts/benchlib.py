"""Shared helpers for scripts/bench-*: run a command, measure wall time and peak memory."""
import os
import subprocess
import sys
import tempfile
import time


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
