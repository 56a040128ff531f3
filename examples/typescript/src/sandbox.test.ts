// The fixture: a sandbox from the npm package answers on the URL it printed,
// with the keys it was given, and stops.

import assert from "node:assert/strict";
import { test } from "node:test";

import { start } from "crossborder-sandbox";
import { Decimal } from "decimal.js";
import createClient from "openapi-fetch";

import { decimalString, exactBody, writeExact } from "./money.js";
import { controlClient, sandboxPerFile } from "./sandbox.js";
import type { components, paths } from "./schema.js";
import { typedReads } from "./typedReads.js";

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

test("the control client funds, expires, completes and fails", async () => {
  const key = "test_fixture_ts";
  const control = controlClient(sandbox(), key);
  const api = typedReads(
    createClient<paths>({ baseUrl: sandbox().baseUrl, headers: { "x-api-key": key }, bodySerializer: writeExact }),
  );
  const run = Date.now();

  const reference = `control-ts-${run}`;
  const created = await api.POST("/api/initiate-payment", {
    body: exactBody<components["schemas"]["InitiatePaymentRequest"]>({
      amount: new Decimal("2500.00"),
      fromCurrency: "NGN",
      toCurrency: "NGN",
      paymentReference: reference,
    }),
  });
  assert.ok(created.data, JSON.stringify(created.error));
  const funded = await control.fund(reference, "1000.00");
  assert.equal(funded.status, "PARTIALLY_PAID");
  assert.equal(funded.paidAmount, "1000.00");
  assert.equal(funded.remainingAmount, "1500.00");
  const expired = await control.expire(reference);
  assert.equal(expired.status, "EXPIRED");
  const read = await api.GET("/api/transaction/{paymentReference}", { params: { path: { paymentReference: reference } } });
  assert.ok(read.data?.data.paidAmount?.eq("1000.00"));

  await control.settle("manual");
  const payout = async (sessionId: string) => {
    const r = await api.POST("/api/payout", {
      body: {
        amount: decimalString(new Decimal("100.50")),
        fromCurrency: "NGN",
        toCurrency: "NGN",
        sessionId,
        accountNumber: "0123456789",
        accountName: "ADAEZE OKAFOR",
        bankName: "Guaranty Trust Bank",
        bankCode: "058",
        narration: "control",
      },
    });
    assert.ok(r.response.ok, JSON.stringify(r.error));
  };
  await payout(`control-ts-paid-${run}`);
  await payout(`control-ts-failed-${run}`);
  const pending = (await control.state()).payouts.filter((p) => p.sessionId.endsWith(String(run)));
  assert.deepEqual(pending.map((p) => p.status), ["PENDING", "PENDING"]);
  assert.equal((await control.completePayout(`control-ts-paid-${run}`)).status, "COMPLETED");
  const failed = await control.failPayout(`control-ts-failed-${run}`, "account closed");
  assert.equal(failed.status, "FAILED");
  assert.equal(failed.reason, "account closed");
  await control.settle("instant");
  await assert.rejects(control.fund(`control-ts-missing-${run}`), /HTTP 404/);
});
