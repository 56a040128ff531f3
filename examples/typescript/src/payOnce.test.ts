// Paying once against a sandbox: a retried payout, the same or changed, is
// paid once, its balance debited once; the amount is sent as an exact DecimalString.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { Decimal } from "decimal.js";
import createClient from "openapi-fetch";

import { decimalString, readExact } from "./money.js";
import { payOnce, readPayout, type PayoutRequest } from "./payOnce.js";
import { controlClient, sandboxPerFile } from "./sandbox.js";
import type { components, paths } from "./schema.js";

const KEY = "test_pay_once_ts";
const sandbox = sandboxPerFile({ keys: [KEY] });

test("a retried payout is paid once", async () => {
  const client = createClient<paths>({ baseUrl: sandbox().baseUrl, headers: { "x-api-key": KEY } });
  const balance = async () => {
    const r = await client.GET("/api/balance/{currency}", { params: { path: { currency: "NGN" } }, parseAs: "text" });
    return readExact<components["schemas"]["BalanceResponse"]>(r.data).data.balance;
  };
  const before = await balance();
  const amount = new Decimal("1234.56");
  const request: PayoutRequest = {
    amount: decimalString(amount),
    fromCurrency: "NGN",
    toCurrency: "NGN",
    sessionId: `pay-once-ts-${Date.now()}`,
    accountNumber: "0123456789",
    accountName: "ADAEZE OKAFOR",
    bankName: "Guaranty Trust Bank",
    bankCode: "058",
    narration: "pay once",
  };
  assert.equal(await readPayout(client, request.sessionId), undefined);
  const first = await payOnce(client, request);
  assert.equal(first.sent, true);
  const retry = await payOnce(client, request);
  assert.equal(retry.sent, false);
  assert.equal(retry.transaction.transactionId, first.transaction.transactionId);
  assert.ok(retry.transaction.amount.eq(amount));
  // An identical resend is answered as the first, with no second effect
  // (B3); a retry that changed (a new quote's rateKey, a new narration) is
  // refused 409, where payOnce finds the payout.
  const again = await client.POST("/api/payout", { body: request });
  assert.equal(again.response.status, 200);
  const changed = { ...request, narration: "pay once, retried" };
  const refused = await client.POST("/api/payout", { body: changed });
  assert.equal(refused.response.status, 409);
  const found = await payOnce(client, changed);
  assert.equal(found.sent, false);
  assert.equal(found.transaction.transactionId, first.transaction.transactionId);
  assert.ok((await balance()).eq(before.minus(amount)), "debited once");
});

interface PayOnceCases {
  bank: { accountNumber: string; accountName: string; bankName: string; bankCode: string };
  cases: { sessionId: string; amount: string; attempts: number; debit: string }[];
}

test("every case of examples/pay-once-cases.json leaves the Rust SDK's single payout and debit", async () => {
  const table: PayOnceCases = JSON.parse(
    readFileSync(process.env.CROSSBORDER_PAY_ONCE_CASES ?? new URL("../../pay-once-cases.json", import.meta.url), "utf8"),
  );
  const client = createClient<paths>({ baseUrl: sandbox().baseUrl, headers: { "x-api-key": KEY } });
  const control = controlClient(sandbox(), KEY);
  const balance = async () => {
    const r = await client.GET("/api/balance/{currency}", { params: { path: { currency: "NGN" } }, parseAs: "text" });
    return readExact<components["schemas"]["BalanceResponse"]>(r.data).data.balance;
  };
  for (const c of table.cases) {
    const before = await balance();
    const ids = new Set<string>();
    for (let attempt = 0; attempt < c.attempts; attempt++) {
      const { transaction } = await payOnce(client, {
        amount: decimalString(new Decimal(c.amount)),
        fromCurrency: "NGN",
        toCurrency: "NGN",
        sessionId: c.sessionId,
        ...table.bank,
        narration: `attempt ${attempt}`,
      });
      assert.ok(transaction.amount.eq(c.amount), c.sessionId);
      ids.add(transaction.transactionId);
    }
    assert.equal(ids.size, 1, `${c.sessionId}: one transaction`);
    assert.equal(before.minus(await balance()).toFixed(), new Decimal(c.debit).toFixed(), `${c.sessionId}: debited once`);
    const payouts = (await control.state()).payouts.filter((p) => p.sessionId === c.sessionId);
    assert.equal(payouts.length, 1, `${c.sessionId}: one payout`);
  }
});
