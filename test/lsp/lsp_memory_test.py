#!/usr/bin/env python3
"""The server's memory stays bounded over a long edit session (docs/editor.md).

Types into a shader for many versions, each linted, and reads the server's
resident set size (VmRSS) after a warm-up and at the end: the growth must stay
under --max-growth-mib. The lints run in children, so the server holds only
the open texts and their last results.
"""

import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lsp_client import LspClient  # noqa: E402


def rss_kib(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError("no VmRSS for %d" % pid)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--spirv-conv", required=True)
    parser.add_argument("--shader", required=True)
    parser.add_argument("--edits", type=int, default=400, help="at least 8")
    parser.add_argument("--max-growth-mib", type=float, default=8)
    args = parser.parse_args()
    if args.edits < 8:
        parser.error("--edits must be at least 8: a quarter of them is the warm-up")
    with open(args.shader) as f:
        text = f.read()
    path = os.path.join(tempfile.mkdtemp(prefix="spirv_conv_lsp_memory_"),
                        os.path.basename(args.shader))
    with open(path, "w") as f:
        f.write(text)
    client = LspClient(args.spirv_conv, timeout=120)
    try:
        client.initialize(os.path.dirname(path), {"spirv-conv": {"debounceMs": 0}})
        client.open(path, text, 1)
        client.diagnostics(path, 1)
        warm_up = args.edits // 4
        baseline = None
        for version in range(2, args.edits + 2):
            # A different trailing comment each time: every version is a new text to compile.
            client.change(path, text + "\n// edit %d %s\n" % (version, "x" * (version % 97)),
                          version)
            client.diagnostics(path, version)
            if version == warm_up:
                baseline = rss_kib(client.process.pid)
        end = rss_kib(client.process.pid)
        growth_mib = (end - baseline) / 1024.0
        _, code = client.shutdown()
    finally:
        client.kill()
    print("lsp memory: %d edits, resident %.1f MiB after %d, %.1f MiB at the end (growth %.2f MiB,"
          " limit %.1f)" % (args.edits, baseline / 1024.0, warm_up, end / 1024.0, growth_mib,
                            args.max_growth_mib))
    sys.exit(0 if growth_mib < args.max_growth_mib and code == 0 else 1)


if __name__ == "__main__":
    main()
