"""A sandbox per test file, started from the `crossborder-sandbox` pip package
(no Rust toolchain needed): a free loopback port, its base URL read from the
first line it prints. Copy this file into your tests.

    import unittest
    from sandbox import Sandbox

    def setUpModule():
        global SANDBOX
        SANDBOX = Sandbox(keys=["test_my_suite"])  # one business per key
        unittest.addModuleCleanup(SANDBOX.stop)

    control = SANDBOX.control("test_my_suite")  # the control API, as that key's business
    control.fund("INV-1", "2500.00")
"""

import json
import os
import re
import shutil
import subprocess
import sysconfig
import threading
import typing
import urllib.error
import urllib.parse
import urllib.request

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

    def control(self, key):
        """The sandbox's control API for the business of `key`."""
        return Control(self.base_url, key)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


# The control API (openapi/sandbox-control.yaml), typed by hand for the calls
# a test suite makes. Amounts there are decimal strings, kept as they are.


class ControlCollection(typing.TypedDict):
    paymentReference: str
    transactionId: str
    status: str  # PENDING, PARTIALLY_PAID, COMPLETED, EXPIRED
    currency: str
    amount: str
    paidAmount: str
    remainingAmount: str
    toAmount: str


class ControlPayout(typing.TypedDict):
    sessionId: str
    transactionId: str
    status: str  # PENDING, COMPLETED, FAILED
    amount: str
    fee: str
    totalAmount: str
    toAmount: str
    fromCurrency: str
    toCurrency: str
    reason: typing.Optional[str]


class ControlState(typing.TypedDict):
    balances: list
    collections: typing.List[ControlCollection]
    payouts: typing.List[ControlPayout]
    settings: dict


class ControlError(RuntimeError):
    """A control call the sandbox refused: `status` and the API's error `body`."""

    def __init__(self, what, status, body):
        super().__init__(f"{what}: HTTP {status}: {body}")
        self.status = status
        self.body = body


class Control:
    """The sandbox's control API (under /_sandbox, beside /v1) as one business."""

    def __init__(self, base_url, key):
        parts = urllib.parse.urlsplit(base_url)
        self._origin = f"{parts.scheme}://{parts.netloc}"
        self._key = key

    def _call(self, method, path, body=None):
        headers = {"x-api-key": self._key}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["content-type"] = "application/json"
        request = urllib.request.Request(self._origin + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return json.loads(response.read())
        except urllib.error.HTTPError as error:
            raise ControlError(f"{method} {path}", error.code, error.read().decode(errors="replace")) from None

    @staticmethod
    def _segment(value):
        return urllib.parse.quote(value, safe="")

    def state(self) -> ControlState:
        """Everything the business holds: balances, collections, payouts..."""
        return self._call("GET", "/_sandbox/state")

    def fund(self, payment_reference, amount=None) -> ControlCollection:
        """A payer pays `amount` (a decimal string; all that is left when None)."""
        body = {} if amount is None else {"amount": amount}
        return self._call("POST", f"/_sandbox/collections/{self._segment(payment_reference)}/fund", body)

    def expire(self, payment_reference) -> ControlCollection:
        """The collection's time runs out."""
        return self._call("POST", f"/_sandbox/collections/{self._segment(payment_reference)}/expire")

    def complete_payout(self, session_id) -> ControlPayout:
        """A pending payout is paid out."""
        return self._call("POST", f"/_sandbox/payouts/{self._segment(session_id)}/complete")

    def fail_payout(self, session_id, reason=None) -> ControlPayout:
        """A pending payout fails (its debit is returned)."""
        body = {} if reason is None else {"reason": reason}
        return self._call("POST", f"/_sandbox/payouts/{self._segment(session_id)}/fail", body)

    def settle(self, payout_settlement):
        """How new payouts settle: `instant`, `manual` or a delay such as `30s`."""
        self._call("PUT", "/_sandbox/settings", {"payoutSettlement": payout_settlement})
