// A sandbox per test file, started from the `crossborder-sandbox` npm package
// (no Rust toolchain needed): a free loopback port, its base URL read from
// the first line it prints. Copy this file into your tests:
//
//   const sandbox = sandboxPerFile({ keys: ["test_my_suite"] });
//   test("...", async () => { const url = sandbox().baseUrl; ... });

import { after, before } from "node:test";

import { start, type Sandbox, type StartOptions } from "crossborder-sandbox";
import createClient from "openapi-fetch";

import type { components as controlComponents, paths as controlPaths } from "./control.js";

export type { Sandbox, StartOptions };

/** Starts a sandbox before this file's tests and stops it after them. */
export function sandboxPerFile(options?: StartOptions): () => Sandbox {
  let sandbox: Sandbox | undefined;
  before(async () => {
    sandbox = await start(options);
  });
  after(async () => {
    await sandbox?.stop();
  });
  return () => {
    if (sandbox === undefined) throw new Error("the sandbox starts in before(): use it in a test");
    return sandbox;
  };
}

// The control API (`openapi/sandbox-control.yaml`, typed by openapi-typescript
// into control.d.ts: `openapi-typescript openapi/sandbox-control.yaml --output
// src/control.d.ts`): take the decisions a payer, the service or its
// reviewers take. Amounts there are decimal strings, read as they are.
//
//   const control = controlClient(sandbox(), "test_my_suite");
//   await control.fund("INV-1", "2500.00");

type Control = controlComponents["schemas"];
export type ControlCollection = Control["Collection"];
export type ControlPayout = Control["Payout"];
export type ControlState = Control["State"];

/** The sandbox's control API for the business of `key`. */
export function controlClient(sandbox: Sandbox, key: string) {
  const client = createClient<controlPaths>({
    baseUrl: new URL(sandbox.baseUrl).origin,
    headers: { "x-api-key": key },
  });
  const ok = <T>(what: string, r: { data?: T; error?: unknown; response: Response }): T => {
    if (r.data === undefined) throw new Error(`${what}: HTTP ${r.response.status}: ${JSON.stringify(r.error)}`);
    return r.data;
  };
  return {
    /** Everything the business holds: balances, collections, payouts... */
    state: async (): Promise<ControlState> => ok("state", await client.GET("/_sandbox/state")),
    /** A payer pays `amount` (a decimal string; all that is left when absent). */
    fund: async (paymentReference: string, amount?: string): Promise<ControlCollection> =>
      ok(
        `fund ${paymentReference}`,
        await client.POST("/_sandbox/collections/{paymentReference}/fund", {
          params: { path: { paymentReference } },
          body: amount === undefined ? {} : { amount },
        }),
      ),
    /** The collection's time runs out. */
    expire: async (paymentReference: string): Promise<ControlCollection> =>
      ok(
        `expire ${paymentReference}`,
        await client.POST("/_sandbox/collections/{paymentReference}/expire", { params: { path: { paymentReference } } }),
      ),
    /** A pending payout is paid out. */
    completePayout: async (sessionId: string): Promise<ControlPayout> =>
      ok(
        `complete ${sessionId}`,
        await client.POST("/_sandbox/payouts/{sessionId}/complete", { params: { path: { sessionId } } }),
      ),
    /** A pending payout fails (its debit is returned). */
    failPayout: async (sessionId: string, reason?: string): Promise<ControlPayout> =>
      ok(
        `fail ${sessionId}`,
        await client.POST("/_sandbox/payouts/{sessionId}/fail", {
          params: { path: { sessionId } },
          body: reason === undefined ? {} : { reason },
        }),
      ),
    /** How new payouts settle: `instant`, `manual` or a delay such as `30s`. */
    settle: async (payoutSettlement: string): Promise<void> => {
      ok("settings", await client.PUT("/_sandbox/settings", { body: { payoutSettlement } }));
    },
  };
}
