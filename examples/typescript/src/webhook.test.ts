// Webhook confirmation: the shared table of the Rust SDK's verdicts, then a
// forged event, a partial payment and a superseded event against a sandbox.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { Decimal } from "decimal.js";
import createClient from "openapi-fetch";

import { sandboxPerFile } from "./sandbox.js";
import type { paths } from "./schema.js";
import { confirm, judge, kind, parseEvent, readTransaction } from "./webhook.js";

const KEY = "test_webhook_ts";
const sandbox = sandboxPerFile({ keys: [KEY] });

test("every case of examples/webhook-cases.json gets the Rust SDK's verdict", () => {
  const table = JSON.parse(
    readFileSync(
      process.env.CROSSBORDER_WEBHOOK_CASES ?? new URL("../../webhook-cases.json", import.meta.url),
      "utf8",
    ),
  ) as { cases: { event: string; status: string; paidAmount: string | null; verdict: string }[] };
  assert.ok(table.cases.length >= 20);
  for (const c of table.cases) {
    const event = parseEvent(c.event);
    assert.ok(event, c.event);
    const tx = {
      paymentReference: "o-1",
      type: "COLLECTION",
      status: c.status,
      amount: new Decimal(50000),
      paidAmount: c.paidAmount === null ? undefined : new Decimal(c.paidAmount),
    };
    assert.equal(kind(judge(event, tx)), c.verdict, `${c.event} vs ${c.status} ${c.paidAmount}`);
  }
});

test("against the sandbox: forged ignored, partial not paid, superseded", async () => {
  const client = createClient<paths>({ baseUrl: sandbox().baseUrl, headers: { "x-api-key": KEY } });
  const read = readTransaction(client);
  const reference = `wh-ts-${Date.now()}`;
  const created = await client.POST("/api/initiate-payment", {
    body: { amount: 50000, fromCurrency: "NGN", toCurrency: "NGN", paymentReference: reference },
  });
  assert.ok(created.data, JSON.stringify(created.error));
  const narration = created.data.data.payRefrence ?? "";
  const fund = async (amount: number, session: string) => {
    const r = await client.POST("/api/simulate-funding", {
      body: { currency: "NGN", amount, narration, sessionId: `${reference}-${session}` },
    });
    assert.ok(r.response.ok, JSON.stringify(r.error));
  };
  await fund(20000, "1");

  const forged = `{"reference": "${reference}", "status": true, "paidAmount": 50000}`;
  const v1 = await confirm(forged, read);
  assert.equal(kind(v1), "status mismatch");

  const unknown = await confirm(`{"reference": "no-such-${reference}", "status": true}`, read);
  assert.equal(kind(unknown), "unknown reference");

  const partial = `{"reference": "${reference}", "status": false, "amount": 50000, "paidAmount": 20000, "remainingAmount": 30000, "message": "Partial payment received"}`;
  const v2 = await confirm(partial, read);
  assert.equal(v2.verdict, "confirmed");
  assert.ok(v2.verdict === "confirmed" && v2.change === "partially_paid", JSON.stringify(v2));
  assert.equal(v2.transaction?.status, "PARTIALLY_PAID");

  await fund(30000, "2");
  assert.equal(kind(await confirm(partial, read)), "superseded");
  const done = await confirm(`{"reference": "${reference}", "status": true, "paidAmount": 50000}`, read);
  assert.ok(done.verdict === "confirmed" && done.change === "completed", JSON.stringify(done));
  assert.ok(done.transaction.paidAmount?.eq(50000));
});
