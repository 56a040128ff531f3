// Exact money both ways against a sandbox: an amount with 18 significant
// digits sent as a JSON number and as a string, and read back exactly.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { Decimal } from "decimal.js";
import createClient from "openapi-fetch";

import { decimalString, exactBody, pathAmount, plain, readExact, writeExact } from "./money.js";
import { sandboxPerFile } from "./sandbox.js";
import type { components, paths } from "./schema.js";

type Schemas = components["schemas"];
const KEY = "test_money_ts";
const sandbox = sandboxPerFile({ keys: [KEY] });

// 18 significant digits (USDT has 6 decimal places): a binary float keeps
// about 16.
const BIG = new Decimal("123456789012.345678");

test("the digits are written and read as they are", () => {
  assert.equal(writeExact({ amount: BIG, small: new Decimal("0.000000001") }), '{"amount":123456789012.345678,"small":0.000000001}');
  assert.notEqual(String(BIG.toNumber()), "123456789012.345678");
  const read = readExact<{ amount: number }>('{"amount": 123456789012.345678}');
  assert.ok(read.amount.eq(BIG));
  assert.equal(decimalString(new Decimal("1e3")), "1000");
  assert.throws(() => decimalString(new Decimal("-1")), /not a DecimalString/);
  assert.equal(pathAmount(new Decimal("1e-7")) as unknown as string, "0.0000001");
});

interface MoneyCase {
  json: string;
  value: string;
  decimalString: boolean;
  plus: string;
  sum: string;
}

test("every case of examples/money-cases.json is read, written and added as the Rust SDK does", () => {
  const table: { cases: MoneyCase[] } = JSON.parse(
    readFileSync(process.env.CROSSBORDER_MONEY_CASES ?? new URL("../../money-cases.json", import.meta.url), "utf8"),
  );
  assert.ok(table.cases.length >= 10);
  for (const c of table.cases) {
    const read = readExact<{ amount: number }>(`{"amount": ${c.json}}`).amount;
    assert.equal(plain(read), c.value, c.json);
    assert.equal(writeExact({ amount: read }), `{"amount":${c.value}}`, c.json);
    if (c.decimalString) assert.equal(decimalString(read), c.value, c.json);
    else assert.throws(() => decimalString(read), /not a DecimalString/, c.json);
    assert.equal(plain(read.plus(c.plus)), c.sum, `${c.value} + ${c.plus}`);
  }
});

test("an 18-digit collection amount is sent and read back exactly", async () => {
  const client = createClient<paths>({
    baseUrl: sandbox().baseUrl,
    headers: { "x-api-key": KEY },
    bodySerializer: writeExact,
  });
  const reference = `money-ts-${Date.now()}`;
  const created = await client.POST("/api/initiate-payment", {
    body: exactBody<Schemas["InitiatePaymentRequest"]>({
      amount: BIG,
      fromCurrency: "USDT",
      toCurrency: "USDT",
      paymentReference: reference,
    }),
    parseAs: "text",
  });
  assert.ok(created.response.ok, String(created.error));
  const sent = readExact<Schemas["TransactionResponse"]>(created.data).data;
  assert.equal(sent.amount.toFixed(), "123456789012.345678");
  const r = await client.GET("/api/transaction/{paymentReference}", {
    params: { path: { paymentReference: reference } },
    parseAs: "text",
  });
  const tx = readExact<Schemas["TransactionResponse"]>(r.data).data;
  assert.equal(tx.amount.toFixed(), "123456789012.345678");
  assert.equal(tx.toAmount.toFixed(), "123456789012.345678");
});
