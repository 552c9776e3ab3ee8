#!/usr/bin/env python3
# Copyright (c) 2026 The spirv-conv authors
# SPDX-License-Identifier: Apache-2.0
"""Tests of the installed and packaged spirv-conv (docs/install.md), run on a
built tree without touching the machine.

  python3 test/package/package_test.py install|deb|cmake-hook --build-dir DIR --work-dir DIR
      --version X.Y.Z --libdir DIR --cmake PATH --cpack PATH --ninja PATH --cxx PATH
      [unittest options]

install: `cmake --install` into a folder that is then renamed (the package must
  be relocatable); test/package/consumer, a project of its own, is configured
  against it with find_package(spirv_conv CONFIG REQUIRED), built with the
  build's C++ compiler, and run: its verdict per branch must be the installed
  command's (`uniformity --format json`) on the same modules, one of which only
  the bundled SPIRV-Tools can parse.
deb: `cpack -G DEB`; the packages are unpacked with `dpkg-deb -x` and the
  command run from there; the Depends field of spirv-conv must name exactly
  the Debian packages of the libraries the binary links (readelf NEEDED, found
  with ldd, owned per dpkg -S), at versions installed here; spirv-conv-dev
  depends on glslang-dev and on spirv-conv of its own version; the man page
  renders the help text; the two packages hold what `cmake --install` installs,
  each file once.
cmake-hook: examples/shader-pipeline (GLSL and HLSL with shared headers, -O,
  SARIF) built against the installed package with spirv_conv_check_shaders():
  valid .spv outputs and a SARIF report; a second build does nothing; touching
  a header rebuilds only the shaders that include it. A generated project with
  a derivative in divergent control flow fails to build with the lint's
  "file:line: error:" line and leaves no .spv; RULES lowering the rule to a
  warning lets it build, WERROR fails it again.

Needs dpkg-deb, dpkg-query, readelf, ldd and man (scripts/setup-deps.sh).
"""

import argparse
import glob
import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import unittest

ARGS = None  # set by main()
TIMEOUT = 300  # seconds for any one process (a consumer build links a 20 MB archive)

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, os.pardir, os.pardir))
CONSUMER = os.path.join(HERE, "consumer")
# Inputs of the consumer, with the levels of their conditional branches in block order.
MODULES = {
    os.path.join(HERE, "branches.comp"): ["uniform", "divergent"],
    os.path.join(HERE, "maximal_reconvergence.spvasm"): ["divergent"],
}
# Two derivatives in divergent control flow: an error and a warning (docs/rules/).
LINT_INPUT = os.path.join(REPO, "shaders", "divergent_derivative.frag")


def run(*args, cwd=None, env=None, check=True):
    proc = subprocess.run(list(args), cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=TIMEOUT)
    if check and proc.returncode != 0:
        raise AssertionError("%s exited with %d\nstdout:\n%s\nstderr:\n%s" %
                             (" ".join(args), proc.returncode, proc.stdout, proc.stderr))
    return proc


def fresh_dir(*parts):
    path = os.path.join(ARGS.work_dir, *parts)
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    return path


def files_under(root):
    """Every file and symlink below |root|, as paths relative to it."""
    found = set()
    for dirpath, _, filenames in os.walk(root):
        for name in filenames:
            found.add(os.path.relpath(os.path.join(dirpath, name), root))
    return found


def install(prefix):
    run(ARGS.cmake, "--install", ARGS.build_dir, "--prefix", prefix)


def branch_lines(spirv_conv, module):
    """What the consumer must print for |module|, from the command's JSON report."""
    report = json.loads(run(spirv_conv, "uniformity", "--format", "json", module).stdout)
    lines, levels = [], []
    for function in report["functions"]:
        for block in function["blocks"]:
            if block["terminator"] in ("OpBranchConditional", "OpSwitch"):
                levels.append(block["branch_level"])
                lines.append("%s: branch at block %d is %s" %
                             (function["name"] or "", block["id"], block["branch_level"]))
    verdict = "uniform" if all(level == "uniform" for level in levels) else "divergent"
    return lines + ["verdict: " + verdict], levels


class InstallTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        root = fresh_dir()
        staged = os.path.join(root, "staged")
        install(staged)
        cls.prefix = os.path.join(root, "prefix")
        os.rename(staged, cls.prefix)
        cls.headers = sorted(os.path.basename(h) for h in
                             glob.glob(os.path.join(cls.prefix, "include", "spirv_conv", "*.h")))
        cls.consumer = os.path.join(root, "consumer")
        configured = run(ARGS.cmake, "-S", CONSUMER, "-B", cls.consumer, "-G", "Ninja",
                         "-DCMAKE_MAKE_PROGRAM=" + ARGS.ninja, "-DCMAKE_CXX_COMPILER=" + ARGS.cxx,
                         "-DCMAKE_PREFIX_PATH=" + cls.prefix,
                         "-DCONSUMER_HEADERS=" + ";".join(cls.headers))
        cls.configure_output = configured.stdout
        run(ARGS.cmake, "--build", cls.consumer)

    def test_layout(self):
        for path in ["bin/spirv-conv", ARGS.libdir + "/libspirv_conv.a",
                     ARGS.libdir + "/cmake/spirv_conv/spirv_convConfig.cmake",
                     ARGS.libdir + "/cmake/spirv_conv/spirv_convConfigVersion.cmake",
                     ARGS.libdir + "/cmake/spirv_conv/SpirvConvShaders.cmake",
                     "include/spirv_conv/spirv-tools/spirv-tools/libspirv.h",
                     "include/spirv_conv/spirv-tools/source/opt/ir_context.h",
                     "include/spirv_conv/spirv-tools/spirv/unified1/spirv.hpp11",
                     "share/man/man1/spirv-conv.1.gz"]:
            self.assertTrue(os.path.isfile(os.path.join(self.prefix, path)), path)
        public = sorted(os.path.basename(h) for h in
                        glob.glob(os.path.join(REPO, "include", "spirv_conv", "*.h")))
        self.assertEqual(self.headers, public)

    def test_package_found_in_prefix(self):
        self.assertIn("spirv_conv %s from %s" % (
            ARGS.version, os.path.join(self.prefix, ARGS.libdir, "cmake", "spirv_conv")),
            self.configure_output)

    def test_no_build_or_source_paths(self):
        # The rename above already proves relocation for the consumer; this names the culprit.
        package_dir = os.path.join(self.prefix, ARGS.libdir, "cmake", "spirv_conv")
        for path in glob.glob(os.path.join(package_dir, "*.cmake")):
            with open(path, encoding="utf-8") as f:
                text = f.read()
            for tree in (os.path.realpath(ARGS.build_dir), REPO):
                self.assertNotIn(tree, text, path)

    def test_verdicts_match_the_command(self):
        spirv_conv = os.path.join(self.prefix, "bin", "spirv-conv")
        for module, expected_levels in MODULES.items():
            expected, levels = branch_lines(spirv_conv, module)
            self.assertEqual(levels, expected_levels, module)
            printed = run(os.path.join(self.consumer, "uniformity_verdict"), module).stdout
            self.assertEqual(printed.splitlines(), expected, module)

    def test_links_only_the_bundled_spirv_tools(self):
        # glslang::SPIRV names SPIRV-Tools-opt & co. without a namespace; the
        # package binds them to itself, else Debian's archives would be linked too.
        commands = run(ARGS.ninja, "-C", self.consumer, "-t", "commands",
                       "uniformity_verdict").stdout
        link = commands.strip().splitlines()[-1]
        self.assertIn("libspirv_conv.a", link)
        self.assertNotRegex(link, r"SPIRV-Tools")

    def test_imported_command(self):
        with open(os.path.join(self.consumer, "spirv-conv-version.txt"), encoding="utf-8") as f:
            from_build_step = f.read()
        self.assertTrue(from_build_step.startswith("spirv-conv %s " % ARGS.version),
                        from_build_step)
        direct = run(os.path.join(self.prefix, "bin", "spirv-conv"), "--version").stdout
        self.assertEqual(from_build_step, direct)


