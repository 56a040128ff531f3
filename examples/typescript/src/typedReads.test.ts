// Typed reads against a sandbox: the response type follows the path (tsc
// rejects a wrong one: the @ts-expect-error lines below fail the compile if
// the error they expect goes away), every amount read exactly.

import assert from "node:assert/strict";
import { test } from "node:test";

import { Decimal } from "decimal.js";
import createClient from "openapi-fetch";

import { exactBody, writeExact, type Exact } from "./money.js";
import { sandboxPerFile } from "./sandbox.js";
import type { components, paths } from "./schema.js";
import { typedReads } from "./typedReads.js";

type Schemas = components["schemas"];
const KEY = "test_typed_reads_ts";
const sandbox = sandboxPerFile({ keys: [KEY] });

// 18 significant digits: a binary float keeps about 16.
const BIG = new Decimal("123456789012.345678");

const reads = () =>
  typedReads(createClient<paths>({ baseUrl: sandbox().baseUrl, headers: { "x-api-key": KEY }, bodySerializer: writeExact }));

test("a read's type comes from its path, with exact amounts", async () => {
  const client = reads();
  const reference = `typed-reads-ts-${Date.now()}`;
  const created = await client.POST("/api/initiate-payment", {
    body: exactBody<Schemas["InitiatePaymentRequest"]>({
      amount: BIG,
      fromCurrency: "USDT",
      toCurrency: "USDT",
      paymentReference: reference,
    }),
  });
  assert.ok(created.data, JSON.stringify(created.error));
  assert.equal(created.data.data.amount.toFixed(), "123456789012.345678");

  const read = await client.GET("/api/transaction/{paymentReference}", {
    params: { path: { paymentReference: reference } },
  });
  assert.ok(read.data, JSON.stringify(read.error));
  const tx = read.data.data;
  assert.equal(tx.paymentReference, reference);
  assert.ok(tx.amount instanceof Decimal);
  assert.equal(tx.amount.toFixed(), "123456789012.345678");
  assert.equal(tx.toAmount.toFixed(), "123456789012.345678");
  // @ts-expect-error an amount is a Decimal, never a binary float
  const float: number = tx.amount;
  void float;

  const balance = await client.GET("/api/balance/{currency}", { params: { path: { currency: "NGN" } } });
  assert.ok(balance.data, JSON.stringify(balance.error));
  assert.ok(balance.data.data.balance instanceof Decimal);
  // @ts-expect-error a balance is not a transaction: naming the wrong schema does not compile
  const wrong: Exact<Schemas["TransactionResponse"]> = balance.data;
  void wrong;
});

test("an error answer is the error, not data", async () => {
  const missing = await reads().GET("/api/transaction/{paymentReference}", {
    params: { path: { paymentReference: `typed-reads-missing-${Date.now()}` } },
  });
  assert.equal(missing.response.status, 404);
  assert.equal(missing.data, undefined);
  assert.ok(missing.error);
});

test("paths and parameters are checked against the spec", () => {
  const client = reads();
  // Type checks only (never sent): each line fails to compile without its expect-error.
  const never = async () => {
    // @ts-expect-error a path the spec does not have
    await client.GET("/api/balances/{currency}", { params: { path: { currency: "NGN" } } });
    // @ts-expect-error the path parameter is named paymentReference
    await client.GET("/api/transaction/{paymentReference}", { params: { path: { reference: "x" } } });
    // @ts-expect-error a path parameter is required
    await client.GET("/api/balance/{currency}");
  };
  assert.equal(typeof never, "function");
});
