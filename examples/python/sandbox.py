"""A sandbox per test file, started from the `crossborder-sandbox` pip package
(no Rust toolchain needed): a free loopback port, its base URL read from the
first line it prints. Copy this file into your tests.

    import unittest
    from sandbox import Sandbox

    def setUpModule():
        global SANDBOX
        SANDBOX = Sandbox(keys=["test_my_suite"])  # one business per key
        unittest.addModuleCleanup(SANDBOX.stop)
"""

import os
import re
import shutil
import subprocess
import sysconfig
import threading

# The first line the sandbox prints.
LISTENING = re.compile(r"^crossborder sandbox listening on (\S+)$")


def binary():
    """The installed `crossborder-sandbox` (or CROSSBORDER_SANDBOX_BINARY)."""
    override = os.environ.get("CROSSBORDER_SANDBOX_BINARY")
    if override:
        return override
    name = "crossborder-sandbox.exe" if os.name == "nt" else "crossborder-sandbox"
    # The running interpreter's scripts directory first: a venv need not be activated.
    beside = os.path.join(sysconfig.get_path("scripts"), name)
    if os.path.exists(beside):
        return beside
    found = shutil.which(name)
    if found:
        return found
    raise RuntimeError("crossborder-sandbox is not installed: pip install crossborder-sandbox")


class Sandbox:
    """A running sandbox; `base_url` is http://127.0.0.1:PORT/v1. Also a context manager."""

    def __init__(self, keys=(), args=()):
        command = [binary(), "--host", "127.0.0.1", "--port", "0", "--quiet"]
        for key in keys:
            command += ["--key", key]
        command += list(args)
        self._process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        self._stderr = []
        self._readers = [
            threading.Thread(target=self._drain, args=(self._process.stderr, self._stderr), daemon=True)
        ]
        self._readers[0].start()
        self.base_url = None
        for line in self._process.stdout:
            match = LISTENING.match(line.rstrip("\n"))
            if match:
                self.base_url = match.group(1)
                break
        if self.base_url is None:
            code = self._process.wait()
            self._close()
            raise RuntimeError(
                f"crossborder-sandbox exited ({code}) before listening: {''.join(self._stderr)}"
            )
        # Read on, so a full pipe never blocks it.
        self._readers.append(threading.Thread(target=self._drain, args=(self._process.stdout, []), daemon=True))
        self._readers[-1].start()

    @staticmethod
    def _drain(stream, into):
        for line in stream:
            into.append(line)

    @property
    def pid(self):
        return self._process.pid

    def stop(self):
        """Stops it (SIGTERM: a graceful shutdown) and waits until it has exited."""
        if self._process.poll() is None:
            self._process.terminate()
            try:
                self._process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
        self._close()

    def _close(self):
        for reader in self._readers:
            reader.join(timeout=5)
        self._process.stdout.close()
        self._process.stderr.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()
