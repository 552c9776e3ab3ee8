#!/usr/bin/env python3
"""A whole `spirv-conv lsp` session, scripted (docs/editor.md).

initialize with settings -> open a shader that #includes a header -> a
derivative finding with its explanation as related information -> a compile
error while typing -> an unsaved header buffer changes the result -> hover ->
the gradient hoist, NonUniform and allow-comment code actions, each applied
and re-linted clean (and the applied text compiles: `spirv-conv lint` exits 0
on it) -> malformed messages, an unknown method, a cancelled request, an HLSL
shader that crashes glslang -> shutdown and exit with status 0.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lsp_client import LspClient, apply_edits, uri_of  # noqa: E402

HEADER_ON_DISK = """\
// The condition the shader branches on.
#define SHADE_IF (inUV.x > 0.5)
"""

HEADER_UNIFORM = """\
// The condition the shader branches on.
#define SHADE_IF (params.mode > 0)
"""

SHADER = """\
#version 450
#extension GL_GOOGLE_include_directive : require
#include "condition.glsl"

layout(set = 0, binding = 0) uniform sampler2D albedo;
layout(set = 0, binding = 1) uniform Params { int mode; } params;
layout(location = 0) in vec2 inUV;
layout(location = 0) out vec4 outColor;

void main() {
    vec2 uv = inUV * 2.0;
    outColor = vec4(0.0);
    if (SHADE_IF) {
        outColor = texture(albedo, uv);
    }
}
"""

BINDLESS = """\
#version 450
layout(set = 0, binding = 0) uniform texture2D textures[16];
layout(set = 0, binding = 1) uniform sampler samp;
layout(location = 0) flat in uint inMaterial;
layout(location = 1) in vec2 inUV;
layout(location = 0) out vec4 outColor;

void main() {
    outColor = texelFetch(sampler2D(textures[inMaterial], samp), ivec2(inUV), 0);
}
"""

BINDLESS_IMAGES = """\
#version 450
layout(set = 0, binding = 0, rgba8) uniform readonly image2D images[16];
layout(location = 0) flat in uint inMaterial;
layout(location = 0) out vec4 outColor;

