#!/usr/bin/env python3
"""Writes a copy of SPIR-V headers' include/spirv tree whose core grammar also
knows the enumerants listed below, for the pinned SPIRV-Tools to generate its
operand tables from.

Why: SPIRV-Tools 2023.1 (and Debian bookworm's spirv-headers 1.3.239) predate
SPV_KHR_maximal_reconvergence. Its binary parser rejects any module carrying
`OpExecutionMode %main MaximallyReconvergesKHR` ("Invalid execution mode
operand: 6023"), so no spirv-conv command could even load such a shader
(docs/maximal-reconvergence.md). The validator has no rules for the mode
either; spirv-conv checks them itself (source/io/maximal_reconvergence.cpp).

Usage: spirv_grammar_overlay.py SOURCE_INCLUDE_DIR OUT_INCLUDE_DIR
Files are only rewritten when their content changes (no needless rebuilds).
"""
import json
import os
import shutil
import sys

# (operand kind, enumerant) added when the grammar lacks the value. Values,
# capabilities and extensions as in the SPIR-V registry's unified1 grammar.
ADDED_ENUMERANTS = [
    ("ExecutionMode", {
        "enumerant": "MaximallyReconvergesKHR",
        "value": 6023,
        "capabilities": ["Shader"],
        "extensions": ["SPV_KHR_maximal_reconvergence"],
        "version": "None",
    }),
]


def write_if_changed(path, data):
    if os.path.exists(path):
        with open(path, "rb") as f:
            if f.read() == data:
                return
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def patched_core_grammar(path):
    with open(path, encoding="utf-8") as f:
        grammar = json.load(f)
    kinds = {kind["kind"]: kind for kind in grammar["operand_kinds"]}
    for kind_name, enumerant in ADDED_ENUMERANTS:
        kind = kinds[kind_name]
        if any(e["value"] == enumerant["value"] for e in kind["enumerants"]):
            continue  # a newer grammar already has it
        kind["enumerants"].append(enumerant)
        kind["enumerants"].sort(key=lambda e: e["value"])
    return (json.dumps(grammar, indent=2) + "\n").encode("utf-8")


def main(source, out):
    for root, _, files in os.walk(os.path.join(source, "spirv")):
        for name in files:
            src = os.path.join(root, name)
            dst = os.path.join(out, os.path.relpath(src, source))
            if name == "spirv.core.grammar.json":
                data = patched_core_grammar(src)
            else:
                with open(src, "rb") as f:
                    data = f.read()
            write_if_changed(dst, data)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
