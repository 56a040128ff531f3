"""Exact money against a sandbox: an amount with 18 significant digits (USDT
has 6 decimal places; a float keeps about 16) sent as a JSON number, and read
back exactly; a payout's amount as a DecimalString."""

import json
import os
import unittest
import uuid
from decimal import Decimal
from pathlib import Path

from crossborder_client import AuthenticatedClient
from crossborder_client.api.collections import get_transaction

from money import JSON, decimal_string, read_exact, write_exact
from sandbox import Sandbox

KEY = "test_money_py"
BIG = Decimal("123456789012.345678")
CASES = os.environ.get("CROSSBORDER_MONEY_CASES") or Path(__file__).parent.parent / "money-cases.json"


def setUpModule():
    global SANDBOX
    SANDBOX = Sandbox(keys=[KEY])
    unittest.addModuleCleanup(SANDBOX.stop)


class Money(unittest.TestCase):
    def test_the_digits_are_written_and_read_as_they_are(self):
        self.assertEqual(write_exact({"amount": BIG, "tiny": Decimal("1E-9")}), '{"amount":123456789012.345678,"tiny":0.000000001}')
        self.assertNotEqual(repr(float(BIG)), "123456789012.345678")
        self.assertEqual(read_exact('{"amount": 123456789012.345678}')["amount"], BIG)
        self.assertEqual(decimal_string(Decimal("1E3")), "1000")
        with self.assertRaisesRegex(ValueError, "not a DecimalString"):
            decimal_string(Decimal("-1"))
        with self.assertRaisesRegex(TypeError, "binary float"):
            write_exact({"amount": 1.5})

    def test_every_case_of_money_cases_is_read_written_and_added_as_the_rust_sdk_does(self):
        with open(CASES, encoding="utf-8") as file:
            cases = json.load(file)["cases"]
        self.assertGreaterEqual(len(cases), 10)
        for case in cases:
            with self.subTest(json=case["json"]):
                value = Decimal(case["value"])
                read = read_exact(f'{{"amount": {case["json"]}}}')["amount"]
                self.assertEqual(read, value)
                self.assertEqual(read_exact(write_exact({"amount": read}))["amount"], value)
                if case["decimalString"]:
                    self.assertEqual(Decimal(decimal_string(read)), value)
                else:
                    with self.assertRaisesRegex(ValueError, "not a DecimalString"):
                        decimal_string(read)
                self.assertEqual(read + Decimal(case["plus"]), Decimal(case["sum"]))

    def test_an_18_digit_amount_is_sent_and_read_back_exactly(self):
        client = AuthenticatedClient(base_url=SANDBOX.base_url, token=KEY, prefix="", auth_header_name="x-api-key")
        reference = f"money-py-{uuid.uuid4().hex[:12]}"
        body = {"amount": BIG, "fromCurrency": "USDT", "toCurrency": "USDT", "paymentReference": reference}
        with client as c:
            created = c.get_httpx_client().post("/api/initiate-payment", content=write_exact(body), headers=JSON)
            self.assertEqual(created.status_code, 200, created.text)
            self.assertEqual(read_exact(created.content)["data"]["amount"], BIG)
            read = get_transaction.sync_detailed(reference, client=c)
            data = read_exact(read.content)["data"]
        self.assertEqual(str(data["amount"]), "123456789012.345678")
        self.assertEqual(data["toAmount"], BIG)


if __name__ == "__main__":
    unittest.main()
