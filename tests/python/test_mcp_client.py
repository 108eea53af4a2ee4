"""A client the project did not write: the official Python MCP SDK (PyPI `mcp`
2.x) drives `asasked serve` over stdio and over Streamable HTTP, in both the
2026-07-28 mode and the legacy 2025-11-25 handshake.

Run: ASASKED_BIN=target/debug/asasked .venv-mcp/bin/python tests/python/test_mcp_client.py
(scripts/setup-python-mcp.sh creates .venv-mcp). Exit status 0 when every
scenario passed; each failure is printed with the transport and mode.
"""

import asyncio
import json
import logging
import os
import re
import shutil
import subprocess
import sys
import tempfile

from mcp import Client, StdioServerParameters, types
from mcp.client import streamable_http

BIN = os.environ.get("ASASKED_BIN", "target/debug/asasked")
REQUEST = "Nike Pegasus 41, white, size 42 please"
FACTS = {"brand": "Nike", "model": "Pegasus 41", "color": "white", "size_label": "42"}
TODAY = "Monday, 2 November 2026"


def reported_url(process):
    """The MCP address an `asasked serve --http 127.0.0.1:0` prints on stderr."""
    for _ in range(50):
        match = re.search(r"(http://127\.0\.0\.1:\d+/mcp)", process.stderr.readline())
        if match:
            return match.group(1)
    raise AssertionError("the server did not report its address")


def cart(item_id):
    return [{"id": item_id, "quantity": 1}]


def structured(result):
    assert not result.is_error, f"unexpected error: {result.content}"
    value = result.structured_content
    assert isinstance(value, dict), f"no structured content: {result}"
    mirror = json.loads(result.content[0].text)
    assert mirror == value, "the text content must mirror the structured content"
    return value


def error_text(result):
    assert result.is_error, f"expected an error result, got {result.structured_content}"
    return result.content[0].text


async def scenarios(client, facts_path, label):
    tools = (await client.list_tools()).tools
    assert sorted(tool.name for tool in tools) == ["brief_order", "check_order", "verify_verdict"], tools
    tool = next(tool for tool in tools if tool.name == "check_order")
    assert tool.title, "the tool has a title"
    assert "pay" in tool.description
    assert set(tool.input_schema["required"]) >= {"request", "cart"}, tool.input_schema
    assert "decision" in tool.output_schema["properties"], tool.output_schema
    assert tool.annotations.read_only_hint is True
    assert tool.annotations.idempotent_hint is True
    assert tool.annotations.open_world_hint is False

    with open(facts_path, "w") as handle:
        json.dump(FACTS, handle)

    # brief_order reads the facts when shopping starts; the check reuses them
    brief = structured(await client.call_tool("brief_order", {"request": REQUEST, "today": TODAY}))
    assert brief["facts"]["size_label"] == "42", brief
    assert brief["summary"].startswith("You asked for: Nike Pegasus 41"), brief["summary"]
    assert brief["today"] == "2026-11-02", brief

    # proceed
    proceed = structured(await client.call_tool("check_order", {"request": REQUEST, "cart": cart("shoe-003"), "today": TODAY}))
    assert proceed["decision"] == "proceed", proceed
    assert proceed["acf"]["com.provecart.conformity"]["verdict"] == "MATCH"

    # a gateway verifies the proceed's receipt for the cart it is paid for
    receipt = proceed["receipt"]
    valid = structured(await client.call_tool("verify_verdict", {"token": receipt, "cart": cart("shoe-003")}))
    assert valid["result"] == "valid" and valid["claims"]["record_id"] == proceed["record_id"], valid
    changed = structured(await client.call_tool("verify_verdict", {"token": receipt, "cart": cart("shoe-002")}))
    assert changed["result"] == "cart_changed", changed

    # ask
    ask = structured(await client.call_tool("check_order", {"request": REQUEST, "cart": cart("shoe-002"), "today": TODAY}))
    assert ask["decision"] == "ask", ask
    assert "size 42" in ask["question"], ask["question"]
    finding_id = ask["findings"][0]["id"]

    # answers round trip that then proceeds
    accepted = structured(
        await client.call_tool(
            "check_order",
            {
                "request": REQUEST,
                "cart": cart("shoe-002"),
                "today": TODAY,
                "previous_record_id": ask["record_id"],
                "answers": [{"finding_id": finding_id, "reply": "accept"}],
            },
        )
    )
    assert accepted["decision"] == "proceed", accepted
    assert any("accepted by the person" in note for note in accepted["notes"]), accepted["notes"]
    assert accepted["previous_record_id"] == ask["record_id"]

    # invalid argument
    unknown = error_text(await client.call_tool("check_order", {"request": REQUEST, "cart": cart("shoe-999")}))
    assert "cart" in unknown and "shoe-999" in unknown, unknown
    missing = error_text(await client.call_tool("check_order", {"request": REQUEST}))
    assert "cart" in missing, missing

    # foreign previous_record_id: unknown, and belonging to another request
    foreign = error_text(
        await client.call_tool(
            "check_order", {"request": REQUEST, "cart": cart("shoe-003"), "previous_record_id": "rec_from_elsewhere"}
        )
    )
    assert "previous_record_id" in foreign, foreign
    other = error_text(
        await client.call_tool(
            "check_order", {"request": "a red hat", "cart": cart("shoe-003"), "previous_record_id": accepted["record_id"]}
        )
    )
    assert "another request" in other, other
    print(f"ok: {label}")


