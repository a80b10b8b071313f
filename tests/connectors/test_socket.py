"""socket_text_stream against a real TCP server (a thread of the test) on 127.0.0.1."""
from __future__ import annotations

import socket
import threading


def serve_lines(lines: list):
    """A one-client TCP server sending ``lines`` and keeping the connection open; its port
    and a function stopping it."""
    server = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def run():
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                continue
            with conn:
                conn.sendall("".join(line + "\n" for line in lines).encode())
                stop.wait()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()

    def close():
        stop.set()
        thread.join(5)
        server.close()
    return server.getsockname()[1], close


def test_socket_text_stream(streaming_env):
    port, close = serve_lines(["hello world", "hi"])
    try:
        ds = streaming_env.socket_text_stream("127.0.0.1", port) \
            .flat_map(lambda line: line.split())
        assert sorted(ds.execute_and_collect("socket", limit=3)) == ["hello", "hi", "world"]
    finally:
        close()
