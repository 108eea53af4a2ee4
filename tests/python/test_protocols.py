"""Issue 15 over MCP, driven by a client the project did not write: the
official Python MCP SDK sends each commerce protocol's document in
tests/protocols/ to `check_order` as it is (a UCP checkout, an ACP
CheckoutSession and an AP2 CartMandate as the cart; an AP2 IntentMandate and
AP2 v0.2 open mandates as the request), verifies each proceed's receipt with
`verify_verdict` for the same document, and sends bad input (an unknown
shape, a wrong type at a nested path, an expired intent).

Run: ASASKED_BIN=target/debug/asasked .venv-mcp/bin/python tests/python/test_protocols.py
Exit status 0 when every scenario passed; each failure is printed.
"""

import asyncio
import copy
import json
import os
import shutil
import subprocess
import sys
import tempfile

from mcp import Client, StdioServerParameters
from test_mcp_client import error_text, reported_url

BIN = os.environ.get("ASASKED_BIN", "target/debug/asasked")
HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "protocols")
MOLESKINE = "please order a red Moleskine Classic Notebook, only if it's returnable"
PEGASUS = "Nike Pegasus 41 in black, size 42, delivered by Friday"


def fixture(name):
    with open(os.path.join(FIXTURES, name)) as handle:
        return json.load(handle)


def structured(result):
    assert not result.is_error, f"unexpected error: {result.content}"
    value = result.structured_content
    assert isinstance(value, dict), f"no structured content: {result}"
    return value


# (name, request, cart, today): every input shape, each expected to proceed.
SHAPES = [
    ("ucp checkout", MOLESKINE, "ucp-checkout.json", "2026-11-19"),
    ("acp checkout session", PEGASUS, "acp-checkout-session.json", "2026-11-02"),
    ("ap2 intent + cart mandate", "ap2-intent-mandate.json", "ap2-cart-mandate.json", "2026-11-19"),
    ("ap2 v0.2 open mandates + acp", "ap2-open-mandates.json", "acp-checkout-session.json", "2026-11-02"),
]


async def shapes(client, label):
    tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    schema = tools["check_order"].input_schema
    # `cart` is a list or an object, `request` a string or an object.
    cart_kinds = sorted(kind["type"] for kind in schema["$defs"]["CartArgument"]["anyOf"])
    assert cart_kinds == ["array", "object"], schema["$defs"]
    request_kinds = sorted(kind["type"] for kind in schema["$defs"]["RequestArgument"]["anyOf"])
    assert request_kinds == ["object", "string"], schema["$defs"]
    passed = []
    for name, request, cart_file, today in SHAPES:
        request_value = fixture(request) if request.endswith(".json") else request
        cart = fixture(cart_file)
        result = structured(await client.call_tool("check_order", {"request": request_value, "cart": cart, "today": today}))
        assert result["decision"] == "proceed", (name, result["findings"])
        assert result["acp"]["status"] == "ready_for_payment", (name, result["acp"])
        for message in result["acp"]["messages"]:
            assert message["param"].startswith("$."), message
        verified = structured(
            await client.call_tool("verify_verdict", {"token": result["receipt"], "cart": cart, "today": today})
        )
        assert verified["result"] == "valid", (name, verified)
        passed.append(name)
        print(f"ok: {name} over {label}")

    # A changed document is another cart.
    session = fixture("acp-checkout-session.json")
    proceed = structured(await client.call_tool("check_order", {"request": PEGASUS, "cart": session, "today": "2026-11-02"}))
    changed = copy.deepcopy(session)
    changed["line_items"][0]["quantity"] = 2
    verdict = structured(
        await client.call_tool("verify_verdict", {"token": proceed["receipt"], "cart": changed, "today": "2026-11-02"})
    )
    assert verdict["result"] == "cart_changed", verdict

    # An ask as ACP messages pointing into the session.
    wrong = copy.deepcopy(session)
    wrong["line_items"][0]["variant_options"][1]["value"] = "EU 44"
    ask = structured(await client.call_tool("check_order", {"request": PEGASUS, "cart": wrong, "today": "2026-11-02"}))
    assert ask["decision"] == "ask", ask
    errors = [message for message in ask["acp"]["messages"] if message["type"] == "error"]
    assert errors and all(message["param"] == "$.line_items[0]" for message in errors), ask["acp"]
    assert ask["acp"]["status"] == "not_ready_for_payment", ask["acp"]

    # An expired intent is a block finding, not an error.
    expired = structured(
        await client.call_tool(
            "check_order",
            {"request": fixture("ap2-intent-mandate.json"), "cart": fixture("ap2-cart-mandate.json"), "today": "2026-11-25"},
        )
    )
    assert expired["decision"] == "ask", expired
    assert [f["code"] for f in expired["findings"] if f["severity"] == "block"] == ["mandate-expired"], expired["findings"]

    # An unknown shape lists the accepted ones; a wrong type names its path.
    unknown = error_text(await client.call_tool("check_order", {"request": PEGASUS, "cart": {"basket": []}}))
    assert "$.cart" in unknown and "UCP checkout" in unknown and "AP2 CartMandate" in unknown, unknown
    bad = copy.deepcopy(session)
    bad["line_items"][0]["quantity"] = "one"
    nested = error_text(await client.call_tool("check_order", {"request": PEGASUS, "cart": bad, "today": "2026-11-02"}))
    assert "$.cart.line_items[0].quantity" in nested, nested
    bad_intent = fixture("ap2-intent-mandate.json")
    bad_intent["merchants"] = "Paper Goods Co"
    text = error_text(
        await client.call_tool("check_order", {"request": bad_intent, "cart": fixture("ap2-cart-mandate.json")})
    )
    assert "$.request.merchants" in text, text
    print(f"ok: bad input over {label}")
    return passed


async def over_stdio(work):
    params = StdioServerParameters(command=BIN, args=["serve", "--data-dir", os.path.join(work, "data"), "--extractors", "rules"])
    async with Client(params, read_timeout_seconds=30) as client:
        return await shapes(client, "stdio")


async def over_http(work):
    process = subprocess.Popen(
        [BIN, "serve", "--data-dir", os.path.join(work, "data"), "--extractors", "rules", "--http", "127.0.0.1:0"],
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        url = reported_url(process)
        async with Client(url, read_timeout_seconds=30) as client:
            return await shapes(client, "http")
    finally:
        process.terminate()
        process.wait(timeout=20)


async def main():
    failures = 0
    shapes_passed = 0
    for name, run in [("stdio", over_stdio), ("http", over_http)]:
        work = tempfile.mkdtemp(prefix="asasked-proto-")
        try:
            shapes_passed += len(await run(work))
        except Exception as error:
            failures += 1
            # The SDK wraps what failed inside its task group: show that.
            while isinstance(error, BaseExceptionGroup) and len(error.exceptions) == 1:
                error = error.exceptions[0]
            print(f"FAIL {name}: {type(error).__name__}: {error}", file=sys.stderr)
        finally:
            shutil.rmtree(work, ignore_errors=True)
    print(f"{shapes_passed} protocol shape checks passed, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