ELICIT_REQUEST = "Nike Pegasus 41 in white, size 42"


def finding_fields(schema):
    return [key for key in schema["properties"] if key != "own_words"]


def person(kind, shown):
    """An elicitation callback: the person answers the form as `kind` says."""

    async def callback(context, params):
        schema = params.requested_schema
        shown.append((params.message, schema))
        for prop in schema["properties"].values():
            assert prop["type"] == "string", schema  # flat: primitives and enums only
        if kind == "accept":
            return types.ElicitResult(action="accept", content={field: "accept" for field in finding_fields(schema)})
        if kind == "decline_findings":
            return types.ElicitResult(action="accept", content={field: "decline" for field in finding_fields(schema)})
        if kind == "own_words":
            return types.ElicitResult(action="accept", content={"own_words": "41 is fine too"})
        return types.ElicitResult(action=kind)  # "decline" or "cancel" the form

    return callback


async def elicitation(work, mode, transport):
    """A client that declares form elicitation: on the 2025-11-25 handshake
    (legacy) the ask comes to the person as a form during the call, and the
    reply is checked in the same call; on 2026-07-28 (auto) the same form
    comes as an input_required round the SDK answers and retries."""
    outcomes = {}
    for kind in ["accept", "decline_findings", "own_words", "decline", "cancel"]:
        shown = []
        data = os.path.join(work, f"data-{mode}-{transport}-{kind}")
        arguments = {"request": ELICIT_REQUEST, "cart": cart("shoe-002"), "today": TODAY}
        if transport == "stdio":
            params = StdioServerParameters(command=BIN, args=["serve", "--data-dir", data])
            async with Client(params, mode=mode, read_timeout_seconds=30, elicitation_callback=person(kind, shown)) as client:
                result = structured(await client.call_tool("check_order", arguments))
        else:
            process = subprocess.Popen([BIN, "serve", "--data-dir", data, "--http", "127.0.0.1:0"], stderr=subprocess.PIPE, text=True)
            try:
                url = reported_url(process)
                async with Client(url, mode=mode, read_timeout_seconds=30, elicitation_callback=person(kind, shown)) as client:
                    result = structured(await client.call_tool("check_order", arguments))
            finally:
                process.terminate()
                process.wait(timeout=20)
        assert result["question"] if result["decision"] == "ask" else True, result
        if not shown:
            assert result["decision"] == "ask" and result["attempt"] == 1 and result["question"], result
            outcomes[kind] = "plain ask (no form)"
            continue
        message, _ = shown[0]
        if kind == "accept":
            assert result["decision"] == "proceed" and result["attempt"] == 2, result
            assert any("accepted by the person" in note for note in result["notes"]), result
        elif kind == "decline_findings":
            assert result["decision"] == "ask" and result["attempt"] == 2, result
            assert "declined" in result["reasons"][0], result
            assert len(shown) == 1, "a declined mismatch is not asked twice"
        elif kind == "own_words":
            assert result["decision"] == "proceed", result
            assert result["facts"]["size_any"] == ["41"], result
        else:
            assert result["decision"] == "ask" and result["attempt"] == 1, result
            assert result["question"] == message, (result["question"], message)
        outcomes[kind] = f"form -> {result['decision']} (attempt {result['attempt']})"
    print(f"ok: elicitation over {transport} ({mode}): {outcomes}")
    return outcomes


