#!/usr/bin/env python3
"""A loopback chat-completions server that echoes the request's
Authorization header back in one SHAPE, for kwrap's key redaction.

usage: echo.py SHAPE PORTFILE

SHAPE:
    escaped   a 200 answer whose content holds the header as \\uXXXX
              escapes (the body's raw text never has the key as it is)
    error     a 500 whose body holds the header as \\uXXXX escapes
    cut       a 200 body with no length whose first read ends 3 bytes
              short of the header's end at CUT - 3 bytes, the rest after
              a pause: a client's --max-response CUT cuts the key in two
    notjson   a 200 body that is not JSON and holds the header as it is
Loopback only; it stops by itself after 120 s.
"""
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

shape, port_file = sys.argv[1:3]
CUT = 2000


def esc(s):
    return "".join("\\u%04x" % ord(c) for c in s)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"

    def log_message(self, *args):
        pass

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        auth = self.headers.get("Authorization", "")
        status = 200
        if shape == "escaped":
            body = ('{"choices":[{"index":0,"message":{"role":"assistant",'
                    '"content":"echo: ' + esc(auth) + '"}}]}')
        elif shape == "error":
            status = 500
            body = '{"error":"bad credentials: ' + esc(auth) + '"}'
        elif shape == "cut":
            # the key's last 3 bytes come in a later read: a client that
            # cuts at CUT before redacting keeps the rest of it
            pad = CUT - len('{"pad":"') - len(auth)
            first = '{"pad":"' + "x" * pad + auth[:-3]
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(first.encode())
            self.wfile.flush()
            time.sleep(0.5)
            self.wfile.write((auth[-3:] + "y" * 5000 + '"}').encode())
            return
        else:
            body = "oops " + auth + " is not json"
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(body.encode())


threading.Timer(120, lambda: os._exit(0)).start()
server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
with open(port_file + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
os.rename(port_file + ".tmp", port_file)
server.serve_forever()
