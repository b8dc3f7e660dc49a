#!/usr/bin/env python3
"""Measures interactive calc in a pseudo-terminal: keystroke-to-screen latency and CPU use.

    swift build && Scripts/measure-calc.py [path/to/calc] [--keys 200] [--idle 10]

Latency: for each keystroke, the time from writing the key to the pty until calc has written the screen update
that shows it -- the typed field (echo) and the new sum (the pipeline engine with no delay, an instant
calculator). CPU: utime+stime from /proc/<pid>/stat over --idle seconds while idle, then while a slow
calculation shows the spinner.
"""
import argparse, fcntl, os, pty, select, signal, statistics, struct, termios, time

parser = argparse.ArgumentParser()
parser.add_argument("calc", nargs="?", default=".build/debug/calc")
parser.add_argument("--keys", type=int, default=200)
parser.add_argument("--idle", type=float, default=10.0)
args = parser.parse_args()
ticks_per_second = os.sysconf("SC_CLK_TCK")


def start(*calc_args):
    pid, fd = pty.fork()
    if pid == 0:
        os.environ["NO_COLOR"] = "1"
        os.environ["TERM"] = "xterm-256color"
        os.execv(args.calc, [args.calc, *calc_args])
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    return pid, fd


def read_until(fd, needle, timeout=5.0):
    data = b""
    deadline = time.monotonic() + timeout
    while needle not in data:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError(f"no {needle!r} in {data[-300:]!r}")
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            data += os.read(fd, 65536)
    return data


def drain(fd, quiet=0.05):
    while select.select([fd], [], [], quiet)[0]:
        os.read(fd, 65536)


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / ticks_per_second


def percentiles(samples):
    ordered = sorted(samples)
    pick = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))]
    return f"median {statistics.median(ordered):.2f} ms, p95 {pick(0.95):.2f} ms, p99 {pick(0.99):.2f} ms, max {ordered[-1]:.2f} ms"


def measure(engine_args, label):
    pid, fd = start(*engine_args)
    read_until(fd, b"Ctrl-C quit")
    os.write(fd, b"1\t")
    read_until(fd, "› b [".encode())
    drain(fd)
    echo, result = [], []
    b = ""
    for i in range(args.keys):
        if len(b) >= 12:  # keep b short: clear it with Backspaces, unmeasured
            os.write(fd, b"\x7f" * len(b))
            b = ""
            read_until(fd, b"waiting for both numbers")
            drain(fd)
        digit = str(i % 9 + 1)
        b += digit
        field = f"b [{b} ".encode()
        sum_text = f"= {1 + int(b)}".encode()
        start_time = time.perf_counter()
        os.write(fd, digit.encode())
        data = read_until(fd, field)
        echo.append((time.perf_counter() - start_time) * 1000)
        if sum_text not in data:
            read_until(fd, sum_text)
        result.append((time.perf_counter() - start_time) * 1000)
        drain(fd, 0.002)
    print(f"{label}: key -> field on screen: {percentiles(echo)}")
    print(f"{label}: key -> sum on screen:   {percentiles(result)}")
    return pid, fd


pid, fd = measure(["--engine", "pipeline"], "pipeline, no delay")
drain(fd, 0.2)
before = cpu_seconds(pid)
time.sleep(args.idle)
after = cpu_seconds(pid)
print(f"idle: {after - before:.3f} s CPU over {args.idle:.0f} s ({(after - before) / args.idle * 100:.2f} %)")
os.write(fd, b"q")
os.waitpid(pid, 0)

pid, fd = measure(["--engine", "task", "--delay", "0"], "task, delay 0")
os.write(fd, b"\x03")
os.waitpid(pid, 0)

pid, fd = start("--engine", "task", "--delay", "60s")
read_until(fd, b"Ctrl-C quit")
os.write(fd, b"1\t2")
read_until(fd, "computing…".encode())
before = cpu_seconds(pid)
time.sleep(args.idle)
after = cpu_seconds(pid)
print(f"spinner (computing): {after - before:.3f} s CPU over {args.idle:.0f} s ({(after - before) / args.idle * 100:.2f} %)")
os.write(fd, b"q")
os.waitpid(pid, 0)
