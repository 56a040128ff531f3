"""The whole flow (flow.py) against a sandbox of its own, started from the pip
package; CROSSBORDER_EXPECTED and CROSSBORDER_PDF pass through."""

import os
import subprocess
import sys
import unittest
from pathlib import Path

from sandbox import Sandbox


def setUpModule():
    global SANDBOX
    SANDBOX = Sandbox()
    unittest.addModuleCleanup(SANDBOX.stop)


class Flow(unittest.TestCase):
    def test_the_flow_reads_every_amount_exactly(self):
        env = dict(os.environ, CROSSBORDER_BASE_URL=SANDBOX.base_url, CROSSBORDER_API_KEY="test_sandbox_key")
        ran = subprocess.run(
            [sys.executable, str(Path(__file__).with_name("flow.py"))],
            env=env, capture_output=True, text=True, timeout=300,
        )
        print(ran.stdout, ran.stderr)
        self.assertEqual(ran.returncode, 0, ran.stdout + ran.stderr)


if __name__ == "__main__":
    unittest.main()
