#!/usr/bin/env python3
"""Presents per second into one slot from one keep-alive connection, with a `slotChanged` subscriber (so each
change's event is written with it): the cost of a slot change's commit on the embedded store (docs/benchmarks.md).

    python3 Benchmarks/scripts/slot-presents.py BINARY [PORT] [SECONDS]

Starts BINARY on PORT (default 17680; the links listener on PORT+1) with a data folder of its own, presents p1, p2,
... at rising priorities for SECONDS (default 5), prints the rate, stops the server and removes the folder."""
import http.client
import json
import shutil
import subprocess
import sys
import tempfile
import time


def main():
    binary = sys.argv[1]
    port = int(sys.argv[2]) if len(sys.argv) > 2 else 17680
    seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 5.0
    folder = tempfile.mkdtemp(prefix="slot-presents-")
    server = subprocess.Popen(
        [binary, "--host", "127.0.0.1", "--port", str(port), "--links-port", str(port + 1), "--data-dir", folder,
         "--routes", folder + "/none.json"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(200):
            try:
                probe = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                probe.request("GET", "/healthz")
                probe.getresponse().read()
                break
            except OSError:
                time.sleep(0.05)
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        headers = {"Content-Type": "application/json"}

        def post(path, body):
            connection.request("POST", path, body=json.dumps(body), headers=headers)
            reply = connection.getresponse()
            reply.read()
            return reply.status

        assert post("/v1/events/subscriptions", {"events": [{"name": "slotChanged"}]}) == 201
        count = 0
        begun = time.time()
        while time.time() - begun < seconds:
            count += 1
            status = post("/v1/slots/banner/present", {"id": f"p{count}", "priority": count})
            assert status == 200, status
        print(f"{binary}: {count / (time.time() - begun):.0f} presents/s")
    finally:
        server.terminate()
        server.wait()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
