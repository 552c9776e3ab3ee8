#!/usr/bin/env python3
# Copyright (c) 2026 The spirv-conv authors
# SPDX-License-Identifier: Apache-2.0
"""Godot 4's RenderingDevice shaders as GLSL stage files, for
lint_findings.py --corpus godot (docs/lint-corpus.md "Godot 4").

A Godot RD shader (`servers/rendering/renderer_rd/shaders/**.glsl`,
`modules/*/*.glsl`) is a template: `#[compute]`, `#[vertex]` and `#[fragment]`
sections, `#include`s that Godot's build inlines (glsl_builders.py,
include_file_in_rd_header: `//` comments cut, each file once per stage,
`thirdparty/...` from the source root, other names from the including file's
folder), and placeholders that ShaderRD::_build_variant_code fills at run time:
`#VERSION_DEFINES` with the shader's general and variant defines,
`#CODE : X`, `#GLOBALS` and `#MATERIAL_UNIFORMS` with a material's code (here
empty: the default material).

This module does what that build does and writes one GLSL file per (shader,
stage, variant), with `#line N "path"` directives (GL_GOOGLE_cpp_style_line_
directive) so that glslang's -g line information names the original file and
line. Variants: Godot's variant lists live in the C++ that owns each shader;
here a stage is compiled once without variant defines and once per macro its
text tests (`#ifdef`, `#ifndef`, `defined(...)`), does not define itself, and
Godot's C++ defines in a string somewhere (`"...#define NAME`: a variant or
general define of some shader) or the template's own `#[versions]` section
does, that macro alone defined to 1 -- each
feature's code compiled at least once, combinations not; macros only a
library's own configuration tests (FFX_CPU, FFX_HLSL, ...) are left alone. Every variant also gets the run-time defines Godot always
adds (RENDER_DRIVER_VULKAN, samplerExternalOES, and for compute the
NATIVE_LOCAL_* sizes of a non-NVIDIA device).
"""

import os
import re
from typing import Dict, List, NamedTuple

STAGES = {"vertex": "vert", "fragment": "frag", "compute": "comp"}
MARKER = re.compile(r"#\[(vertex|fragment|compute)\]")
TESTED = re.compile(r"#\s*if(?:n?def)?\b(.*)")
DEFINED = re.compile(r"#\s*define\s+([A-Za-z_]\w*)")
NAME = re.compile(r"\b(?:defined\s*\(?\s*)?([A-Za-z_]\w*)")
ALWAYS = ("#define RENDER_DRIVER_VULKAN\n#define samplerExternalOES sampler2D\n"
          "#define textureExternalOES texture2D\n")
COMPUTE = ("#define NATIVE_LOCAL_GROUP_SIZE 64\n#define NATIVE_LOCAL_SIZE_2D_X 8\n"
           "#define NATIVE_LOCAL_SIZE_2D_Y 8\n")
# The general defines Godot's C++ passes to ShaderRD::initialize for the
# shaders that need them, with the values of a default project (the C++ file
# that sets each; roughness_layers 8, MAX_DIRECTIONAL_LIGHTS 8). OCTMAP_FORMAT
# is one of copy_effects.cpp's per-mode defines (rgba16f or rgb10_a2), taken
# here for every variant.
_RD = "servers/rendering/renderer_rd/shaders/"
_SCENE = ("#define MAX_ROUGHNESS_LOD 7.0\n#define MAX_DIRECTIONAL_LIGHT_DATA_STRUCTS 8\n"
          "#define MAX_LIGHTMAP_TEXTURES 8\n#define MAX_LIGHTMAPS 8\n#define MATERIAL_UNIFORM_SET 3\n")
_OCTMAP = "#define OCTMAP_FORMAT rgba16f\n"
_FSR2 = ("#define FFX_GPU\n#define FFX_GLSL 1\n#define FFX_FSR2_OPTION_LOW_RESOLUTION_MOTION_VECTORS 1\n"
         "#define FFX_FSR2_OPTION_HDR_COLOR_INPUT 1\n#define FFX_FSR2_OPTION_INVERTED_DEPTH 1\n"
         "#define FFX_FSR2_OPTION_GODOT_REACTIVE_MASK_CLAMP 1\n"
         "#define FFX_FSR2_OPTION_GODOT_DERIVE_INVALID_MOTION_VECTORS 1\n")
