"""A small Language Server Protocol client for the tests (standard library only).

Starts `spirv-conv lsp`, frames JSON-RPC messages with Content-Length headers,
and collects what the server sends on a reader thread: responses by id, and
notifications in arrival order.
"""

import json
import os
import queue
import subprocess
import threading
import time
import urllib.parse


def uri_of(path):
    return "file://" + urllib.parse.quote(os.path.abspath(path))


def path_of(uri):
    assert uri.startswith("file://"), uri
    return urllib.parse.unquote(uri[len("file://"):])


def frame(message):
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


class LspClient:
    def __init__(self, spirv_conv, args=(), timeout=60.0):
        self.timeout = timeout
        self.process = subprocess.Popen([spirv_conv, "lsp", *args], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.next_id = 0
        self.responses = {}
        self.notifications = queue.Queue()
        self.condition = threading.Condition()
        self.closed = False
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        self.stderr = b""
        self.stderr_reader = threading.Thread(target=self._read_stderr, daemon=True)
        self.stderr_reader.start()

    def _read_stderr(self):
        self.stderr = self.process.stderr.read()

    def _read(self):
        out = self.process.stdout
        while True:
            headers = {}
            while True:
                line = out.readline()
                if not line:
                    with self.condition:
                        self.closed = True
                        self.condition.notify_all()
                    self.notifications.put(None)
                    return
                line = line.decode().rstrip("\r\n")
                if not line:
                    break
                key, _, value = line.partition(":")
                headers[key.strip().lower()] = value.strip()
            body = out.read(int(headers["content-length"]))
            message = json.loads(body)
            if "id" in message and "method" not in message:
                with self.condition:
                    self.responses[message["id"]] = message
                    self.condition.notify_all()
            else:
                self.notifications.put(message)

    def send_bytes(self, data):
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def send(self, message):
        self.send_bytes(frame(message))

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request_async(self, method, params):
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        return self.next_id

    def response(self, request_id):
        deadline = time.monotonic() + self.timeout
        with self.condition:
            while request_id not in self.responses:
                left = deadline - time.monotonic()
                if left <= 0 or self.closed:
                    raise AssertionError("no response to request %r" % request_id)
                self.condition.wait(left)
            return self.responses.pop(request_id)

    def request(self, method, params):
        return self.response(self.request_async(method, params))

    def notification(self, method, predicate=lambda params: True):
        """The next notification |method| whose params satisfy |predicate|; others are dropped."""
        deadline = time.monotonic() + self.timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError("no %s notification" % method)
            try:
                message = self.notifications.get(timeout=left)
            except queue.Empty:
                raise AssertionError("no %s notification" % method)
            if message is None:
                raise AssertionError("the server closed its output waiting for %s" % method)
            if message.get("method") == method and predicate(message.get("params")):
                return message["params"]

    def diagnostics(self, path, version=None):
        """The next publishDiagnostics for |path| (for |version| when given)."""
        uri = uri_of(path)

        def matches(params):
            return params["uri"] == uri and (version is None or params.get("version") == version)

        return self.notification("textDocument/publishDiagnostics", matches)["diagnostics"]

    def initialize(self, root, options=None):
        params = {"processId": os.getpid(), "rootUri": uri_of(root), "capabilities": {}}
        if options is not None:
            params["initializationOptions"] = options
        result = self.request("initialize", params)
        self.notify("initialized", {})
        return result

    def open(self, path, text=None, version=1, language="glsl"):
        if text is None:
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
        self.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri_of(path), "languageId": language, "version": version, "text": text}})

    def change(self, path, text, version):
        self.notify("textDocument/didChange", {
            "textDocument": {"uri": uri_of(path), "version": version},
            "contentChanges": [{"text": text}]})

    def close(self, path):
        self.notify("textDocument/didClose", {"textDocument": {"uri": uri_of(path)}})

    def shutdown(self):
        response = self.request("shutdown", None)
        self.notify("exit", None)
        code = self.process.wait(timeout=self.timeout)
        return response, code

    def kill(self):
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


def apply_edits(text, edits):
    """|text| with LSP TextEdits applied (UTF-16 columns; the tests' texts are ASCII)."""
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)

    def offset(position):
        return offsets[position["line"]] + position["character"]

    for edit in sorted(edits, key=lambda e: offset(e["range"]["start"]), reverse=True):
        start, end = offset(edit["range"]["start"]), offset(edit["range"]["end"])
        text = text[:start] + edit["newText"] + text[end:]
    return text


def expected_sites(lint_file):
    """The lint's JSON findings of one file as (path, line, rule, severity, message, notes):
    one per site, as the server publishes them."""
    sites = []
    for finding in lint_file["findings"]:
        for site in [finding] + finding["more_sites"]:
            line = site["location"]["line"] or 1
            # A note without a source line is published at the finding's.
            notes = [(n["location"]["line"] or line, n["message"]) for n in finding["notes"]]
            sites.append((os.path.abspath(site["location"]["file"]), line, finding["rule"],
                          finding["severity"], site["message"], notes))
    return sites


SEVERITIES = {1: "error", 2: "warning", 3: "note"}


def published_sites(path, diagnostics):
    """The lint's diagnostics of |path| in the tuple form of expected_sites."""
    sites = []
    for d in diagnostics:
        if d.get("source") != "spirv-conv" or "code" not in d:
            continue
        line = d["range"]["start"]["line"] + 1
        notes = []
        for info in d.get("relatedInformation", []):
            notes.append((info["location"]["range"]["start"]["line"] + 1, info["message"]))
        sites.append((os.path.abspath(path), line, d["code"], SEVERITIES[d["severity"]],
                      d["message"], notes))
    return sites