def serve_args(data_dir, facts_path):
    return ["serve", "--data-dir", data_dir, "--extractors", f"fixed:{facts_path}"]


async def slow_person_over_http(work):
    """A person slower than the session may idle (legacy mode, where the
    server sends the form during the call): the server stops waiting before
    the session would close, so the agent gets the plain ask, not an error,
    and the session still serves the next call."""
    data = os.path.join(work, "data-slow")
    process = subprocess.Popen([BIN, "serve", "--data-dir", data, "--http", "127.0.0.1:0", "--session-idle-timeout", "3"],
                               stderr=subprocess.PIPE, text=True)
    shown = []

    async def slow(context, params):
        shown.append(params.message)
        await asyncio.sleep(4.5)
        return types.ElicitResult(action="accept", content={field: "accept" for field in finding_fields(params.requested_schema)})

    try:
        url = reported_url(process)
        arguments = {"request": ELICIT_REQUEST, "cart": cart("shoe-002"), "today": TODAY}
        async with Client(url, mode="legacy", read_timeout_seconds=30, elicitation_callback=slow) as client:
            result = structured(await client.call_tool("check_order", arguments))
            assert shown, "the form was sent"
            assert result["decision"] == "ask" and result["attempt"] == 1 and result["question"], result
            again = structured(await client.call_tool("check_order", {**arguments, "cart": cart("shoe-003")}))
            assert again["decision"] == "proceed", again
    finally:
        process.terminate()
        process.wait(timeout=20)
    print("ok: a person slower than the session's idle timeout gets the plain ask; the session lives on")


async def over_stdio(work, mode):
    facts_path = os.path.join(work, "facts.json")
    with open(facts_path, "w") as handle:
        json.dump(FACTS, handle)
    params = StdioServerParameters(command=BIN, args=serve_args(os.path.join(work, "data"), facts_path))
    async with Client(params, mode=mode, read_timeout_seconds=30) as client:
        await scenarios(client, facts_path, f"stdio ({mode})")


async def over_http(work, mode):
    facts_path = os.path.join(work, "facts.json")
    with open(facts_path, "w") as handle:
        json.dump(FACTS, handle)
    process = subprocess.Popen(
        [BIN, *serve_args(os.path.join(work, "data"), facts_path), "--http", "127.0.0.1:0"],
        stderr=subprocess.PIPE,
        text=True,
    )
    closes = SessionCloses()
    try:
        url = reported_url(process)
        with closes:
            async with Client(url, mode=mode, read_timeout_seconds=30) as client:
                await scenarios(client, facts_path, f"streamable http ({mode})")
    finally:
        process.terminate()
        code = process.wait(timeout=20)
        assert code == 0, f"graceful shutdown on SIGTERM should exit 0, got {code}"
    # Issue 31: the SDK ends a legacy session with DELETE on close and takes
    # only 200 or 204 as done; on anything else it logs a warning.
    assert not closes.warnings, closes.warnings
    if mode == "legacy":
        assert closes.sent == 1, f"the SDK sent {closes.sent} session DELETEs"
        print(f"ok: session DELETE over http ({mode}), no termination warning")


class SessionCloses(logging.Handler):
    """Within `with`, counts the SDK's session DELETEs and keeps the
    "Session termination failed" warnings its HTTP transport logs."""

    def __init__(self):
        super().__init__(level=logging.WARNING)
        self.sent = 0
        self.warnings = []

    def emit(self, record):
        message = record.getMessage()
        if "Session termination failed" in message:
            self.warnings.append(message)

    def __enter__(self):
        original = streamable_http.StreamableHTTPTransport.terminate_session

        async def counted(transport, client):
            self.sent += 1
            await original(transport, client)

        self.original = original
        streamable_http.StreamableHTTPTransport.terminate_session = counted
        streamable_http.logger.addHandler(self)
        return self

    def __exit__(self, *exc):
        streamable_http.StreamableHTTPTransport.terminate_session = self.original
        streamable_http.logger.removeHandler(self)
        return False


