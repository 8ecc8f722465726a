#!/usr/bin/env python3
"""The fleet test (issue 31 §6): three `lackpy mcp serve --http` replicas
behind a real haproxy, sharing one PostgreSQL run store.

16 clients make run_program calls through haproxy (each program waits on a
command tool) while one replica is restarted the way a rolling deploy
does it (SIGTERM, drain, start again) and another is SIGKILLed. It checks:

* no call is lost except those in flight on the killed replica: a call
  answered "no such session" (its replica left) or refused before it ran
  is retried on a new session, and must then succeed;
* the runs the kill interrupted are resumable through another replica,
  from PostgreSQL (`resume_run` through haproxy), and finish with the
  output the program computes;
* every replica's `/metrics` (admin port), parsed by the Prometheus
  client library's own parser, counts exactly the runs and tool calls
  that replica answered since it last started;
* the replicas export OpenTelemetry traces (OTLP/HTTP JSON) to a receiver
  in this test: a call carrying the host's `_meta.traceparent`, made
  through haproxy, arrives as `lackpy.run` -> `lackpy.tool_call` ->
  `lackpy.mcp.operation` (an upstream MCP server's tool) in the host's
  trace;
* an upstream server's `notifications/tools/list_changed` (a tool it
  added) reaches a client connected through haproxy as lackpy's own, and
  the new tool is then in `run_program`'s description.

Usage: fleet.py LACKPY HAPROXY MCP_TEST_SERVER (needs LACKPY_TEST_PG_URL). Exits non-zero
on any failure; prints what it saw.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from prometheus_client.parser import text_string_to_metric_families

CLIENTS = 16
CALLS_PER_CLIENT = 36  # 576 calls in all
PROTOCOL = "2025-06-18"
# Each program waits on a command tool twice and computes a checkable
# answer from its argument.
PROGRAM = (
    "a = pause()\n"
    "b = pause()\n"
    "total = 0\n"
    "for i in range(n):\n"
    "    total = total + i\n"
    "[n, total, a, b]"
)
CONFIG = """
[runs]
journal = true

[[tools]]
name = "pause"
provider = "command"
command = ["sh", "-c", "sleep 0.15; echo waited"]
description = "Waits a little"
returns = "str"
grade_w = 0
effects_ceiling = 0
args = []
"""


HOST_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736"
HOST_SPAN = "00f067aa0ba902b7"


def config(mcp_test_server: str) -> str:
    return CONFIG + f"""
[mcp_servers.ours]
command = {json.dumps(mcp_test_server)}
args = ["--dynamic"]
"""


class Receiver:
    """A loopback OTLP/HTTP receiver: the spans of every `POST /v1/traces`
    (JSON)."""

    def __init__(self) -> None:
        self.spans: list[dict] = []
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                try:
                    doc = json.loads(body)
                except ValueError:
                    doc = {}
                with receiver.lock:
                    for rs in doc.get("resourceSpans", []):
                        for ss in rs.get("scopeSpans", []):
                            receiver.spans.extend(ss.get("spans", []))
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.end_headers()
                self.wfile.write(b"{}")

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def trace(self, trace_id: str) -> list[dict]:
        with self.lock:
            return [s for s in self.spans if s.get("traceId", "").lower() == trace_id]


def expected(n: int) -> list:
    return [n, n * (n - 1) // 2, "waited", "waited"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def log(*args: object) -> None:
    print(time.strftime("%H:%M:%S"), *args, flush=True)


# --- replicas ----------------------------------------------------------------


class Replica:
    def __init__(self, name: str, lackpy: str, ws: Path, env: dict, logs: Path):
        self.name = name
        self.lackpy = lackpy
        self.ws = ws
        self.env = env
        self.logs = logs
        self.port = free_port()
        self.admin = free_port()
        self.proc: subprocess.Popen | None = None
        self.started = 0.0
        self.generation = 0

    def start(self) -> None:
        self.generation += 1
        out = open(self.logs / f"{self.name}.{self.generation}.log", "wb")
        self.proc = subprocess.Popen(
            [
                self.lackpy, "mcp", "serve", "--workspace", str(self.ws),
                "--http", f"127.0.0.1:{self.port}",
                "--admin", f"127.0.0.1:{self.admin}",
                "--grace-ms", "20000",
            ],
            env=self.env, stdout=out, stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise SystemExit(f"{self.name} exited at start: see {out.name}")
            try:
                if self.admin_get("/readyz")[0] == 200:
                    self.started = time.monotonic()
                    log(f"{self.name} ready (generation {self.generation})")
                    return
            except OSError:
                pass
            time.sleep(0.1)
        raise SystemExit(f"{self.name} not ready within 60 s")

    def admin_get(self, path: str) -> tuple[int, str]:
        c = http.client.HTTPConnection("127.0.0.1", self.admin, timeout=10)
        try:
            c.request("GET", path)
            r = c.getresponse()
            return r.status, r.read().decode()
        finally:
            c.close()

    def stop(self, sig: int) -> int:
        assert self.proc is not None
        self.proc.send_signal(sig)
        return self.proc.wait(timeout=60)


HAPROXY_CFG = """
global
    maxconn 4096

