#!/usr/bin/env python3
"""Writes the COMMANDS section of the spirv-conv man page as a help2man
include file: every subcommand's own --help, in roff.

Why: help2man formats only `spirv-conv --help`, which lists the subcommands
but none of their options; this puts each subcommand's usage, description and
option groups into the page too, from the same help text.

Usage: spirv_conv_man_commands.py SPIRV_CONV OUT_H2M

The subcommands are those of the "Subcommands:" section of `SPIRV_CONV --help`.
CLI11 prints each option as "  NAMES<padding>DESCRIPTION" (or the names alone on
a line, the description below), descriptions at one column, group headings
at column 0 ending in ":".
"""
import re
import subprocess
import sys


def fail(message):
    sys.exit("spirv_conv_man_commands.py: " + message)


def help_text(spirv_conv, *args):
    result = subprocess.run([spirv_conv, *args, "--help"], capture_output=True, text=True,
                            timeout=60)
    if result.returncode != 0:
        fail("%s --help exited with %d: %s" % (" ".join([spirv_conv, *args]), result.returncode,
                                                result.stderr.strip()))
    return result.stdout


def subcommands(top_help):
    names, inside = [], False
    for line in top_help.splitlines():
        if not line.startswith(" "):
            inside = line == "Subcommands:"
        elif inside:
            names.append(line.split()[0])
    if not names:
        fail("no \"Subcommands:\" section in the --help text")
    return names


def roff(text):
    """Text for a roff line: backslashes and hyphens escaped, no leading control character."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return "\\&" + text if text[:1] in (".", "'") else text


def parse(command_help):
    """(description lines, usage, [(heading, [(names, description)])])."""
    lines = command_help.rstrip().splitlines()
    usage_at = next((i for i, line in enumerate(lines) if line.startswith("Usage: ")), None)
    if usage_at is None:
        fail("no Usage: line in\n" + command_help)
    description = lines[:usage_at]
    usage = lines[usage_at][len("Usage: "):]
    groups = []
    for line in lines[usage_at + 1:]:
        if not line.strip():
            continue
        if not line.startswith(" "):
            groups.append((line, []))
            continue
        if not groups:
            fail("option line before any heading: %r" % line)
        entries = groups[-1][1]
        match = re.match(r"  (\S.*?)(?:\s{2,}(\S.*))?$", line)
        if line.startswith("   ") and entries:
            # A description on a line of its own, or its continuation.
            names, text = entries[-1]
            entries[-1] = (names, (text + " " if text else "") + line.strip())
        elif match:
            entries.append((match.group(1), match.group(2) or ""))
        else:
            fail("cannot read option line %r" % line)
    return description, usage, groups


def section(command_help):
    description, usage, groups = parse(command_help)
    out = [".SS \"%s\"" % roff(usage), ".PP"]
    out += [roff(line) for line in description]
    for heading, entries in groups:
        out += [".PP", "\\fI%s\\fR" % roff(heading)]
        for names, text in entries:
            out += [".TP", "\\fB%s\\fR" % roff(names), roff(text)]
    return out


def main():
    if len(sys.argv) != 3:
        fail("usage: spirv_conv_man_commands.py SPIRV_CONV OUT_H2M")
    spirv_conv, out_path = sys.argv[1:]
    lines = ["[COMMANDS]"]
    for name in subcommands(help_text(spirv_conv)):
        lines += section(help_text(spirv_conv, name))
    with open(out_path, "w", encoding="utf-8") as out:
        out.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
