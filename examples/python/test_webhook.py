"""Webhook confirmation: the shared table of the Rust SDK's verdicts, then a
forged event, a partial payment and a superseded event against a sandbox."""

import json
import os
import unittest
import uuid
from decimal import Decimal
from pathlib import Path

from crossborder_client import AuthenticatedClient

from money import JSON
from sandbox import Sandbox
from webhook import confirm, judge, parse_event, read_transaction

KEY = "test_webhook_py"
CASES = os.environ.get("CROSSBORDER_WEBHOOK_CASES") or Path(__file__).parent.parent / "webhook-cases.json"


def setUpModule():
    global SANDBOX
    SANDBOX = Sandbox(keys=[KEY])
    unittest.addModuleCleanup(SANDBOX.stop)


class Webhook(unittest.TestCase):
    def test_every_case_gets_the_rust_sdks_verdict(self):
        cases = json.loads(Path(CASES).read_text())["cases"]
        self.assertGreaterEqual(len(cases), 20)
        for case in cases:
            tx = {
                "paymentReference": "o-1",
                "type": "COLLECTION",
                "status": case["status"],
                "amount": Decimal(50000),
                "paidAmount": None if case["paidAmount"] is None else Decimal(case["paidAmount"]),
            }
            with self.subTest(case=case):
                self.assertEqual(judge(parse_event(case["event"]), tx).kind, case["verdict"])

    def test_against_the_sandbox_forged_ignored_partial_not_paid_superseded(self):
        client = AuthenticatedClient(base_url=SANDBOX.base_url, token=KEY, prefix="", auth_header_name="x-api-key")
        http = client.get_httpx_client()
        read = read_transaction(client)
        reference = f"wh-py-{uuid.uuid4().hex[:12]}"
        created = http.post("/api/initiate-payment", headers=JSON, content=json.dumps(
            {"amount": 50000, "fromCurrency": "NGN", "toCurrency": "NGN", "paymentReference": reference}))
        self.assertEqual(created.status_code, 200, created.text)
        narration = created.json()["data"]["payRefrence"]

        def fund(amount, session):
            r = http.post("/api/simulate-funding", headers=JSON, content=json.dumps(
                {"currency": "NGN", "amount": amount, "narration": narration, "sessionId": f"{reference}-{session}"}))
            self.assertEqual(r.status_code, 200, r.text)

        fund(20000, 1)
        forged = json.dumps({"reference": reference, "status": True, "paidAmount": 50000})
        self.assertEqual(confirm(forged, read).kind, "status mismatch")
        self.assertEqual(confirm(json.dumps({"reference": "no-such-" + reference, "status": True}), read).kind, "unknown reference")
        partial = json.dumps({"reference": reference, "status": False, "amount": 50000, "paidAmount": 20000,
                              "remainingAmount": 30000, "message": "Partial payment received"})
        verdict = confirm(partial, read)
        self.assertEqual((verdict.kind, verdict.change), ("confirmed", "partially_paid"))
        self.assertEqual(verdict.transaction["status"], "PARTIALLY_PAID")
        fund(30000, 2)
        self.assertEqual(confirm(partial, read).kind, "superseded")
        done = confirm(forged, read)
        self.assertEqual((done.kind, done.change), ("confirmed", "completed"))
        self.assertEqual(done.transaction["paidAmount"], Decimal(50000))
        client.get_httpx_client().close()


if __name__ == "__main__":
    unittest.main()
