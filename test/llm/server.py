#!/usr/bin/env python3
"""A loopback stand-in for an OpenAI-compatible chat-completions server.

usage: server.py SCRIPT PORTFILE LOGFILE [KEY]

Binds 127.0.0.1 on a free port, writes the port to PORTFILE, and answers
POST .../chat/completions from SCRIPT, a JSON list of entries:

    {"match": ["substring", ...],   all must occur in the user message
     "responses": [response, ...]}  used in order; the last one repeats

The first entry that matches answers.  A response is one of
    {"content": "text"} or {"content_file": "path"}   a 200 with that answer
    {"status": 429, "headers": {"Retry-After": "1"}, "body": "..."}
    {"hang": true}                   headers, a few bytes, then nothing
    {"size": N}                      a 200 whose body is N bytes
{{AUTH}} in a content is replaced by the request's Authorization header,
to check that the client redacts a key that comes back.
Paths are relative to SCRIPT's folder.  Every request is logged to LOGFILE
as one JSON line: the matched entry's index, the response's index, the
model, and whether the Authorization header held "Bearer KEY" (never the
header itself).  Loopback only: nothing else can reach it.
"""
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

script_path, port_file, log_file = sys.argv[1:4]
key = sys.argv[4] if len(sys.argv) > 4 else None
base = os.path.dirname(os.path.abspath(script_path))
with open(script_path) as f:
    script = json.load(f)
used = [0] * len(script)
lock = threading.Lock()


def answer(content):
    return json.dumps({
        "id": "chatcmpl-test", "object": "chat.completion",
        "choices": [{"index": 0, "finish_reason": "stop",
                     "message": {"role": "assistant", "content": content}}],
    }).encode()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send(self, status, body, headers=None):
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        n = int(self.headers.get("Content-Length", "0"))
        req = json.loads(self.rfile.read(n) or b"{}")
        user = "".join(m.get("content", "") for m in req.get("messages", [])
                       if m.get("role") == "user")
        entry = next((i for i, e in enumerate(script)
                      if all(s in user for s in e["match"])), None)
        with lock:
            if entry is None:
                ri = None
            else:
                ri = min(used[entry], len(script[entry]["responses"]) - 1)
                used[entry] += 1
            with open(log_file, "a") as f:
                f.write(json.dumps({
                    "entry": entry, "response": ri,
                    "path": self.path, "model": req.get("model"),
                    "auth_ok": key is not None and
                    self.headers.get("Authorization") == "Bearer " + key,
                    "retry_prompt": "previous answer was rejected" in user,
                    "t": time.time(),
                }) + "\n")
        if entry is None:
            self.send(404, b'{"error":"no scripted answer"}')
            return
        r = script[entry]["responses"][ri]
        if r.get("hang"):
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", "5000")
            self.end_headers()
            self.wfile.write(b'{"choices":')
            self.wfile.flush()
            time.sleep(30)
            return
        if "size" in r:
            self.send(200, b'{"pad":"' + b"x" * (r["size"] - 10) + b'"}')
            return
        if "content_file" in r:
            with open(os.path.join(base, r["content_file"])) as f:
                r = dict(r, content=f.read())
        if "content" in r:
            # {{AUTH}}: a server that echoes the request's credentials
            content = r["content"].replace(
                "{{AUTH}}", self.headers.get("Authorization", ""))
            self.send(r.get("status", 200), answer(content),
                      r.get("headers"))
            return
        self.send(r.get("status", 200), r.get("body", "{}").encode(),
                  r.get("headers"))


# a test that dies before stopping the server must not leave it behind
threading.Timer(300, lambda: os._exit(0)).start()
class Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        # clients that give up (timeouts, size limits) reset connections
        pass


server = Server(("127.0.0.1", 0), Handler)
with open(port_file + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
os.rename(port_file + ".tmp", port_file)
server.serve_forever()
