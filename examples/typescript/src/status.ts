// Open statuses: the spec writes `TransactionStatus` as `anyOf` of its known
// values (`KnownTransactionStatus`) and any string (ASSUMPTIONS G1), so
// openapi-typescript gives a closed union to switch over, and a word the
// service adds later still type-checks and decodes as a string.

import type { components } from "./schema.js";

type Schemas = components["schemas"];
export type TransactionStatus = Schemas["TransactionStatus"];
export type KnownTransactionStatus = Schemas["KnownTransactionStatus"];

const KNOWN = [
  "PENDING",
  "PROCESSING",
  "PARTIALLY_PAID",
  "COMPLETED",
  "EXPIRED",
  "FAILED",
] as const satisfies readonly KnownTransactionStatus[];

// A value the spec adds and KNOWN lacks fails to compile here.
type Unlisted = Exclude<KnownTransactionStatus, (typeof KNOWN)[number]>;
const everyValueListed: [Unlisted] extends [never] ? true : Unlisted = true;
void everyValueListed;

/** Whether `status` is one this version of the spec knows. */
export function isKnown(status: TransactionStatus): status is KnownTransactionStatus {
  return (KNOWN as readonly string[]).includes(status);
}

/** Whether a collection or payout has settled for good: `COMPLETED`,
 * `EXPIRED` or `FAILED`. A status this version does not know is never
 * final (ASSUMPTIONS A2): keep reading it. */
export function isFinal(status: TransactionStatus): boolean {
  if (!isKnown(status)) return false;
  switch (status) {
    case "PENDING":
    case "PROCESSING":
    case "PARTIALLY_PAID":
      return false;
    case "COMPLETED":
    case "EXPIRED":
    case "FAILED":
      return true;
    default: {
      // Every known value is handled: a new one fails to compile here.
      const unhandled: never = status;
      return unhandled;
    }
  }
}
