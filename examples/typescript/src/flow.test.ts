// The whole flow (dist/flow.js) against a sandbox of its own, started from the
// npm package; CROSSBORDER_EXPECTED and CROSSBORDER_PDF pass through.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { sandboxPerFile } from "./sandbox.js";

const sandbox = sandboxPerFile();

test("the flow reads every amount exactly", () => {
  const ran = spawnSync(process.execPath, [fileURLToPath(new URL("./flow.js", import.meta.url))], {
    env: { ...process.env, CROSSBORDER_BASE_URL: sandbox().baseUrl, CROSSBORDER_API_KEY: "test_sandbox_key" },
    encoding: "utf8",
    timeout: 300_000,
  });
  console.log(ran.stdout, ran.stderr);
  assert.equal(ran.status, 0, ran.stdout + ran.stderr);
});
