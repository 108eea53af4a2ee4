#!/usr/bin/env python3
"""Sealed checks over MCP Streamable HTTP, one after another (standard library only).

    python3 scripts/mcp_http_checks.py URL COUNT [FIRST]

The load of benches/load.rs `load/new`: one session, then COUNT `check_order`
calls with the same request and a cart whose item id is `bench-N` for N from
FIRST, so each check seals a new record. Prints how many came back with each
decision. Used by scripts/profile_sealed_check.sh.
"""

import http.client
import json
import sys
import urllib.parse

REQUEST = "Nike Pegasus 41 running shoes, white, size 42, under $150, must arrive within 5 days"
PROTOCOL = "2025-06-18"


def main():
    url, count = sys.argv[1], int(sys.argv[2])
    first = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    parts = urllib.parse.urlparse(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=600)

    def post(body, session=None):
        headers = {"content-type": "application/json", "accept": "application/json, text/event-stream"}
        if session:
            headers["mcp-session-id"] = session
            headers["mcp-protocol-version"] = PROTOCOL
        connection.request("POST", parts.path, json.dumps(body), headers)
        response = connection.getresponse()
        return response, response.read().decode()

    response, _ = post({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                        "params": {"protocolVersion": PROTOCOL, "capabilities": {},
                                   "clientInfo": {"name": "profile", "version": "0"}}})
    session = response.getheader("mcp-session-id")
    post({"jsonrpc": "2.0", "method": "notifications/initialized"}, session)
    decisions = {}
    for number in range(first, first + count):
        cart = [{"item": {"id": f"bench-{number}", "brand": "Nike", "name": "Nike Pegasus 41",
                          "color": "White/Black", "size": "EU 42", "final_sale": False, "delivery_days": 3,
                          "units": 1, "price_cents": 12999, "currency": "USD"}, "quantity": 1}]
        _, text = post({"jsonrpc": "2.0", "id": number + 1, "method": "tools/call",
                        "params": {"name": "check_order",
                                   "arguments": {"request": REQUEST, "cart": cart, "today": "2026-11-02"}}}, session)
        reply = next(json.loads(line[5:]) for line in text.splitlines()
                     if line.startswith("data:") and '"id"' in line)
        decision = reply["result"]["structuredContent"]["decision"]
        decisions[decision] = decisions.get(decision, 0) + 1
    print(decisions)


if __name__ == "__main__":
    main()