defaults
    mode http
    timeout connect 2s
    timeout client  5m
    timeout server  5m
    timeout tunnel  1h
    option http-server-close

frontend mcp
    bind 127.0.0.1:{port}
    default_backend lackpy

backend lackpy
    balance roundrobin
    stick-table type string len 64 size 100k expire 30m
    stick store-response res.hdr(Mcp-Session-Id)
    stick match req.hdr(Mcp-Session-Id)
    option httpchk GET /readyz
    http-check expect status 200
    default-server inter 300ms fall 1 rise 2
    http-after-response set-header X-Replica %s
{servers}
"""


# --- one MCP client over raw streamable HTTP -----------------------------------


class Gone(Exception):
    """The request never ran: its session's replica is gone, or haproxy
    had nowhere to send it. Retrying on a new session is safe."""


class InFlightLost(Exception):
    """The connection died while the call was running."""

    def __init__(self, replica: str | None):
        super().__init__(replica)
        self.replica = replica


@dataclass
class Answer:
    replica: str
    at: float
    result: dict


class Client:
    def __init__(self, port: int):
        self.port = port
        self.session: str | None = None
        self.next_id = 1

    def post(self, body: dict, *, want: int | None) -> tuple[int, dict, dict | None]:
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        headers = {
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
            "MCP-Protocol-Version": PROTOCOL,
        }
        if self.session:
            headers["Mcp-Session-Id"] = self.session
        replica = None
        try:
            c.request("POST", "/mcp", json.dumps(body), headers)
            r = c.getresponse()
            replica = r.getheader("X-Replica")
            hdrs = {k.lower(): v for k, v in r.getheaders()}
            if want is None or r.status != 200:
                r.read()
                return r.status, hdrs, None
            ctype = r.getheader("Content-Type", "")
            if ctype.startswith("application/json"):
                return r.status, hdrs, json.loads(r.read())
            # An SSE stream: the answer is the event carrying our id.
            data: list[str] = []
            while True:
                line = r.readline()
                if not line:
                    raise InFlightLost(replica)
                text = line.decode().rstrip("\r\n")
                if text.startswith("data:"):
                    data.append(text[5:].lstrip())
                elif text == "" and data:
                    payload = "\n".join(data).strip()
                    data = []
                    if not payload:
                        continue  # a priming event (an id to resume from)
                    msg = json.loads(payload)
                    if msg.get("id") == want:
                        return r.status, hdrs, msg
        except (http.client.HTTPException, OSError) as e:
            raise InFlightLost(replica) from e
        finally:
            c.close()

    def initialize(self) -> None:
        for _ in range(200):
            self.session = None
            body = {
                "jsonrpc": "2.0", "id": 0, "method": "initialize",
                "params": {
                    "protocolVersion": PROTOCOL, "capabilities": {},
                    "clientInfo": {"name": "fleet", "version": "1"},
                },
            }
            try:
                status, hdrs, _ = self.post(body, want=0)
            except InFlightLost:
                time.sleep(0.1)
                continue
            if status == 200 and "mcp-session-id" in hdrs:
                self.session = hdrs["mcp-session-id"]
                status, _, _ = self.post(
                    {"jsonrpc": "2.0", "method": "notifications/initialized"}, want=None
                )
                if status in (200, 202):
                    return
            time.sleep(0.1)  # 503: draining or nowhere to go; try again
        raise SystemExit("could not open a session in 200 attempts")

    def call(self, tool: str, arguments: dict, meta: dict | None = None) -> Answer:
        if self.session is None:
            self.initialize()
        rid = self.next_id
        self.next_id += 1
        params: dict = {"name": tool, "arguments": arguments}
        if meta:
            params["_meta"] = meta
        body = {"jsonrpc": "2.0", "id": rid, "method": "tools/call", "params": params}
        status, hdrs, msg = self.post(body, want=rid)
        if status == 502:
            # haproxy sent the request and its replica died before answering.
            raise InFlightLost(hdrs.get("x-replica"))
        if status in (404, 503):
            # The session's replica left (404), or haproxy could not place
            # the request (503): nothing ran.
            self.session = None
            raise Gone(f"HTTP {status}")
        if status != 200 or msg is None:
            raise SystemExit(f"unexpected answer: HTTP {status} {msg}")
        if "error" in msg:
            raise SystemExit(f"JSON-RPC error: {msg['error']}")
        return Answer(hdrs.get("x-replica", "?"), time.monotonic(), msg["result"])


def structured(result: dict) -> dict:
    if "structuredContent" in result:
        return result["structuredContent"]
    return json.loads(result["content"][0]["text"])


# --- the test --------------------------------------------------------------------


@dataclass
class Tally:
    lock: threading.Lock = field(default_factory=threading.Lock)
    answers: list[Answer] = field(default_factory=list)
    retried: int = 0
    lost: list[tuple[int, str | None]] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)


def wait_for_answers(tally: Tally, n: int) -> None:
    """Until `n` calls are answered (or 300 s pass)."""
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        with tally.lock:
            if len(tally.answers) >= n or tally.failures:
                return
        time.sleep(0.05)


def client_loop(k: int, port: int, tally: Tally) -> None:
    c = Client(port)
    for j in range(CALLS_PER_CLIENT):
        n = 1000 + k * 100 + j
        while True:
            try:
                a = c.call("run_program", {"program": PROGRAM, "params": {"n": n}})
            except Gone:
                with tally.lock:
                    tally.retried += 1
                continue
            except InFlightLost as e:
                with tally.lock:
                    tally.lost.append((n, e.replica))
                c.session = None
                break
            except SystemExit as e:
                with tally.lock:
                    tally.failures.append(f"client {k} call {j}: {e}")
                return
            r = structured(a.result)
            if not r.get("success") or r.get("output") != expected(n):
                with tally.lock:
                    tally.failures.append(f"client {k} n={n}: {r}")
            else:
                with tally.lock:
                    tally.answers.append(a)
            break


def start_fleet(
    args: argparse.Namespace, ws: Path, env: dict, tmp: Path, logs: Path
) -> tuple[list[Replica], subprocess.Popen, int]:
    """Three ready replicas of `ws` and haproxy in front of them: the
    replicas, haproxy's process and its port."""
    replicas = [Replica(f"r{i}", args.lackpy, ws, env, logs) for i in (1, 2, 3)]
    for r in replicas:
        r.start()
    port = free_port()
    servers = "\n".join(
        f"    server {r.name} 127.0.0.1:{r.port} check port {r.admin}" for r in replicas
    )
    cfg = tmp / "haproxy.cfg"
    cfg.write_text(HAPROXY_CFG.format(port=port, servers=servers))
    hap = subprocess.Popen(
        [args.haproxy, "-db", "-f", str(cfg)],
        stdout=open(logs / "haproxy.log", "wb"), stderr=subprocess.STDOUT,
    )
    return replicas, hap, port