async def newcomer_default(work):
    """No key, no options but a data dir: the offline `rules` extractor and the
    embedded sandbox catalog give a proceed and an ask."""
    params = StdioServerParameters(command=BIN, args=["serve", "--data-dir", os.path.join(work, "data")])
    async with Client(params, read_timeout_seconds=30) as client:
        request = "Nike Pegasus 41 in white, size 42"
        proceed = structured(await client.call_tool("check_order", {"request": request, "cart": cart("shoe-003"), "today": TODAY}))
        assert proceed["decision"] == "proceed", proceed
        ask = structured(await client.call_tool("check_order", {"request": request, "cart": cart("shoe-002"), "today": TODAY}))
        assert ask["decision"] == "ask", ask
        size = next(finding["id"] for finding in ask["findings"] if finding["code"] == "size")
        clarified = structured(
            await client.call_tool(
                "check_order",
                {"request": request, "cart": cart("shoe-002"), "today": TODAY, "previous_record_id": ask["record_id"],
                 "answers": [{"finding_id": size, "reply": "41 is fine too"}]},
            )
        )
        assert clarified["decision"] == "proceed", clarified
    print("ok: default server (rules, embedded catalog): proceed, ask, clarification proceeds")


async def shared_data_dir(work):
    """Issue 31: three stdio servers (as three Claude windows start them) and an
    `asasked check` at once on one data dir: every check sealed in one chain,
    and an ask sealed by one server answered through another."""
    import contextlib

    data = os.path.join(work, "data")
    params = StdioServerParameters(command=BIN, args=["serve", "--data-dir", data])
    request = "Nike Pegasus 41 in white, size 42"
    cart_path = os.path.join(work, "cart.json")
    with open(cart_path, "w") as handle:
        json.dump(cart("shoe-003"), handle)
    async with contextlib.AsyncExitStack() as stack:
        clients = [await stack.enter_async_context(Client(params, read_timeout_seconds=30)) for _ in range(3)]
        cli = await asyncio.create_subprocess_exec(
            BIN, "check", "--request", f"{request} (cli)", "--cart", cart_path, "--today", "2026-11-02",
            "--data-dir", data, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )

        async def checks(number, client):
            results = []
            for order in range(5):
                arguments = {"request": f"{request} (server {number}, order {order})", "cart": cart("shoe-003"), "today": TODAY}
                results.append(structured(await client.call_tool("check_order", arguments)))
            return results

        batches = await asyncio.gather(*(checks(number, client) for number, client in enumerate(clients)))
        _, stderr = await cli.communicate()
        assert cli.returncode == 0, stderr.decode()
        ids = {result["record_id"] for batch in batches for result in batch}
        assert all(result["decision"] == "proceed" for batch in batches for result in batch), batches
        assert len(ids) == 15, ids
        ask = structured(await clients[0].call_tool("check_order", {"request": request, "cart": cart("shoe-002"), "today": TODAY}))
        assert ask["decision"] == "ask", ask
        size = next(finding["id"] for finding in ask["findings"] if finding["code"] == "size")
        accepted = structured(
            await clients[2].call_tool(
                "check_order",
                {"request": request, "cart": cart("shoe-002"), "today": TODAY, "previous_record_id": ask["record_id"],
                 "answers": [{"finding_id": size, "reply": "accept"}]},
            )
        )
        assert accepted["decision"] == "proceed" and accepted["attempt"] == 2, accepted
    verify = subprocess.run([BIN, "evidence", "verify", "--data-dir", data], capture_output=True, text=True)
    assert verify.returncode == 0 and verify.stdout.startswith("ok: 18 records"), verify.stdout + verify.stderr
    print("ok: three stdio servers and a check on one data dir, one chain of 18 records, an ask answered through another server")


