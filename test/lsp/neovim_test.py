#!/usr/bin/env python3
"""Neovim's own LSP client on `spirv-conv lsp` (docs/editor.md).

Runs Debian's Neovim headless with test/lsp/neovim_client.lua, which starts
the server, opens the given shaders and writes the diagnostics it received
(and what vim.diagnostic stored of them) to a file; each must equal the
lint's JSON findings for the same file (`spirv-conv lint -g --format json`).
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lsp_client import expected_sites, path_of, published_sites  # noqa: E402
from lsp_corpus_test import lint, shader_files  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--spirv-conv", required=True)
    parser.add_argument("--nvim", default=shutil.which("nvim") or "nvim")
    parser.add_argument("paths", nargs="+")
    args = parser.parse_args()
    files = [f for f in shader_files(args.paths)]
    expected = lint(args.spirv_conv, files)
    out = os.path.join(tempfile.mkdtemp(prefix="spirv_conv_nvim_"), "diagnostics.json")
    env = dict(os.environ, SPIRV_CONV=os.path.abspath(args.spirv_conv),
               SPIRV_CONV_SHADERS="\n".join(files), SPIRV_CONV_OUT=out,
               XDG_STATE_HOME=os.path.dirname(out), XDG_DATA_HOME=os.path.dirname(out))
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "neovim_client.lua")
    run = subprocess.run([args.nvim, "--headless", "--clean", "-n", "-u", "NONE",
                          "-c", "luafile " + script],
                         env=env, capture_output=True, text=True, timeout=600,
                         stdin=subprocess.DEVNULL)
    if run.returncode != 0 or not os.path.exists(out):
        print("nvim failed (%d):\n%s%s" % (run.returncode, run.stdout, run.stderr))
        sys.exit(1)
    with open(out) as f:
        report = json.load(f)
    failures = []
    sites = 0
    for uri, entry in sorted(report.items()):
        path = path_of(uri)
        want = sorted(expected_sites(expected[path])) if not expected[path].get("error") else None
        got = sorted(published_sites(path, entry["received"]["diagnostics"]))
        if want is not None and got != want:
            failures.append("%s: Neovim received\n  %r\nthe lint found\n  %r" % (path, got, want))
        if want is not None:
            sites += len(want)
        # vim.diagnostic holds one diagnostic per published one, at its line.
        stored = sorted((d["lnum"] + 1, d["message"]) for d in entry["stored"])
        published = sorted((d["range"]["start"]["line"] + 1, d["message"])
                           for d in entry["received"]["diagnostics"])
        if stored != published:
            failures.append("%s: vim.diagnostic holds %r, the server sent %r"
                            % (path, stored, published))
    missing = set(files) - set(path_of(uri) for uri in report)
    failures += ["%s: no diagnostics reached Neovim" % m for m in sorted(missing)]
    for failure in failures:
        print(failure)
    print("neovim: %d files, %d lint sites, %d failures" % (len(report), sites, len(failures)))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