def throughput(port: int, seconds: float, clients: int) -> tuple[float, float, float]:
    """Calls per second, p50 and p99 in ms of `clients` sessions making
    trivial run_program calls for `seconds`."""
    latencies: list[float] = []
    lock = threading.Lock()
    stop = time.monotonic() + seconds

    def loop(k: int) -> None:
        c = Client(port)
        c.initialize()
        mine = []
        n = 0
        while time.monotonic() < stop:
            t = time.perf_counter()
            a = c.call("run_program", {"program": "n + 1", "params": {"n": n}})
            mine.append(time.perf_counter() - t)
            if structured(a.result).get("output") != n + 1:
                raise SystemExit(f"wrong answer: {a.result}")
            n += 1
        with lock:
            latencies.extend(mine)

    t0 = time.monotonic()
    threads = [threading.Thread(target=loop, args=(k,)) for k in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - t0
    latencies.sort()
    pct = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000
    return len(latencies) / elapsed, pct(0.5), pct(0.99)


def bench(args: argparse.Namespace) -> int:
    """`--bench SECONDS`: one replica direct, then three behind haproxy."""
    tmp = Path(tempfile.mkdtemp(prefix="lackpy-fleet-bench-"))
    ws = tmp / "ws"
    (ws / ".lackpy").mkdir(parents=True)
    (ws / ".lackpy" / "config.toml").write_text("")
    logs = tmp / "logs"
    logs.mkdir()
    env = dict(os.environ, RUST_LOG="warn")
    replicas, hap, port = start_fleet(args, ws, env, tmp, logs)
    try:
        time.sleep(1.5)
        print("| | clients | calls/s | p50 ms | p99 ms |")
        print("|---|---:|---:|---:|---:|")
        for clients in (1, 16):
            for label, p in (("one replica, direct", replicas[0].port),
                             ("three behind haproxy", port)):
                rate, p50, p99 = throughput(p, args.bench, clients)
                print(f"| {label} | {clients} | {rate:.0f} | {p50:.2f} | {p99:.2f} |", flush=True)
    finally:
        hap.terminate()
        hap.wait(timeout=30)
        for r in replicas:
            r.stop(signal.SIGTERM)
    return 0


def list_changed_reaches_a_client(port: int) -> list[str]:
    """A session with its GET stream open (where a server's own messages
    go) hears `notifications/tools/list_changed` after a program makes the
    replica's upstream server add a tool; the tool is then listed."""
    c = Client(port)
    c.initialize()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request("GET", "/mcp", headers={
        "Accept": "text/event-stream",
        "Mcp-Session-Id": c.session or "",
        "MCP-Protocol-Version": PROTOCOL,
    })
    stream = conn.getresponse()
    if stream.status != 200:
        return [f"GET /mcp (the session's stream): HTTP {stream.status}"]
    heard = threading.Event()

    def read() -> None:
        try:
            for line in stream:
                if b"notifications/tools/list_changed" in line:
                    heard.set()
                    return
        except OSError:
            pass

    threading.Thread(target=read, daemon=True).start()
    try:
        a = c.call("run_program", {"program": "add_tool('fleet_added')"})
    except (Gone, InFlightLost) as e:
        return [f"add_tool call: {e!r}"]
    if not structured(a.result).get("success"):
        return [f"add_tool failed: {structured(a.result)}"]
    if not heard.wait(30):
        return ["no notifications/tools/list_changed reached the client within 30 s"]
    log(f"list_changed heard from {a.replica}")
    status, _, msg = c.post({"jsonrpc": "2.0", "id": 99, "method": "tools/list"}, want=99)
    tools = (msg or {}).get("result", {}).get("tools", [])
    desc = next((t.get("description", "") for t in tools if t.get("name") == "run_program"), "")
    conn.close()
    if "fleet_added" not in desc:
        return [f"the added tool is not in run_program's description (HTTP {status})"]
    return []


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("lackpy")
    ap.add_argument("haproxy")
    ap.add_argument("mcp_test_server", nargs="?")
    ap.add_argument("--bench", type=float, metavar="SECONDS",
                    help="measure calls per second and latency instead of testing")
    args = ap.parse_args()
    if args.bench:
        return bench(args)
    if not args.mcp_test_server:
        ap.error("the test needs MCP_TEST_SERVER")
    pg = os.environ.get("LACKPY_TEST_PG_URL")
    if not pg:
        print("fleet: LACKPY_TEST_PG_URL is not set (scripts/start-test-postgres.sh)")
        return 1

    tmp = Path(tempfile.mkdtemp(prefix="lackpy-fleet-"))
    ws = tmp / "ws"
    (ws / ".lackpy").mkdir(parents=True)
    (ws / ".lackpy" / "config.toml").write_text(config(args.mcp_test_server))
    logs = tmp / "logs"
    logs.mkdir()
    receiver = Receiver()
    env = dict(
        os.environ,
        LACKPY_RUNS_STORE=pg,
        RUST_LOG="warn",
        OTEL_EXPORTER_OTLP_ENDPOINT=f"http://127.0.0.1:{receiver.port}",
        OTEL_EXPORTER_OTLP_PROTOCOL="http/json",
        OTEL_SERVICE_NAME="lackpy-fleet",
        # Export soon after a span ends (the SDK's default waits 5 s).
        OTEL_BSP_SCHEDULE_DELAY="200",
    )
    # One workspace for all three: the store is what they must share (the
    # file store is not used).
    replicas, hap, port = start_fleet(args, ws, env, tmp, logs)
    failures: list[str] = []
    try:
        time.sleep(1.5)  # haproxy's first checks
        tally = Tally()
        threads = [
            threading.Thread(target=client_loop, args=(k, port, tally)) for k in range(CLIENTS)
        ]
        t0 = time.monotonic()
        for t in threads:
            t.start()

        # A rolling restart of r1 while the load runs, then a kill of r2.
        # The restart and the kill happen at set points of the load (a
        # quarter and a half of the calls answered), whatever the
        # machine's speed, so both always fall while calls are running.
        total = CLIENTS * CALLS_PER_CLIENT
        wait_for_answers(tally, total // 4)
        log("SIGTERM r1")
        rc = replicas[0].stop(signal.SIGTERM)
        log(f"r1 exited {rc} after its drain")
        if rc != 0:
            failures.append(f"r1 exited {rc} on SIGTERM")
        replicas[0].start()
        wait_for_answers(tally, total // 2)
        log("SIGKILL r2")
        replicas[1].stop(signal.SIGKILL)
        for t in threads:
            t.join(timeout=600)
        log(f"load done in {time.monotonic() - t0:.1f} s")
        replicas[1].start()
        time.sleep(1.0)  # back in haproxy's rotation

        answered = len(tally.answers)
        lost = tally.lost
        log(
            f"{answered} calls answered, {tally.retried} retried on a new session, "
            f"{len(lost)} lost in flight: {lost}"
        )
        failures += tally.failures
        if answered + len(lost) != CLIENTS * CALLS_PER_CLIENT:
            failures.append(
                f"{answered} answered + {len(lost)} lost != {CLIENTS * CALLS_PER_CLIENT} made"
            )
        if answered < 500:
            failures.append(f"only {answered} calls answered (want >= 500)")
        if not lost:
            failures.append("no call was in flight on r2 when it was killed")
        for n, rep in lost:
            if rep not in (None, "r2"):
                failures.append(f"call n={n} lost on {rep}, which was not killed")

        # The killed replica's runs: listed by the shared store, resumed
        # through haproxy (another replica, or r2's new life).
        runs = subprocess.run(
            [args.lackpy, "runs", "--json", "--workspace", str(ws)],
            env=env, capture_output=True, text=True, timeout=60,
        )
        if runs.returncode != 0:
            failures.append(f"lackpy runs failed: {runs.stderr}")
            listed = []
        else:
            listed = json.loads(runs.stdout)
            listed = listed.get("runs", listed) if isinstance(listed, dict) else listed
        log(f"store lists {len(listed)} resumable runs")
        # A lost call whose run had not yet begun its journal when the
        # replica died has nothing to resume; every listed run must resume.
        if lost and not listed:
            failures.append(f"{len(lost)} calls lost in flight and no run resumable")
        if len(listed) > len(lost):
            failures.append(f"{len(listed)} runs resumable but only {len(lost)} calls lost")
        want = {n: expected(n) for n, _ in lost}
        resumed_by: Counter = Counter()
        for info in listed:
            run_id = info["run_id"]
            # A session of its own for each: haproxy spreads them.
            resumed = Client(port)
            while True:
                try:
                    a = resumed.call("resume_run", {"run_id": run_id})
                    break
                except Gone:
                    continue
            r = structured(a.result)
            out = r.get("output")
            if not r.get("success") or not isinstance(out, list) or want.get(out[0]) != out:
                failures.append(f"resume of {run_id} on {a.replica}: {r}")
            else:
                resumed_by[a.replica] += 1
                tally.answers.append(Answer(a.replica, a.at, {"resumed": True}))
        log(f"resumed through haproxy: {dict(resumed_by)}")

        # Metrics: each replica's counts since it last started.
        for rep in replicas:
            since = [a for a in tally.answers if a.replica == rep.name and a.at >= rep.started]
            runs_ok = len(since)
            status, text = rep.admin_get("/metrics")
            if status != 200:
                failures.append(f"{rep.name} /metrics: HTTP {status}")
                continue
            got = Counter()
            for fam in text_string_to_metric_families(text):
                for s in fam.samples:
                    if s.name == "lackpy_runs_total" and s.labels.get("outcome") == "success":
                        got["runs"] += s.value
                    if (
                        s.name == "lackpy_tool_calls_total"
                        and s.labels.get("tool") == "pause"
                        and s.labels.get("outcome") == "ok"
                    ):
                        got["calls"] += s.value
            log(f"{rep.name}: answered {runs_ok} since start, metrics {dict(got)}")
            if got["runs"] != runs_ok:
                failures.append(
                    f"{rep.name}: lackpy_runs_total{{outcome=success}} {got['runs']} != {runs_ok}"
                )
            # Resumed runs replay completed calls from the journal, which are
            # not counted again; fresh runs made two calls each.
            if got["calls"] > 2 * runs_ok or got["calls"] < 2 * (runs_ok - resumed_by[rep.name]):
                failures.append(f"{rep.name}: pause calls {got['calls']} for {runs_ok} runs")
        # A host's trace through haproxy into a replica and on upstream.
        traced = Client(port)
        a = None
        while a is None:
            try:
                a = traced.call(
                    "run_program",
                    {"program": "r = echo('traced')\nr"},
                    meta={"traceparent": f"00-{HOST_TRACE}-{HOST_SPAN}-01"},
                )
            except Gone:
                continue
        r = structured(a.result)
        if not r.get("success"):
            failures.append(f"the traced call failed: {r}")
        spans: list[dict] = []
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            spans = receiver.trace(HOST_TRACE)
            names = {s.get("name") for s in spans}
            if {"lackpy.run", "lackpy.tool_call", "lackpy.mcp.operation"} <= names:
                break
            time.sleep(0.2)
        by_name = {s.get("name"): s for s in spans}
        log(f"trace {HOST_TRACE} on {a.replica}: {sorted(by_name)}")
        run_span = by_name.get("lackpy.run")
        call_span = by_name.get("lackpy.tool_call")
        op_span = by_name.get("lackpy.mcp.operation")
        if not (run_span and call_span and op_span):
            failures.append(f"trace incomplete: {sorted(by_name)}")
        else:
            if run_span.get("parentSpanId", "").lower() != HOST_SPAN:
                failures.append(f"lackpy.run's parent is not the host's span: {run_span}")
            if call_span.get("parentSpanId") != run_span.get("spanId"):
                failures.append("lackpy.tool_call is not a child of lackpy.run")
            if op_span.get("parentSpanId") != call_span.get("spanId"):
                failures.append("lackpy.mcp.operation is not a child of lackpy.tool_call")

        # An upstream tool change reaches a client through haproxy.
        failures += list_changed_reaches_a_client(port)
    finally:
        hap.terminate()
        hap.wait(timeout=30)
        for r in replicas:
            if r.proc and r.proc.poll() is None:
                r.stop(signal.SIGTERM)

    if failures:
        print("FLEET TEST FAILED:")
        for f in failures:
            print("  -", f)
        print(f"logs: {logs}")
        return 1
    print("fleet test passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
