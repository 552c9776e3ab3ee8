#!/usr/bin/env python3
"""Writes a copy of SPIR-V headers' include/spirv tree whose core grammar also
knows the enumerants and instructions listed below, for the pinned SPIRV-Tools
to generate its operand and opcode tables from, and whose C++ header
(spirv.hpp11) names them, since the generated tables refer to them as
spv::Capability::QuadControlKHR, spv::Op::OpGroupNonUniformQuadAllKHR, ...

Why: SPIRV-Tools 2023.1 (and Debian bookworm's spirv-headers 1.3.239) predate
SPV_KHR_maximal_reconvergence and SPV_KHR_quad_control. Its binary parser
rejects any module carrying `OpExecutionMode %main MaximallyReconvergesKHR`
("Invalid execution mode operand: 6023") or `OpCapability QuadControlKHR`, so
no spirv-conv command could even load such a shader
(docs/maximal-reconvergence.md, docs/cli.md#input-from-newer-toolchains). The
validator has no rules for them either; spirv-conv checks them itself
(source/io/maximal_reconvergence.cpp, source/io/quad_control.cpp).

Usage: spirv_grammar_overlay.py SOURCE_INCLUDE_DIR OUT_INCLUDE_DIR
Files are only rewritten when their content changes (no needless rebuilds).
"""
import json
import os
import re
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
    # SPV_KHR_quad_control: the capability brings the extension; the modes and
    # instructions need the capability.
    ("Capability", {
        "enumerant": "QuadControlKHR",
        "value": 5087,
        "extensions": ["SPV_KHR_quad_control"],
        "version": "None",
    }),
    ("ExecutionMode", {
        "enumerant": "QuadDerivativesKHR",
        "value": 5088,
        "capabilities": ["QuadControlKHR"],
        "version": "None",
    }),
    ("ExecutionMode", {
        "enumerant": "RequireFullQuadsKHR",
        "value": 5089,
        "capabilities": ["QuadControlKHR"],
        "version": "None",
    }),
]

# Instructions added when the grammar lacks the opcode, as in the registry's
# unified1 grammar.
ADDED_INSTRUCTIONS = [
    {
        "opname": "OpGroupNonUniformQuadAllKHR",
        "class": "Non-Uniform",
        "opcode": 5110,
        "operands": [
            {"kind": "IdResultType"},
            {"kind": "IdResult"},
            {"kind": "IdRef", "name": "'Predicate'"},
        ],
        "capabilities": ["QuadControlKHR"],
        "version": "None",
    },
    {
        "opname": "OpGroupNonUniformQuadAnyKHR",
        "class": "Non-Uniform",
        "opcode": 5111,
        "operands": [
            {"kind": "IdResultType"},
            {"kind": "IdResult"},
            {"kind": "IdRef", "name": "'Predicate'"},
        ],
        "capabilities": ["QuadControlKHR"],
        "version": "None",
    },
]


def write_if_changed(path, data):
    if os.path.exists(path):
        with open(path, "rb") as f:
            if f.read() == data:
                return
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def added_to(grammar):
    """(kind or "Op", name, value) of every row the grammar lacks."""
    kinds = {kind["kind"]: kind for kind in grammar["operand_kinds"]}
    added = []
    for kind_name, enumerant in ADDED_ENUMERANTS:
        if not any(e["value"] == enumerant["value"] for e in kinds[kind_name]["enumerants"]):
            added.append((kind_name, enumerant["enumerant"], enumerant["value"]))
    opcodes = {inst["opcode"] for inst in grammar["instructions"]}
    for inst in ADDED_INSTRUCTIONS:
        if inst["opcode"] not in opcodes:
            added.append(("Op", inst["opname"], inst["opcode"]))
    return added


def patched_core_grammar(grammar):
    kinds = {kind["kind"]: kind for kind in grammar["operand_kinds"]}
    for kind_name, enumerant in ADDED_ENUMERANTS:
        kind = kinds[kind_name]
        if any(e["value"] == enumerant["value"] for e in kind["enumerants"]):
            continue  # a newer grammar already has it
        kind["enumerants"].append(enumerant)
        kind["enumerants"].sort(key=lambda e: e["value"])
    opcodes = {inst["opcode"] for inst in grammar["instructions"]}
    for inst in ADDED_INSTRUCTIONS:
        if inst["opcode"] not in opcodes:
            grammar["instructions"].append(inst)
    grammar["instructions"].sort(key=lambda i: i["opcode"])
    return (json.dumps(grammar, indent=2) + "\n").encode("utf-8")


def patched_cpp_header(text, added):
    """spirv.hpp11 with an enumerator for each added row, before the Max of
    its enum class (the header names opcodes with their "Op" prefix)."""
    for kind_name, name, value in added:
        match = re.search(r"^enum class %s : unsigned \{\n(.*?)^    Max = 0x7fffffff,$" % kind_name,
                          text, re.S | re.M)
        if not match:
            sys.exit("spirv_grammar_overlay.py: no enum class %s in spirv.hpp11" % kind_name)
        if re.search(r"^    %s = " % name, match.group(1), re.M):
            continue
        at = match.end(1)
        text = text[:at] + "    %s = %d,\n" % (name, value) + text[at:]
    return text


def main(source, out):
    with open(os.path.join(source, "spirv", "unified1", "spirv.core.grammar.json"),
              encoding="utf-8") as f:
        grammar = json.load(f)
    added = added_to(grammar)
    for root, _, files in os.walk(os.path.join(source, "spirv")):
        for name in files:
            src = os.path.join(root, name)
            dst = os.path.join(out, os.path.relpath(src, source))
            if name == "spirv.core.grammar.json" and os.path.basename(root) == "unified1":
                data = patched_core_grammar(grammar)
            elif name == "spirv.hpp11" and os.path.basename(root) == "unified1":
                with open(src, encoding="utf-8") as f:
                    data = patched_cpp_header(f.read(), added).encode("utf-8")
            else:
                with open(src, "rb") as f:
                    data = f.read()
            write_if_changed(dst, data)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