void main() {
    outColor = imageLoad(images[inMaterial], ivec2(0, 0));
}
"""

CRASHING_HLSL = """\
struct PSInput {
    float4 position : SV_Position;
};
float4 main(PSInput:input) : SV_Target {
    return input.position;
}
"""


class Session:
    def __init__(self, spirv_conv, workspace):
        self.spirv_conv = spirv_conv
        self.client = LspClient(spirv_conv)
        self.workspace = workspace
        self.versions = {}
        self.texts = {}

    def open(self, path, text):
        with open(path, "w") as f:
            f.write(text)
        self.versions[path] = 1
        self.texts[path] = text
        self.client.open(path, text)
        return self.client.diagnostics(path, 1)

    def change(self, path, text):
        self.versions[path] += 1
        self.texts[path] = text
        self.client.change(path, text, self.versions[path])
        return self.client.diagnostics(path, self.versions[path])

    def actions(self, path, line):
        return self.client.request("textDocument/codeAction", {
            "textDocument": {"uri": uri_of(path)},
            "range": {"start": {"line": line, "character": 0},
                      "end": {"line": line, "character": 0}},
            "context": {"diagnostics": []}})["result"]

    def apply(self, path, action):
        """Applies |action|'s edit of |path| as an editor would, and returns the diagnostics of
        the new text."""
        changes = action["edit"]["changes"]
        assert list(changes) == [uri_of(path)], changes
        return self.change(path, apply_edits(self.texts[path], changes[uri_of(path)]))

    def lints_clean(self, path, text):
        """The text, saved beside |path|, compiles and lints without findings."""
        saved = os.path.join(os.path.dirname(path), "applied_" + os.path.basename(path))
        with open(saved, "w") as f:
            f.write(text)
        run = subprocess.run([self.spirv_conv, "lint", "-g", "--format", "json", "-I",
                              os.path.join(self.workspace, "inc"), saved],
                             capture_output=True, text=True)
        expect(run.returncode == 0 and json.loads(run.stdout)["files"][0]["findings"] == [],
               "%s: %s%s" % (saved, run.stdout, run.stderr))


def expect(condition, what):
    if not condition:
        raise AssertionError(what)


def run(spirv_conv):
    workspace = tempfile.mkdtemp(prefix="spirv_conv_lsp_")
    os.makedirs(os.path.join(workspace, "inc"))
    header = os.path.join(workspace, "inc", "condition.glsl")
    with open(header, "w") as f:
        f.write(HEADER_ON_DISK)
    shader = os.path.join(workspace, "shade.frag")
    session = Session(spirv_conv, workspace)
    client = session.client
    try:
        init = client.initialize(workspace, {"spirv-conv": {"includePaths": ["inc"],
                                                            "debounceMs": 50}})
        caps = init["result"]["capabilities"]
        expect(caps["textDocumentSync"]["openClose"] and caps["hoverProvider"]
               and caps["codeActionProvider"], "capabilities: %r" % caps)

        # The finding, at the sample, explained back to the input.
        diagnostics = session.open(shader, SHADER)
        expect([d["code"] for d in diagnostics] == ["derivative-divergent-cf"], diagnostics)
        finding = diagnostics[0]
        expect(finding["range"]["start"]["line"] == 13, finding)
        expect(finding["severity"] == 2, finding)
        href = finding["codeDescription"]["href"]
        expect(href.startswith("file://") and os.path.isfile(href[len("file://"):]), href)
        related = [(r["location"]["uri"], r["location"]["range"]["start"]["line"], r["message"])
                   for r in finding["relatedInformation"]]
        expect(any(line == 12 and "control flow depends on" in message
                   for _, line, message in related), related)
        expect(any("inUV" in message and "shader input" in message
                   for _, _, message in related), related)

        # Hover: the condition and a variable.
        hover = client.request("textDocument/hover", {
            "textDocument": {"uri": uri_of(shader)}, "position": {"line": 12, "character": 5}})
        text = hover["result"]["contents"]["value"]
        expect("The condition" in text and "divergent" in text and "inUV" in text, text)
        hover = client.request("textDocument/hover", {
            "textDocument": {"uri": uri_of(shader)}, "position": {"line": 10, "character": 10}})
        expect("`uv`" in hover["result"]["contents"]["value"], hover)

        # A compile error while typing: glslang's message at its line, then fixed again.
        broken = SHADER.replace("vec2 uv = inUV * 2.0;", "vec2 uv = inUV * ;")
        diagnostics = session.change(shader, broken)
        expect(len(diagnostics) >= 1 and diagnostics[0]["source"] == "glslang"
               and diagnostics[0]["range"]["start"]["line"] == 10
               and diagnostics[0]["severity"] == 1, diagnostics)
        diagnostics = session.change(shader, SHADER)
        expect([d["code"] for d in diagnostics] == ["derivative-divergent-cf"], diagnostics)

        # The header's unsaved buffer is what the shader includes: a uniform condition.
        client.open(header, HEADER_UNIFORM)
        diagnostics = client.diagnostics(shader)
        expect(diagnostics == [], diagnostics)
        client.close(header)
        diagnostics = client.diagnostics(shader)
        expect([d["code"] for d in diagnostics] == ["derivative-divergent-cf"], diagnostics)

        # The gradient hoist.
        actions = session.actions(shader, 13)
        titles = [a["title"] for a in actions]
        hoist = [a for a in actions if "textureGrad" in a["title"]]
        expect(len(hoist) == 1 and hoist[0]["isPreferred"], titles)
        diagnostics = session.apply(shader, hoist[0])
        expect(diagnostics == [], diagnostics)
        expect("vec2 uv_dx = dFdx(uv);" in session.texts[shader]
               and "textureGrad(albedo, uv, uv_dx, uv_dy)" in session.texts[shader],
               session.texts[shader])
        session.lints_clean(shader, session.texts[shader])

        # The allow comment.
        diagnostics = session.change(shader, SHADER)
        allow = [a for a in session.actions(shader, 13) if "allow" in a["title"]]
        expect(len(allow) == 1, allow)
        expect(session.apply(shader, allow[0]) == [], session.texts[shader])
        session.lints_clean(shader, session.texts[shader])

        # NonUniform qualification, with the extension it needs.
        for name, source in (("bindless.frag", BINDLESS), ("images.frag", BINDLESS_IMAGES)):
            path = os.path.join(workspace, name)
            diagnostics = session.open(path, source)
            expect([d["code"] for d in diagnostics] == ["nonuniform-missing-decoration"],
                   diagnostics)
            line = diagnostics[0]["range"]["start"]["line"]
            fix = [a for a in session.actions(path, line) if "nonuniformEXT" in a["title"]]
            expect(len(fix) == 1, session.actions(path, line))
            diagnostics = session.apply(path, fix[0])
            expect(diagnostics == [], (diagnostics, session.texts[path]))
            expect("#extension GL_EXT_nonuniform_qualifier : require" in session.texts[path],
                   session.texts[path])
            session.lints_clean(path, session.texts[path])
            client.close(path)

        # Robustness: malformed messages get errors and the server goes on.
        client.send_bytes(b"Content-Length: 9\r\n\r\n{not json")
        error = client.response(None)
        expect(error["error"]["code"] == -32700, error)
        client.send_bytes(b"Content-Type: x\r\n\r\n")
        error = client.response(None)
        expect(error["error"]["code"] == -32700, error)
        client.send({"jsonrpc": "2.0", "id": 77, "method": 5})
        error = client.response(77)
        expect(error["error"]["code"] == -32600, error)
        error = client.request("textDocument/definitelyNot", {})
        expect(error["error"]["code"] == -32601, error)
        error = client.request("textDocument/hover", {"textDocument": {}})
        expect(error["error"]["code"] == -32602, error)

        # Cancellation: a request that waits for a lint is answered as cancelled.
        client.notify("workspace/didChangeConfiguration",
                      {"settings": {"spirv-conv": {"debounceMs": 2000}}})
        client.diagnostics(shader)
        session.versions[shader] += 1
        client.change(shader, SHADER + "\n", session.versions[shader])
        waiting = client.request_async("textDocument/codeAction", {
            "textDocument": {"uri": uri_of(shader)},
            "range": {"start": {"line": 13, "character": 0}, "end": {"line": 13, "character": 0}},
            "context": {"diagnostics": []}})
        client.notify("$/cancelRequest", {"id": waiting})
        error = client.response(waiting)
        expect(error["error"]["code"] == -32800, error)
        client.diagnostics(shader, session.versions[shader])

        # Bad settings are reported, not fatal.
        client.notify("workspace/didChangeConfiguration",
                      {"settings": {"spirv-conv": {"rules": {"no-such-rule": "off"},
                                                   "debounceMs": 50}}})
        message = client.notification("window/showMessage")
        expect("no-such-rule" in message["message"], message)
        # Rule levels apply.
        client.notify("workspace/didChangeConfiguration",
                      {"settings": {"spirv-conv": {"rules": {"derivative-divergent-cf": "error"}}}})
        diagnostics = client.diagnostics(shader)
        expect([d["severity"] for d in diagnostics] == [1], diagnostics)

        # A front end crash is a diagnostic; the server goes on.
        crash = os.path.join(workspace, "crash.ps.hlsl")
        diagnostics = session.open(crash, CRASHING_HLSL)
        expect(len(diagnostics) == 1 and "glslang crashed" in diagnostics[0]["message"],
               diagnostics)
        hover = client.request("textDocument/hover", {
            "textDocument": {"uri": uri_of(shader)}, "position": {"line": 12, "character": 5}})
        expect(hover["result"] is not None, hover)

        response, code = client.shutdown()
        expect(response["result"] is None and code == 0, (response, code))
    finally:
        client.kill()
    print("lsp exchange: every step as expected")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--spirv-conv", required=True)
    args = parser.parse_args()
    run(args.spirv_conv)


if __name__ == "__main__":
    main()
