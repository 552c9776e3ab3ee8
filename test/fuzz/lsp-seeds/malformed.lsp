Content-Length: x

Content-Length: 6

[1, 2]Content-Length: 58

{"jsonrpc": "2.0", "id": {"a": 1}, "method": "initialize"}Content-Length: 3

{}}