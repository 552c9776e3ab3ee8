#!/usr/bin/env python3
# Copyright (c) 2026 The spirv-conv authors
# SPDX-License-Identifier: Apache-2.0
"""`spirv-conv lint --format sarif` against the SARIF 2.1.0 JSON schema (docs/sarif.md).

  python3 test/report/sarif_schema_test.py --spirv-conv PATH --schema SCHEMA.json
                                           --shaders shaders/lint --work-dir DIR [-v]

Runs the lint with --format sarif on several inputs and validates each log
against the schema with jsonschema (Draft 4, the schema's dialect, with format
checks: "uri" and "uri-reference" need rfc3987), then checks what GitHub code
scanning needs beyond the schema:
  - version "2.1.0", one run, tool.driver.name "spirv-conv", unique rule ids;
  - every result's ruleId names a rule and ruleIndex points at it;
  - levels are "error", "warning" or "note";
  - every result has a location with an artifact URI (except for standard
    input), and a region with startLine >= 1 or a logical location;
  - relative URIs resolve against run.originalUriBaseIds["%SRCROOT%"] to the
    file that was linted or named by the debug info;
  - the results are the findings of `--format json` on the same inputs;
  - inputs that could not be linted are error notifications, and make
    executionSuccessful false.

Inputs: every shader of shaders/lint with -g (source lines), the same without
-g (no debug info: function/block/instruction only), a SPIR-V binary without
debug info, a shader without findings, a shader under a path that needs URI
escaping, an absolute path outside the working directory, standard input, and
bad inputs (garbage, a missing file).

The schema comes from scripts/setup-deps.sh (the npm package it pins) and
jsonschema and rfc3987 from Debian's python3-jsonschema and python3-rfc3987,
which the same script installs. This test therefore fails, and never skips,
when either is missing: run scripts/setup-deps.sh.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import urllib.parse
import urllib.request

LEVELS = {"error", "warning", "note"}


class Checker:
    def __init__(self, validator, verbose):
        self.validator = validator
        self.verbose = verbose
        self.failures = []
        self.logs = 0
        self.stdin = False  # the current case reads standard input

    def fail(self, case, message):
        self.failures.append(f"{case}: {message}")
        print(f"FAIL {case}: {message}", flush=True)

    def check_log(self, case, log, cwd, expected_findings, expected_errors):
        """Validates one SARIF log; returns its run."""
        self.logs += 1
        errors = sorted(self.validator.iter_errors(log), key=lambda e: list(e.absolute_path))
        for error in errors[:20]:
            path = "/".join(str(p) for p in error.absolute_path)
            self.fail(case, f"schema: at /{path}: {error.message}")
        if log.get("version") != "2.1.0":
            self.fail(case, f"version is {log.get('version')!r}")
        runs = log.get("runs") or []
        if len(runs) != 1:
            self.fail(case, f"{len(runs)} runs (expected 1)")
            return None
        run = runs[0]
        driver = run["tool"]["driver"]
        if driver.get("name") != "spirv-conv":
            self.fail(case, f"tool.driver.name is {driver.get('name')!r}")
        rules = [rule["id"] for rule in driver.get("rules", [])]
        if len(set(rules)) != len(rules) or not rules:
            self.fail(case, f"rule ids missing or not unique: {rules}")
        for rule in driver.get("rules", []):
            for key in ("name", "shortDescription", "fullDescription", "help",
                        "defaultConfiguration"):
                if key not in rule:
                    self.fail(case, f"rule {rule['id']} has no {key}")
            if "markdown" not in rule.get("help", {}):
                self.fail(case, f"rule {rule['id']} has no markdown help")
        base = run.get("originalUriBaseIds", {}).get("%SRCROOT%", {}).get("uri")
        if base != urllib.parse.urljoin("file:", urllib.request.pathname2url(cwd) + "/"):
            self.fail(case, f"%SRCROOT% is {base!r}, not the working directory {cwd}")
        results = run.get("results")
        if results is None:
            self.fail(case, "run.results is missing (GitHub needs it, even empty)")
            results = []
        for index, result in enumerate(results):
            self.check_result(f"{case}: result {index}", result, rules, base)
        found = [(r.get("ruleId"), r.get("level")) for r in results]
        if found != expected_findings:
            self.fail(case, f"results {found} are not the JSON report's findings "
                            f"{expected_findings}")
        self.check_invocation(case, run, expected_errors, base)
        return run

    def check_result(self, case, result, rules, base):
        rule = result.get("ruleId")
        if rule not in rules:
            self.fail(case, f"ruleId {rule!r} is not a rule of tool.driver.rules")
        elif result.get("ruleIndex") != rules.index(rule):
            self.fail(case, f"ruleIndex {result.get('ruleIndex')} is not {rule}'s")
        if result.get("level") not in LEVELS:
            self.fail(case, f"level {result.get('level')!r}")
        if not result.get("message", {}).get("text"):
            self.fail(case, "no message text")
        locations = result.get("locations") or []
        if not locations:
            self.fail(case, "no locations (GitHub rejects such a result)")
        for where, location in [("location", l) for l in locations] + [
                (f"related location {l.get('id')}", l) for l in result.get("relatedLocations", [])]:
            self.check_location(f"{case}: {where}", location, base)
        ids = [l.get("id") for l in result.get("relatedLocations", [])]
        if len(set(ids)) != len(ids) or None in ids:
            self.fail(case, f"related location ids {ids} are not unique")
        for flow in result.get("codeFlows", []):
            for thread in flow["threadFlows"]:
                for step in thread["locations"]:
                    self.check_location(f"{case}: code flow", step["location"], base)

    def check_location(self, case, location, base):
        physical = location.get("physicalLocation")
        region = (physical or {}).get("region", {})
        if region.get("startLine", 0) < 1 and not location.get("logicalLocations"):
            self.fail(case, "neither a region with startLine >= 1 nor a logical location")
        if physical is None:
            if not self.stdin:  # standard input without debug info names no file
                self.fail(case, "no physicalLocation (GitHub needs an artifact location)")
            return
        self.check_artifact(case, physical.get("artifactLocation", {}), base)

    def check_artifact(self, case, artifact, base):
        uri = artifact.get("uri")
        if not uri:
            self.fail(case, "artifactLocation without a uri (GitHub rejects it)")
            return
        if artifact.get("uriBaseId") not in (None, "%SRCROOT%"):
            self.fail(case, f"uriBaseId {artifact.get('uriBaseId')!r}")
        if artifact.get("uriBaseId") == "%SRCROOT%":
            if urllib.parse.urlsplit(uri).scheme or uri.startswith("/") or uri.startswith(".."):
                self.fail(case, f"{uri!r} is not a path relative to %SRCROOT%")
            uri = urllib.parse.urljoin(base, uri)
        parts = urllib.parse.urlsplit(uri)
        if parts.scheme != "file":
            self.fail(case, f"{uri!r} is not a file URI")
            return
        path = urllib.request.url2pathname(parts.path)
        if not os.path.isfile(path):
            self.fail(case, f"{artifact} does not name an existing file ({path})")

    def check_invocation(self, case, run, expected_errors, base):
        invocations = run.get("invocations") or []
        if len(invocations) != 1:
            self.fail(case, f"{len(invocations)} invocations (expected 1)")
            return
        invocation = invocations[0]
        notifications = invocation.get("toolExecutionNotifications", [])
        if invocation.get("executionSuccessful") != (not expected_errors):
            self.fail(case, f"executionSuccessful is {invocation.get('executionSuccessful')} "
                            f"with {len(expected_errors)} inputs that failed")
        messages = [n.get("message", {}).get("text") for n in notifications]
        if messages != expected_errors:
            self.fail(case, f"notifications {messages} are not the JSON report's errors "
                            f"{expected_errors}")
        for notification in notifications:
            if notification.get("level") != "error":
                self.fail(case, f"notification level {notification.get('level')!r}")
            for location in notification.get("locations", []):
                physical = location.get("physicalLocation", {})
                artifact = physical.get("artifactLocation", {})
                if not artifact.get("uri"):
                    self.fail(case, "notification location without a uri")


def lint(spirv_conv, args, cwd, fmt, stdin=None):
    command = [spirv_conv, "lint", "--format", fmt] + args
    process = subprocess.run(command, cwd=cwd, capture_output=True, text=True, input=stdin)
    if process.returncode not in (0, 1, 2):
        raise RuntimeError(f"{command} exited {process.returncode}: {process.stderr}")
    try:
        return json.loads(process.stdout), process.returncode
    except json.JSONDecodeError as error:
        raise RuntimeError(f"{command}: output is not JSON ({error}): {process.stdout[:500]}")


def run_case(checker, spirv_conv, case, args, cwd, stdin=None, expect=None):
    report, json_code = lint(spirv_conv, args, cwd, "json", stdin)
    log, sarif_code = lint(spirv_conv, args, cwd, "sarif", stdin)
    if json_code != sarif_code:
        checker.fail(case, f"exit code {sarif_code} with sarif, {json_code} with json")
    checker.stdin = stdin is not None
    findings = [(f["rule"], f["severity"]) for entry in report["files"] for f in entry["findings"]]
    errors = [entry["error"] for entry in report["files"] if "error" in entry]
    run = checker.check_log(case, log, cwd, findings, errors)
    if run is not None and expect is not None:
        expect(case, run)
    if checker.verbose:
        print(f"ok {case}: {len(findings)} results, {len(errors)} notifications")
    return run


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spirv-conv", required=True)
    parser.add_argument("--schema", required=True)
    parser.add_argument("--shaders", required=True, help="shaders/lint")
    parser.add_argument("--work-dir", required=True)
    parser.add_argument("-v", "--verbose", action="store_true")
    options = parser.parse_args()

    # Both are provided by scripts/setup-deps.sh: a missing one is a failure, not a skip.
    try:
        import jsonschema
        import rfc3987  # noqa: F401 (jsonschema's "uri" and "uri-reference" format checks)
    except ImportError as error:
        print(f"FAIL: {error} under {sys.executable}: install Debian's python3-jsonschema and "
              "python3-rfc3987 (scripts/setup-deps.sh does)", file=sys.stderr)
        return 1
    if not os.path.isfile(options.schema):
        print(f"FAIL: no SARIF schema at {options.schema}: scripts/setup-deps.sh fetches it",
              file=sys.stderr)
        return 1
    with open(options.schema, encoding="utf-8") as file:
        schema = json.load(file)
    if "2.1.0" not in schema.get("title", ""):
        print(f"FAIL: {options.schema} is not the SARIF 2.1.0 schema", file=sys.stderr)
        return 1
    jsonschema.Draft4Validator.check_schema(schema)
    format_checker = jsonschema.FormatChecker()
    for fmt in ("uri", "uri-reference"):
        if fmt not in format_checker.checkers:
            print(f"FAIL: jsonschema cannot check format {fmt!r}", file=sys.stderr)
            return 1
    validator = jsonschema.Draft4Validator(schema, format_checker=format_checker)
    checker = Checker(validator, options.verbose)
    print(f"schema {options.schema}; jsonschema {jsonschema.__file__}")

    spirv_conv = os.path.abspath(options.spirv_conv)
    shaders = os.path.abspath(options.shaders)
    work = os.path.abspath(options.work_dir)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    root = os.path.dirname(os.path.dirname(shaders))  # the repository: shaders/lint
    corpus = sorted(os.path.join(shaders, name) for name in os.listdir(shaders)
                    if name.endswith((".frag", ".comp")))
    if not corpus:
        print(f"FAIL: no shaders in {shaders}", file=sys.stderr)
        return 1
    relative = [os.path.relpath(path, root) for path in corpus]

    def has_results(minimum, with_lines):
        def expect(case, run):
            results = run["results"]
            if len(results) < minimum:
                checker.fail(case, f"{len(results)} results, expected at least {minimum}")
            lines = [r for r in results
                     if r["locations"][0].get("physicalLocation", {}).get("region")]
            if with_lines and len(lines) != len(results):
                checker.fail(case, f"{len(results) - len(lines)} results without a source line")
            if not with_lines and lines:
                checker.fail(case, f"{len(lines)} results with a region from no debug info")
        return expect

    # The corpus, with and without debug info, as one batch each.
    run_case(checker, spirv_conv, "shaders/lint -g", ["-g"] + relative, root,
             expect=has_results(40, True))
    run_case(checker, spirv_conv, "shaders/lint without -g", relative, root,
             expect=has_results(40, False))

    # A SPIR-V binary without debug info, and one file without findings.
    binary = os.path.join(work, "no_debug_info.spv")
    subprocess.run([spirv_conv, "opt", os.path.join(shaders, "bindless_helper_param.frag"),
                    "-o", binary], check=True)
    run_case(checker, spirv_conv, "binary without debug info", ["no_debug_info.spv"], work,
             expect=has_results(1, False))
    clean = os.path.join(shaders, "bloom_upsample_tent.frag")
    run_case(checker, spirv_conv, "no findings", ["-g", os.path.relpath(clean, root)], root,
             expect=has_results(0, True))

    # Paths that need escaping, and a path outside the working directory.
    odd_dir = os.path.join(work, "dir with space#1")
    os.makedirs(odd_dir)
    # ASCII only: glslang 12 mangles non-ASCII file names in OpString (the
    # unit tests cover the escaping of UTF-8).
    odd = os.path.join(odd_dir, "p%c[1] +&.frag")
    shutil.copy(os.path.join(shaders, "dissolve_loop_discard.frag"), odd)

    def escaped(case, run):
        uris = [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                for r in run["results"]]
        if not uris or any(not all(code in uri for code in ("%20", "%23", "%25", "%5B", "%2B"))
                           for uri in uris):
            checker.fail(case, f"URIs not escaped: {uris}")
    run_case(checker, spirv_conv, "escaped path", ["-g", os.path.relpath(odd, work)], work,
             expect=escaped)

    def absolute(case, run):
        for result in run["results"]:
            artifact = result["locations"][0]["physicalLocation"]["artifactLocation"]
            if "uriBaseId" in artifact or not artifact["uri"].startswith("file:///"):
                checker.fail(case, f"{artifact} is not an absolute file URI")
    run_case(checker, spirv_conv, "outside the working directory", ["-g", corpus[0]], work,
             expect=absolute)

    # Standard input: no artifact without debug info.
    with open(os.path.join(shaders, "dissolve_loop_discard.frag"), encoding="utf-8") as file:
        source = file.read()
    run_case(checker, spirv_conv, "stdin", ["--stage", "frag", "-"], work, stdin=source,
             expect=has_results(1, False))

    # Inputs that cannot be linted, next to one that can.
    garbage = os.path.join(work, "garbage.spv")
    with open(garbage, "wb") as file:
        file.write(b"\x7fELF not SPIR-V at all")

    def notifications(case, run):
        invocation = run["invocations"][0]
        if len(invocation.get("toolExecutionNotifications", [])) != 2:
            checker.fail(case, "expected 2 notifications")
    run_case(checker, spirv_conv, "bad inputs",
             ["garbage.spv", "missing.spv", os.path.relpath(odd, work)], work,
             expect=notifications)

    total = checker.logs
    failed = len({f.split(":")[0] for f in checker.failures})
    print(f"{total - failed} passed, {failed} failed")
    return 1 if checker.failures else 0


if __name__ == "__main__":
    sys.exit(main())
