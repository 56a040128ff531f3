// Paying a payout once across retries, the recipe behind the Rust SDK's
// `Payouts::create_or_get`: the payout's `sessionId` is its idempotency key,
// chosen once and stored before the first attempt, and every attempt reads
// the payout by that id before sending. A retry (after a timeout, a crash or
// a lost response) then finds the payout instead of sending it again, and a
// retried converting payout never re-quotes into a 409.

import type { Client } from "openapi-fetch";

import { readExact, type Exact } from "./money.js";
import type { components, paths } from "./schema.js";

type Schemas = components["schemas"];
export type PayoutRequest = Schemas["PayoutRequest"];
export type Transaction = Exact<Schemas["Transaction"]>;

/** The payout with this session id, or `undefined` when the API answers 404. */
export async function readPayout(client: Client<paths>, sessionId: string): Promise<Transaction | undefined> {
  const r = await client.GET("/api/transaction/{paymentReference}", {
    params: { path: { paymentReference: sessionId } },
    parseAs: "text",
  });
  if (r.response.status === 404) return undefined;
  if (!r.response.ok) throw new Error(`reading payout ${sessionId}: HTTP ${r.response.status}`);
  return readExact<Schemas["TransactionResponse"]>(r.data).data;
}

/** Sends `request` unless a payout with its `sessionId` exists; returns the
 * payout either way, and whether this call sent it. */
export async function payOnce(
  client: Client<paths>,
  request: PayoutRequest,
): Promise<{ transaction: Transaction; sent: boolean }> {
  const existing = await readPayout(client, request.sessionId);
  if (existing !== undefined) return { transaction: existing, sent: false };
  let failure: unknown;
  try {
    const r = await client.POST("/api/payout", { body: request });
    if (r.response.ok) {
      const sent = await readPayout(client, request.sessionId);
      if (sent === undefined) throw new Error(`payout ${request.sessionId} accepted but not found`);
      return { transaction: sent, sent: true };
    }
    // 409: the session id is taken (a concurrent or earlier attempt won).
    // 5xx: the outcome is unknown. Either way, read before anything else.
    if (r.response.status !== 409 && r.response.status < 500) {
      throw new Error(`payout ${request.sessionId}: HTTP ${r.response.status}: ${JSON.stringify(r.error)}`);
    }
    failure = new Error(`payout ${request.sessionId}: HTTP ${r.response.status}`);
  } catch (error) {
    if (error instanceof Error && error.message.startsWith(`payout ${request.sessionId}: HTTP 4`)) throw error;
    failure = error; // the connection failed: it may have been applied
  }
  const found = await readPayout(client, request.sessionId);
  if (found !== undefined) return { transaction: found, sent: false };
  throw failure;
}