def refuses_public_bind(work):
    with open(os.path.join(work, "facts.json"), "w") as handle:
        json.dump(FACTS, handle)
    result = subprocess.run(
        [BIN, "serve", "--data-dir", os.path.join(work, "data"), "--extractors", f"fixed:{os.path.join(work, 'facts.json')}",
         "--http", "0.0.0.0:0"],
        capture_output=True,
        text=True,
        timeout=20,
        env={key: value for key, value in os.environ.items() if key != "ASASKED_HTTP_TOKEN"},
    )
    assert result.returncode != 0 and "ASASKED_HTTP_TOKEN" in result.stderr, result
    print("ok: a non-loopback bind without a token is refused")


def evidence_verifies(work):
    data = os.path.join(work, "data")
    verify = subprocess.run([BIN, "evidence", "verify", "--data-dir", data], capture_output=True, text=True)
    assert verify.returncode == 0, verify.stdout + verify.stderr
    tampered = os.path.join(work, "tampered")
    shutil.copytree(data, tampered)
    log = os.path.join(tampered, "evidence.jsonl")
    with open(log) as handle:
        text = handle.read()
    with open(log, "w") as handle:
        handle.write(text.replace('"decision":"ask"', '"decision":"proceed"', 1))
    broken = subprocess.run([BIN, "evidence", "verify", "--data-dir", tampered], capture_output=True, text=True)
    assert broken.returncode == 1 and "BROKEN" in broken.stdout, broken.stdout + broken.stderr
    print(f"ok: evidence verifies ({verify.stdout.strip()}); a tampered copy fails")


def evidence_verifies_each(work):
    for name in os.listdir(work):
        data = os.path.join(work, name)
        verify = subprocess.run([BIN, "evidence", "verify", "--data-dir", data], capture_output=True, text=True)
        assert verify.returncode == 0, verify.stdout + verify.stderr


async def main():
    failures = 0
    passed = 0
    for name, run in [
        ("stdio auto", lambda work: over_stdio(work, "auto")),
        ("stdio legacy", lambda work: over_stdio(work, "legacy")),
        ("http auto", lambda work: over_http(work, "auto")),
        ("http legacy", lambda work: over_http(work, "legacy")),
    ]:
        work = tempfile.mkdtemp(prefix="asasked-py-")
        try:
            await run(work)
            evidence_verifies(work)
            passed += 1
        except Exception as error:  # report every scenario, not just the first
            failures += 1
            print(f"FAIL {name}: {type(error).__name__}: {error}", file=sys.stderr)
        finally:
            shutil.rmtree(work, ignore_errors=True)
    work = tempfile.mkdtemp(prefix="asasked-py-")
    try:
        await newcomer_default(work)
        evidence_verifies(work)
    except Exception as error:
        failures += 1
        print(f"FAIL default server: {type(error).__name__}: {error}", file=sys.stderr)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    work = tempfile.mkdtemp(prefix="asasked-py-")
    try:
        await slow_person_over_http(work)
    except Exception as error:
        failures += 1
        print(f"FAIL slow person over http: {type(error).__name__}: {error}", file=sys.stderr)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for transport in ["stdio", "http"]:
        for mode in ["legacy", "auto"]:
            work = tempfile.mkdtemp(prefix="asasked-py-")
            try:
                outcomes = await elicitation(work, mode, transport)
                # legacy: the server sends elicitation/create during the
                # call (2025-11-25); auto: 2026-07-28, the form comes back as
                # an input_required round and the SDK retries the call.
                assert all(outcome.startswith("form") for outcome in outcomes.values()), outcomes
                evidence_verifies_each(work)
            except Exception as error:
                failures += 1
                print(f"FAIL elicitation {transport} {mode}: {type(error).__name__}: {error}", file=sys.stderr)
            finally:
                shutil.rmtree(work, ignore_errors=True)
    work = tempfile.mkdtemp(prefix="asasked-py-")
    try:
        await shared_data_dir(work)
    except Exception as error:
        failures += 1
        print(f"FAIL shared data dir: {type(error).__name__}: {error}", file=sys.stderr)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    work = tempfile.mkdtemp(prefix="asasked-py-")
    try:
        refuses_public_bind(work)
    except Exception as error:
        failures += 1
        print(f"FAIL public bind: {error}", file=sys.stderr)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"{passed} transport scenarios passed, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