def deb_fields(deb):
    text = run("dpkg-deb", "-f", deb).stdout
    return dict(re.findall(r"^([A-Za-z-]+): (.*)$", text, re.MULTILINE))


def relations(depends):
    """[(package, operator or None, version or None)] of a Depends field, alternatives flattened."""
    found = []
    for entry in re.split(r"\s*[,|]\s*", depends.strip()):
        match = re.fullmatch(r"([a-z0-9][a-z0-9.+-]*)(?::\S+)?(?:\s*\((<<|<=|=|>=|>>)\s*(\S+)\))?",
                             entry)
        if not match:
            raise AssertionError("cannot read Depends entry %r" % entry)
        found.append(match.groups())
    return found


def owning_package(path):
    """The Debian package that installed |path|; Debian bookworm's files may
    be registered under /lib or /usr/lib (merged /usr), by any name of a symlink."""
    candidates = []
    for p in (path, os.path.realpath(path)):
        candidates.append(p)
        if p.startswith("/usr/"):
            candidates.append(p[len("/usr"):])
        else:
            candidates.append("/usr" + p)
    for candidate in candidates:
        proc = run("dpkg-query", "-S", candidate, check=False)
        for line in proc.stdout.splitlines():
            packages, _, owned = line.rpartition(": ")
            if owned == candidate:
                return packages.split(",")[0].strip().split(":")[0]
    raise AssertionError("no Debian package owns %s (tried %s)" % (path, candidates))


class DebTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        out = fresh_dir("packages")
        run(ARGS.cpack, "--config", os.path.join(ARGS.build_dir, "CPackConfig.cmake"),
            "-G", "DEB", "-B", out)
        debs = {}
        for name in ("spirv-conv", "spirv-conv-dev"):
            found = glob.glob(os.path.join(out, name + "_*.deb"))
            if len(found) != 1:
                raise AssertionError("%s: expected one %s_*.deb, found %s" % (out, name, found))
            debs[name] = found[0]
        cls.tool, cls.dev = debs["spirv-conv"], debs["spirv-conv-dev"]
        cls.tool_fields, cls.dev_fields = deb_fields(cls.tool), deb_fields(cls.dev)
        cls.tool_root, cls.dev_root = fresh_dir("root-tool"), fresh_dir("root-dev")
        run("dpkg-deb", "-x", cls.tool, cls.tool_root)
        run("dpkg-deb", "-x", cls.dev, cls.dev_root)
        cls.spirv_conv = os.path.join(cls.tool_root, "usr", "bin", "spirv-conv")

    def test_version_from_the_unpacked_package(self):
        out = run(self.spirv_conv, "--version").stdout
        self.assertTrue(out.startswith("spirv-conv %s " % ARGS.version), out)
        self.assertEqual(self.tool_fields["Version"].split("-")[0], ARGS.version)

    def test_lint_from_the_unpacked_package(self):
        proc = run(self.spirv_conv, "lint", "--format", "json", LINT_INPUT, check=False)
        self.assertEqual(proc.returncode, 1, proc.stderr)  # docs/cli.md: an error-level finding
        findings = json.loads(proc.stdout)["files"][0]["findings"]
        self.assertIn(("derivative-divergent-cf", "error"),
                      [(f["rule"], f["severity"]) for f in findings])

    def test_depends_are_the_linked_libraries(self):
        dynamic = run("readelf", "-d", self.spirv_conv).stdout
        needed = re.findall(r"\(NEEDED\)\s+Shared library: \[(.+)\]", dynamic)
        self.assertTrue(needed)
        paths = {}
        for line in run("ldd", self.spirv_conv).stdout.splitlines():
            match = re.match(r"\s*(\S+)\s+=>\s+(/\S+)", line) or re.match(r"\s*((/\S+))\s+\(", line)
            if match:
                paths[os.path.basename(match.group(1))] = match.group(2)
        linked = set()
        for soname in needed:
            self.assertIn(soname, paths, "ldd does not resolve NEEDED %s" % soname)
            linked.add(owning_package(paths[soname]))
        depends = relations(self.tool_fields["Depends"])
        self.assertEqual({name for name, _, _ in depends}, linked,
                         "Depends: %s; NEEDED: %s" % (self.tool_fields["Depends"], needed))
        self.assert_satisfied_here(depends)

    def test_dev_depends(self):
        depends = relations(self.dev_fields["Depends"])
        self.assertIn(("spirv-conv", "=", self.tool_fields["Version"]), depends)
        self.assertIn("glslang-dev", [name for name, _, _ in depends])
        self.assert_satisfied_here([r for r in depends if r[0] != "spirv-conv"])

    def assert_satisfied_here(self, depends):
        """Each relation holds for the version installed on this (bookworm) machine."""
        for name, operator, version in depends:
            installed = run("dpkg-query", "-W", "-f", "${Version}", name).stdout
            if operator:
                self.assertEqual(run("dpkg", "--compare-versions", installed, operator, version,
                                     check=False).returncode, 0,
                                 "%s %s does not satisfy %s %s" % (name, installed, operator,
                                                                   version))

    def test_man_page(self):
        page = os.path.join(self.tool_root, "usr", "share", "man", "man1", "spirv-conv.1.gz")
        with gzip.open(page, "rt", encoding="utf-8") as f:
            self.assertRegex(f.read(), r'(?m)^\.TH SPIRV-CONV "1" .*"spirv-conv %s"' %
                             re.escape(ARGS.version))
        env = dict(os.environ, MANWIDTH="200", MANPAGER="cat", PAGER="cat", LC_ALL="C.UTF-8")
        rendered = re.sub(r"\s+", " ", run("man", "-l", page, env=env).stdout)
        help_text = run(self.spirv_conv, "--help").stdout
        self.assertIn(help_text.splitlines()[0], rendered)
        commands = re.search(r"(?ms)^Subcommands:\n(.*)", help_text).group(1)
        for name in re.findall(r"(?m)^  (\S+)", commands):
            self.assertIn("spirv-conv %s [OPTIONS]" % name, rendered)

    def test_packages_hold_the_install_once(self):
        installed = fresh_dir("installed")
        install(installed)
        tool, dev = files_under(self.tool_root), files_under(self.dev_root)
        self.assertEqual(tool & dev, set())
        in_usr = {os.path.relpath(path, "usr") for path in tool | dev}
        self.assertEqual(in_usr, files_under(installed))
        self.assertIn(os.path.join("usr", ARGS.libdir, "libspirv_conv.a"), dev)
        self.assertIn(os.path.join("usr", "bin", "spirv-conv"), tool)


EXAMPLE = os.path.join(REPO, "examples", "shader-pipeline")
EXAMPLE_OUTPUTS = ("shaders/tonemap.frag.spv", "shaders/bloom_downsample.cs.hlsl.spv",
                   "shaders/gbuffer_material.ps.hlsl.spv")
# A fragment shader whose ddx runs where a per-pixel test sent only some
# pixels of a quad (derivative-divergent-cf, an error by default).
BROKEN_SHADER = """#version 450
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void main() {
    color = vec4(0.0);
    if (uv.x > 0.5) {
        color.r = dFdx(uv.y);
    }
}
"""
BROKEN_PROJECT = """cmake_minimum_required(VERSION 3.20)
project(broken LANGUAGES CXX)
find_package(spirv_conv CONFIG REQUIRED)
spirv_conv_check_shaders(TARGET shaders SOURCES broken.frag ${HOOK_OPTIONS})
"""


class CMakeHookTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        root = fresh_dir()
        cls.prefix = os.path.join(root, "prefix")
        install(cls.prefix)
        cls.source = os.path.join(root, "example")
        shutil.copytree(EXAMPLE, cls.source)
        cls.build = os.path.join(root, "example-build")
        cls.configure(cls.source, cls.build)
        cls.first_build = cls.ninja(cls.build)

    @classmethod
    def configure(cls, source, build, *options):
        run(ARGS.cmake, "-S", source, "-B", build, "-G", "Ninja",
            "-DCMAKE_MAKE_PROGRAM=" + ARGS.ninja, "-DCMAKE_CXX_COMPILER=" + ARGS.cxx,
            "-DCMAKE_PREFIX_PATH=" + cls.prefix, *options)

    @classmethod
    def ninja(cls, build, check=True):
        return run(ARGS.ninja, "-C", build, check=check)

    def spirv_conv(self):
        return os.path.join(self.prefix, "bin", "spirv-conv")

    def test_outputs_are_valid_spirv(self):
        for output in EXAMPLE_OUTPUTS:
            path = os.path.join(self.build, "renderer_shaders", output)
            self.assertTrue(os.path.exists(path), output)
            run(self.spirv_conv(), "validate", path)

    def test_sarif_report(self):
        with open(os.path.join(self.build, "shaders.sarif")) as f:
            report = json.load(f)
        self.assertEqual(report["version"], "2.1.0")
        self.assertEqual(report["runs"][0]["tool"]["driver"]["name"], "spirv-conv")
        self.assertEqual(report["runs"][0]["results"], [])

    def test_rebuilds_only_what_changed(self):
        self.assertIn("ninja: no work to do", self.ninja(self.build).stdout)
        header = os.path.join(self.source, "shaders", "include", "color.hlsli")
        os.utime(header, None)
        rebuilt = self.ninja(self.build).stdout
        self.assertIn("checking shaders/bloom_downsample.cs.hlsl", rebuilt)
        self.assertNotIn("checking shaders/tonemap.frag", rebuilt)
        self.assertNotIn("checking shaders/gbuffer_material.ps.hlsl", rebuilt)

    def broken_build(self, name, options):
        source = fresh_dir(name)
        with open(os.path.join(source, "CMakeLists.txt"), "w") as f:
            f.write(BROKEN_PROJECT)
        with open(os.path.join(source, "broken.frag"), "w") as f:
            f.write(BROKEN_SHADER)
        build = os.path.join(source, "build")
        self.configure(source, build, "-DHOOK_OPTIONS=" + ";".join(options))
        return build, os.path.join(build, "shaders", "broken.frag.spv")

    def test_lint_error_fails_the_build(self):
        build, output = self.broken_build("broken-default", [])
        for attempt in range(2):  # no stale .spv makes the second build pass
            failed = self.ninja(build, check=False)
            self.assertNotEqual(failed.returncode, 0)
            self.assertRegex(failed.stdout, r"(?m)^\S*broken\.frag:7: error: explicit derivative "
                                            r"OpDPdx .*\[derivative-divergent-cf\]$")
            self.assertFalse(os.path.exists(output))

    def test_rules_and_werror(self):
        build, output = self.broken_build("broken-warning", ["RULES",
                                                             "derivative-divergent-cf=warning"])
        passed = self.ninja(build)
        self.assertRegex(passed.stdout, r"broken\.frag:7: warning: ")
        self.assertTrue(os.path.exists(output))
        build, output = self.broken_build("broken-werror", ["RULES",
                                                            "derivative-divergent-cf=warning",
                                                            "WERROR"])
        self.assertNotEqual(self.ninja(build, check=False).returncode, 0)
        self.assertFalse(os.path.exists(output))


def main():
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("suite", choices=["install", "deb", "cmake-hook"])
    for option in ("--build-dir", "--work-dir", "--version", "--libdir", "--cmake", "--cpack",
                   "--ninja", "--cxx"):
        parser.add_argument(option, required=True)
    global ARGS
    ARGS, rest = parser.parse_known_args()
    ARGS.work_dir = os.path.abspath(ARGS.work_dir)
    suite = {"install": InstallTest, "deb": DebTest, "cmake-hook": CMakeHookTest}[ARGS.suite]
    unittest.main(argv=[sys.argv[0]] + rest, defaultTest=suite.__name__)


if __name__ == "__main__":
    main()
