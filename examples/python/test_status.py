"""Open statuses (ASSUMPTIONS G1): the generated client types a status as
`KnownTransactionStatus | str`, so a known value is the enum's member and a
word the service adds later still decodes, as the string sent."""

import json
import unittest
import uuid

from crossborder_client import AuthenticatedClient
from crossborder_client.api.collections import initiate_payment
from crossborder_client.models import Currency, InitiatePaymentRequest, KnownTransactionStatus, Transaction

from sandbox import Sandbox

KEY = "test_status_py"


def setUpModule():
    global SANDBOX
    SANDBOX = Sandbox(keys=[KEY])
    unittest.addModuleCleanup(SANDBOX.stop)


class OpenStatus(unittest.TestCase):
    def client(self):
        return AuthenticatedClient(base_url=SANDBOX.base_url, token=KEY, prefix="", auth_header_name="x-api-key")

    def created(self):
        response = initiate_payment.sync_detailed(
            client=self.client(),
            body=InitiatePaymentRequest(
                amount=100, from_currency=Currency.NGN, to_currency=Currency.NGN, payment_reference=f"status-py-{uuid.uuid4().hex[:12]}"
            ),
        )
        self.assertEqual(response.status_code, 200, response.content)
        return json.loads(response.content)["data"]

    def test_a_known_status_is_the_enum_member(self):
        raw = self.created()
        transaction = Transaction.from_dict(raw)
        self.assertIs(transaction.status, KnownTransactionStatus.PENDING)

    def test_an_unknown_word_still_decodes(self):
        raw = dict(self.created(), status="ON_HOLD")
        transaction = Transaction.from_dict(raw)
        self.assertEqual(transaction.status, "ON_HOLD")
        self.assertNotIsInstance(transaction.status, KnownTransactionStatus)
        self.assertEqual(transaction.to_dict()["status"], "ON_HOLD")


if __name__ == "__main__":
    unittest.main()
