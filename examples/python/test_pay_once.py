"""Paying once against a sandbox: a retried payout, the same or changed, is
paid once and the balance debited once; the amount is sent as an exact DecimalString."""

import json
import os
import unittest
import uuid
from decimal import Decimal
from pathlib import Path

from crossborder_client import AuthenticatedClient

from money import JSON, decimal_string, read_exact
from pay_once import pay_once, read_payout
from sandbox import Sandbox

KEY = "test_pay_once_py"
CASES = os.environ.get("CROSSBORDER_PAY_ONCE_CASES") or Path(__file__).parent.parent / "pay-once-cases.json"


def setUpModule():
    global SANDBOX
    SANDBOX = Sandbox(keys=[KEY])
    unittest.addModuleCleanup(SANDBOX.stop)


class PayOnce(unittest.TestCase):
    def test_a_retried_payout_is_paid_once(self):
        client = AuthenticatedClient(base_url=SANDBOX.base_url, token=KEY, prefix="", auth_header_name="x-api-key")
        http = client.get_httpx_client()

        def balance():
            return read_exact(http.get("/api/balance/NGN").content)["data"]["balance"]

        before = balance()
        amount = Decimal("1234.56")
        request = {
            "amount": decimal_string(amount),
            "fromCurrency": "NGN",
            "toCurrency": "NGN",
            "sessionId": f"pay-once-py-{uuid.uuid4().hex[:12]}",
            "accountNumber": "0123456789",
            "accountName": "ADAEZE OKAFOR",
            "bankName": "Guaranty Trust Bank",
            "bankCode": "058",
            "narration": "pay once",
        }
        self.assertIsNone(read_payout(client, request["sessionId"]))
        first, sent = pay_once(client, request)
        self.assertTrue(sent)
        retry, sent_again = pay_once(client, request)
        self.assertFalse(sent_again)
        self.assertEqual(retry["transactionId"], first["transactionId"])
        self.assertEqual(retry["amount"], amount)
        # An identical resend is answered as the first, with no second effect
        # (B3); a retry that changed (a new quote's rateKey, a new narration)
        # is refused 409, where pay_once finds the payout.
        again = http.post("/api/payout", headers=JSON, content=json.dumps(request))
        self.assertEqual(again.status_code, 200, again.text)
        changed = dict(request, narration="pay once, retried")
        refused = http.post("/api/payout", headers=JSON, content=json.dumps(changed))
        self.assertEqual(refused.status_code, 409, refused.text)
        found, sent_changed = pay_once(client, changed)
        self.assertEqual((found["transactionId"], sent_changed), (first["transactionId"], False))
        self.assertEqual(balance(), before - amount)
        http.close()

    def test_every_case_of_pay_once_cases_leaves_the_rust_sdks_single_payout_and_debit(self):
        with open(CASES, encoding="utf-8") as file:
            table = json.load(file)
        client = AuthenticatedClient(base_url=SANDBOX.base_url, token=KEY, prefix="", auth_header_name="x-api-key")
        http = client.get_httpx_client()
        control = SANDBOX.control(KEY)

        def balance():
            return read_exact(http.get("/api/balance/NGN").content)["data"]["balance"]

        for case in table["cases"]:
            with self.subTest(session_id=case["sessionId"]):
                before = balance()
                ids = set()
                for attempt in range(case["attempts"]):
                    request = dict(
                        table["bank"],
                        amount=decimal_string(Decimal(case["amount"])),
                        fromCurrency="NGN",
                        toCurrency="NGN",
                        sessionId=case["sessionId"],
                        narration=f"attempt {attempt}",
                    )
                    transaction, _ = pay_once(client, request)
                    self.assertEqual(transaction["amount"], Decimal(case["amount"]))
                    ids.add(transaction["transactionId"])
                self.assertEqual(len(ids), 1, "one transaction")
                self.assertEqual(before - balance(), Decimal(case["debit"]), "debited once")
                payouts = [p for p in control.state()["payouts"] if p["sessionId"] == case["sessionId"]]
                self.assertEqual(len(payouts), 1, "one payout")
        http.close()


if __name__ == "__main__":
    unittest.main()
