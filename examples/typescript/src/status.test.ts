// Open statuses against a sandbox of their own: a known status is one of the
// generated union's values, an unknown word still decodes, and a misspelt
// known value does not compile.

import assert from "node:assert/strict";
import { test } from "node:test";

import { parse } from "lossless-json";
import createClient from "openapi-fetch";

import { sandboxPerFile } from "./sandbox.js";
import type { components, paths } from "./schema.js";
import { isFinal, isKnown, type KnownTransactionStatus } from "./status.js";

type Transaction = components["schemas"]["Transaction"];

const sandbox = sandboxPerFile({ keys: ["test_status_ts"] });

// @ts-expect-error "COMPLETE" is not a status the spec knows: tsc refuses it.
const misspelt: KnownTransactionStatus = "COMPLETE";
void misspelt;

test("a collection's status read from the sandbox is a known value", async () => {
  const client = createClient<paths>({
    baseUrl: sandbox().baseUrl,
    headers: { "x-api-key": "test_status_ts" },
  });
  const created = await client.POST("/api/initiate-payment", {
    body: { amount: 100, fromCurrency: "NGN", toCurrency: "NGN", paymentReference: "status-ts-1" },
  });
  assert.ok(created.data, JSON.stringify(created.error));
  const status = created.data.data.status;
  assert.ok(isKnown(status), status);
  assert.equal(status, "PENDING");
  assert.equal(isFinal(status), false);
});

test("an unknown word decodes, is not known and is never final", () => {
  const body = '{"status": "ON_HOLD", "amount": 1}';
  const status = (parse(body) as Pick<Transaction, "status">).status;
  assert.equal(status, "ON_HOLD");
  assert.equal(isKnown(status), false);
  assert.equal(isFinal(status), false);
  assert.equal(isFinal("COMPLETED"), true);
  assert.equal(isFinal("PARTIALLY_PAID"), false);
});