GENERAL_DEFINES = {
    # forward_clustered/render_forward_clustered.cpp, RenderForwardClustered()
    _RD + "forward_clustered/scene_forward_clustered.glsl": _SCENE + "#define SDFGI_OCT_SIZE 6\n",
    # forward_mobile/render_forward_mobile.cpp, RenderForwardMobile()
    _RD + "forward_mobile/scene_forward_mobile.glsl": _SCENE,
    # renderer_canvas_render_rd.cpp (MAX_LIGHTS_PER_RENDER, SAMPLERS_BINDING_FIRST_INDEX)
    _RD + "canvas.glsl": "#define MAX_LIGHTS 256\n#define SAMPLERS_BINDING_FIRST_INDEX 10\n",
    # environment/sky.cpp
    _RD + "environment/sky.glsl": ("#define MAX_DIRECTIONAL_LIGHT_DATA_STRUCTS 4\n"
                                   "#define SAMPLERS_BINDING_FIRST_INDEX 4\n"),
    # storage_rd/particles_storage.cpp
    _RD + "particles.glsl": "#define SAMPLERS_BINDING_FIRST_INDEX 3\n",
    # environment/fog.cpp
    _RD + "environment/volumetric_fog.glsl": "#define SAMPLERS_BINDING_FIRST_INDEX 3\n",
    _RD + "environment/volumetric_fog_process.glsl": ("#define MAX_DIRECTIONAL_LIGHT_DATA_STRUCTS 8\n"
                                                      "#define MAX_SKY_LOD 7.0\n"),
    # environment/gi.cpp
    _RD + "environment/gi.glsl": "#define SDFGI_OCT_SIZE 6\n",
    _RD + "environment/voxel_gi.glsl": "#define MAX_LIGHTS 32\n",
    _RD + "environment/sdfgi_preprocess.glsl": "#define OCCLUSION_SIZE 8\n",  # CASCADE_SIZE / PROBE_DIVISOR
    _RD + "environment/sdfgi_direct_light.glsl": "#define OCT_SIZE 6\n",
    _RD + "environment/sdfgi_integrate.glsl": "#define OCT_SIZE 6\n#define SH_SIZE 16\n",
    _RD + "environment/sdfgi_debug.glsl": "#define OCT_SIZE 6\n",
    _RD + "environment/sdfgi_debug_probes.glsl": "#define OCT_SIZE 6\n",
    # effects/copy_effects.cpp
    _RD + "effects/octmap_downsampler.glsl": _OCTMAP,
    _RD + "effects/octmap_filter.glsl": _OCTMAP,
    _RD + "effects/octmap_roughness.glsl": _OCTMAP,
    # modules/lightmapper_rd/lightmapper_rd.cpp (cluster_size = 16)
    "modules/lightmapper_rd/lm_compute.glsl": "#define CLUSTER_SIZE 16\n",
}
for _pass in ("accumulate", "autogen_reactive", "compute_luminance_pyramid", "depth_clip", "lock",
              "rcas", "reconstruct_previous_depth", "tcr_autogen"):
    # effects/fsr2.cpp, FSR2Effect()
    GENERAL_DEFINES[_RD + "effects/fsr2/fsr2_%s_pass.glsl" % _pass] = _FSR2
# The folders with RD shaders; drivers/gles3 holds OpenGL ES shaders of another
# template format, tests/ the build script's fixtures.
FOLDERS = ("servers/rendering/renderer_rd", "modules")


class Line(NamedTuple):
    text: str
    path: str   # relative to the source root
    number: int  # 1-based


class Variant(NamedTuple):
    shader: str   # the .glsl template, relative to the source root
    stage: str    # vertex, fragment or compute
    macro: str    # the variant's one define, "" for none
    text: str     # the GLSL stage file


def find_shaders(root):
    """The RD shader templates under |root| (relative paths, sorted)."""
    found = []
    for folder in FOLDERS:
        for base, dirs, files in os.walk(os.path.join(root, folder)):
            dirs.sort()
            for name in sorted(files):
                if not name.endswith(".glsl"):
                    continue
                path = os.path.join(base, name)
                with open(path, encoding="utf-8", errors="replace") as f:
                    if any(MARKER.search(line.split("//")[0]) for line in f):
                        found.append(os.path.relpath(path, root))
    return found


