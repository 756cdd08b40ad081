#!/usr/bin/env python3
"""Measures `flow serve` (figures for Documentation/Serve.md; nothing is asserted).

usage: Scripts/serve-measure.py FLOWBIN [NODES]

1. Page generation: a generated graph of NODES nodes (default 10,000: 100 numbers, the rest
   `add` nodes fed by two of the 60 nodes before them) is served; the first GET / (layered
   layout, page SVG, HTML) and later ones (the cached picture) are timed from the client.
2. Memory: the server's resident memory (VmRSS) after it holds 64 connections (32 idle
   keep-alive connections that made one request, 32 open event streams), and that a 65th is
   refused with 503 while they are open.
"""
import json
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time

FLOW = sys.argv[1]
NODES = int(sys.argv[2]) if len(sys.argv) > 2 else 10_000


def document(count):
    rng = random.Random(1)
    nodes, edges = [], []
    sources = min(100, count)
    for index in range(count):
        if index < sources:
            nodes.append({"id": "n%d" % index, "data": {"kind": "number", "params": {"value": index}}})
        else:
            nodes.append({"id": "n%d" % index, "data": {"kind": "add"}})
            for port in ("a", "b"):
                source = rng.randrange(max(0, index - 60), index)
                edges.append({"id": "e%d%s" % (index, port), "sourceNodeID": "n%d" % source, "sourceHandleID": "value" if source < sources else "result",
                              "targetNodeID": "n%d" % index, "targetHandleID": port})
    return {"nodes": nodes, "edges": edges}


def request(port, path, keep=None):
    sock = keep or socket.create_connection(("127.0.0.1", port), timeout=120)
    sock.sendall(("GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % (path, port)).encode())
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(65536)
    head, body = data.split(b"\r\n\r\n", 1)
    length = int(re.search(rb"Content-Length: (\d+)", head).group(1))
    while len(body) < length:
        body += sock.recv(1 << 20)
    if keep is None:
        sock.close()
    return int(head.split()[1]), body


def rss_kib(pid):
    with open("/proc/%d/status" % pid) as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


folder = tempfile.mkdtemp()
path = os.path.join(folder, "big.flow.json")
with open(path, "w") as out:
    json.dump(document(NODES), out)
server = subprocess.Popen([FLOW, "serve", path, "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
try:
    started = time.perf_counter()
    line = server.stdout.readline()
    ready = time.perf_counter() - started
    port = int(re.search(r":(\d+)/", line).group(1))
    start = time.perf_counter()
    status, page = request(port, "/")
    first = time.perf_counter() - start
    assert status == 200, status
    cached = []
    for _ in range(5):
        start = time.perf_counter()
        request(port, "/")
        cached.append(time.perf_counter() - start)
    start = time.perf_counter()
    status, state = request(port, "/state.json")
    state_time = time.perf_counter() - start
    print(json.dumps({"measure": "page", "nodes": NODES, "load_and_first_pass_s": round(ready, 3),
                      "first_page_s": round(first, 3), "page_bytes": len(page),
                      "cached_page_s": {"min": round(min(cached), 4), "median": round(statistics.median(cached), 4), "max": round(max(cached), 4)},
                      "state_json_s": round(state_time, 3), "state_json_bytes": len(state)}))
    baseline = rss_kib(server.pid)
    held = []
    for index in range(64):
        sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        if index < 32:
            request(port, "/state.json" if NODES <= 1000 else "/graph.svg", keep=sock)
        else:
            sock.sendall(("GET /events HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % port).encode())
            sock.recv(65536)
        held.append(sock)
    time.sleep(0.5)
    extra = socket.create_connection(("127.0.0.1", port), timeout=30)
    refused = extra.recv(4096).split(b"\r\n")[0].decode()
    holding = rss_kib(server.pid)
    print(json.dumps({"measure": "connections", "nodes": NODES, "held": len(held), "rss_before_mib": round(baseline / 1024, 1),
                      "rss_holding_64_mib": round(holding / 1024, 1), "sixty_fifth": refused}))
    for sock in held:
        sock.close()
finally:
    server.send_signal(2)
    server.wait(timeout=60)
