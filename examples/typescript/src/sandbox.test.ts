// The fixture: a sandbox from the npm package answers on the URL it printed,
// with the keys it was given, and stops.

import assert from "node:assert/strict";
import { test } from "node:test";

import { start } from "crossborder-sandbox";

import { sandboxPerFile } from "./sandbox.js";

const sandbox = sandboxPerFile({ keys: ["test_fixture_ts"] });

test("it answers on the printed URL with its key", async () => {
  const { baseUrl } = sandbox();
  assert.match(baseUrl, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  const ok = await fetch(`${baseUrl}/api/balance/NGN`, { headers: { "x-api-key": "test_fixture_ts" } });
  assert.equal(ok.status, 200, await ok.text());
  const unknown = await fetch(`${baseUrl}/api/balance/NGN`, { headers: { "x-api-key": "test_not_given" } });
  assert.equal(unknown.status, 401);
});

test("stop ends the process", async () => {
  const other = await start();
  assert.notEqual(other.baseUrl, sandbox().baseUrl);
  await other.stop();
  await assert.rejects(fetch(`${other.baseUrl}/api/balance/NGN`, { headers: { "x-api-key": "test_sandbox_key" } }));
});