def sections(root, shader):
    """{stage: [Line]} as glsl_builders.include_file_in_rd_header builds them."""
    stages: Dict[str, List[Line]] = {}
    included: Dict[str, List[str]] = {}
    state = {"reading": ""}

    def include(rel):
        with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
            lines = f.read().split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        i = 0
        while i < len(lines):
            line = lines[i].split("//")[0]
            marker = MARKER.search(line)
            if marker:
                state["reading"] = marker.group(1)
                stages.setdefault(state["reading"], [])
                included.setdefault(state["reading"], [])
                i += 1
                continue
            while "#include " in line:
                name = line.replace("#include ", "").strip()[1:-1]
                target = os.path.normpath(name if name.startswith("thirdparty/") else
                                          os.path.join(os.path.dirname(rel), name))
                reading = state["reading"]
                if reading and target not in included[reading]:
                    included[reading].append(target)
                    include(target)
                i += 1
                line = lines[i].split("//")[0] if i < len(lines) else ""
                if i >= len(lines):
                    break
            if i >= len(lines):
                break
            if state["reading"]:
                stages[state["reading"]].append(Line(line.rstrip("\r"), rel, i + 1))
            i += 1

    include(shader)
    return stages


CXX_DEFINE = re.compile(r'"[^"\n]*#define\s+([A-Za-z_]\w*)')


def cxx_macros(root):
    """Macros Godot's C++ puts in a `#define` inside a string literal."""
    found = set()
    for folder in ("servers/rendering", "modules"):
        for base, _, files in os.walk(os.path.join(root, folder)):
            for name in files:
                if name.endswith((".cpp", ".h")):
                    with open(os.path.join(base, name), encoding="utf-8", errors="replace") as f:
                        found.update(CXX_DEFINE.findall(f.read()))
    return found


def versions_macros(root, shader):
    """Macros the `#[versions]` section of an RDShaderFile template defines
    (`name = "#define X";`, modules/betsy, modules/lightmapper_rd)."""
    found, reading = set(), False
    with open(os.path.join(root, shader), encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith("#["):
                reading = line.startswith("#[versions]")
            elif reading:
                found.update(CXX_DEFINE.findall(line))
    return found


def tested_macros(lines):
    """Macros the stage tests and does not define, in order of first test."""
    defined = {m.group(1) for line in lines for m in [DEFINED.match(line.text.strip())] if m}
    tested = []
    for line in lines:
        m = TESTED.match(line.text.strip())
        if not m:
            continue
        for name in NAME.findall(m.group(1)):
            if (name not in defined and name not in tested and name != "defined"
                    and not name.startswith("GL_") and not name[0].isdigit()):
                tested.append(name)
    return tested


def stage_text(lines, stage, macro, general=""):
    """The stage as a GLSL file: #line directives naming the source, the
    placeholders filled as for the default material and |macro|."""
    out, where = [], None
    version_seen = False
    for line in lines:
        text = line.text
        stripped = text.strip()
        if stripped.startswith("#VERSION_DEFINES"):
            out.append(general + ALWAYS + (COMPUTE if stage == "compute" else "")
                       + ("#define %s 1\n" % macro if macro else "")
                       + '#line %d "%s"' % (line.number + 1, line.path))
            where = (line.path, line.number + 1)
            continue
        if stripped.startswith(("#CODE", "#GLOBALS", "#MATERIAL_UNIFORMS")):
            text = ""
        if version_seen and where != (line.path, line.number):
            out.append('#line %d "%s"' % (line.number, line.path))
        out.append(text)
        where = (line.path, line.number + 1)
        if stripped.startswith(("#endif", "#else", "#elif")):
            # The preprocessor skips the #line directives of an inactive
            # region (an #include under a false #ifdef): say it again here.
            where = None
        if not version_seen and stripped.startswith("#version"):
            version_seen = True
            out.append("#extension GL_GOOGLE_cpp_style_line_directive : require")
            where = None
    return "\n".join(out) + "\n"


def variants(root, shader, known=None):
    """Every Variant of |shader|: each stage without variant defines, then with
    each macro it tests that is in |known| (cxx_macros(root) when None)."""
    known = (cxx_macros(root) if known is None else known) | versions_macros(root, shader)
    result = []
    general = GENERAL_DEFINES.get(shader, "")
    given = set(DEFINED.findall(general))
    for stage, lines in sections(root, shader).items():
        for macro in [""] + [m for m in tested_macros(lines) if m not in given and m in known]:
            result.append(Variant(shader, stage, macro, stage_text(lines, stage, macro, general)))
    return result


def file_name(variant):
    """A file name for the variant, with the stage's extension."""
    stem = variant.shader.replace("/", "__")[:-len(".glsl")]
    return "%s.%s%s.%s" % (stem, variant.stage, "." + variant.macro if variant.macro else "",
                           STAGES[variant.stage])


def package_version(root):
    """The Debian version scripts/fetch-lint-corpora.sh recorded, or "?"."""
    try:
        with open(os.path.join(root, ".spirv-conv-version")) as f:
            return f.read().strip()
    except OSError:
        return "?"
