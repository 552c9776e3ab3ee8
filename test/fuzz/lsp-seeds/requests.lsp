Content-Length: 303

{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"rootUri": "file:///tmp/spirv-conv-fuzz", "capabilities": {}, "initializationOptions": {"spirv-conv": {"debounceMs": 0, "rules": {"derivative-divergent-cf": "error"}, "includePaths": ["inc"], "defines": ["A=1"], "targetEnv": "vulkan1.3"}}}}Content-Length: 191

{"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover", "params": {"textDocument": {"uri": "file:///tmp/spirv-conv-fuzz/bindless_material.frag"}, "position": {"line": 0, "character": 0}}}Content-Length: 45

{"jsonrpc": "2.0", "id": 3, "method": "nope"}Content-Length: 49

{"jsonrpc": "2.0", "id": 4, "method": "shutdown"}Content-Length: 36

{"jsonrpc": "2.0", "method": "exit"}Content-Length: 5

{bad}