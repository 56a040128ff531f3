"""The fixture: a sandbox from the pip package answers on the URL it printed,
with the keys it was given, and stops."""

import unittest
import uuid
from decimal import Decimal

import httpx

from money import decimal_string, read_exact

from sandbox import ControlError, Sandbox


def setUpModule():
    global SANDBOX
    SANDBOX = Sandbox(keys=["test_fixture_py"])
    unittest.addModuleCleanup(SANDBOX.stop)


class SandboxFixture(unittest.TestCase):
    def test_it_answers_on_the_printed_url_with_its_key(self):
        self.assertRegex(SANDBOX.base_url, r"^http://127\.0\.0\.1:\d+/v1$")
        response = httpx.get(f"{SANDBOX.base_url}/api/balance/NGN", headers={"x-api-key": "test_fixture_py"})
        self.assertEqual(response.status_code, 200, response.text)
        unknown = httpx.get(f"{SANDBOX.base_url}/api/balance/NGN", headers={"x-api-key": "test_not_given"})
        self.assertEqual(unknown.status_code, 401, unknown.text)

    def test_stop_ends_the_process(self):
        with Sandbox() as other:
            self.assertNotEqual(other.base_url, SANDBOX.base_url)
        self.assertIsNotNone(other._process.poll())
        with self.assertRaises(httpx.TransportError):
            httpx.get(f"{other.base_url}/api/balance/NGN", headers={"x-api-key": "test_sandbox_key"})

    def test_the_control_client_funds_expires_completes_and_fails(self):
        key = "test_fixture_py"
        control = SANDBOX.control(key)
        api = httpx.Client(base_url=SANDBOX.base_url, headers={"x-api-key": key})
        run = uuid.uuid4().hex[:12]
        reference = f"control-py-{run}"
        created = api.post(
            "/api/initiate-payment",
            content=b'{"amount": 2500.00, "fromCurrency": "NGN", "toCurrency": "NGN", "paymentReference": "'
            + reference.encode()
            + b'"}',
            headers={"content-type": "application/json"},
        )
        self.assertEqual(created.status_code, 200, created.text)
        funded = control.fund(reference, "1000.00")
        self.assertEqual((funded["status"], funded["paidAmount"], funded["remainingAmount"]), ("PARTIALLY_PAID", "1000.00", "1500.00"))
        self.assertEqual(control.expire(reference)["status"], "EXPIRED")
        read = read_exact(api.get(f"/api/transaction/{reference}").content)["data"]
        self.assertEqual(read["paidAmount"], Decimal("1000.00"))

        control.settle("manual")
        for outcome in ("paid", "failed"):
            sent = api.post(
                "/api/payout",
                json={
                    "amount": decimal_string(Decimal("100.50")),
                    "fromCurrency": "NGN",
                    "toCurrency": "NGN",
                    "sessionId": f"control-py-{outcome}-{run}",
                    "accountNumber": "0123456789",
                    "accountName": "ADAEZE OKAFOR",
                    "bankName": "Guaranty Trust Bank",
                    "bankCode": "058",
                    "narration": "control",
                },
            )
            self.assertEqual(sent.status_code, 200, sent.text)
        pending = [p["status"] for p in control.state()["payouts"] if p["sessionId"].endswith(run)]
        self.assertEqual(pending, ["PENDING", "PENDING"])
        self.assertEqual(control.complete_payout(f"control-py-paid-{run}")["status"], "COMPLETED")
        failed = control.fail_payout(f"control-py-failed-{run}", "account closed")
        self.assertEqual((failed["status"], failed["reason"]), ("FAILED", "account closed"))
        control.settle("instant")
        with self.assertRaises(ControlError) as missing:
            control.fund(f"control-py-missing-{run}")
        self.assertEqual(missing.exception.status, 404)


if __name__ == "__main__":
    unittest.main()
