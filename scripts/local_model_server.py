"""Serve the Gemma 3 270M GGUF with llama.cpp's OpenAI-compatible server.

Started by scripts/local-model.sh; it blocks until killed. The server is
xllamacpp's embedded llama.cpp server, which serves /health and
/v1/chat/completions (with response_format json_schema) on 127.0.0.1 only.
Sampling is greedy (temperature 0) so runs repeat, and two threads match the
project's 2-core machines.
"""

import argparse
import signal
import sys
import time

import xllamacpp as xlc


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--model", required=True, help="path to the GGUF file")
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--ctx", type=int, default=4096, help="context window in tokens")
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()

    params = xlc.CommonParams()
    params.model.path = args.model
    params.hostnames = ["127.0.0.1"]
    params.port = args.port
    params.n_ctx = args.ctx
    params.cpuparams.n_threads = args.threads
    params.sampling.temp = 0
    server = xlc.Server(params)

    stop = False

    def on_signal(_signum, _frame):
        nonlocal stop
        stop = True

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    print(f"local model server on http://127.0.0.1:{args.port}/v1", flush=True)
    while not stop:
        time.sleep(0.2)
    del server
    return 0


if __name__ == "__main__":
    sys.exit(main())
