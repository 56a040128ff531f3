"""The fixture: a sandbox from the pip package answers on the URL it printed,
with the keys it was given, and stops."""

import unittest

import httpx

from sandbox import Sandbox


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


if __name__ == "__main__":
    unittest.main()
