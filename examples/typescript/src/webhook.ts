// Webhook confirmation: an event is unsigned (ASSUMPTIONS A27), so it is
// only a hint; read the collection with GET /api/transaction/{reference}
// and act on what the service says. The verdicts are the Rust SDK's
// (`crossborder::webhook::verify`): the same table of cases,
// examples/webhook-cases.json, is checked against both.
//
//   const verdict = await confirm(rawBody, readTransaction(client));
//   if (verdict.verdict === "confirmed" && verdict.change === "completed") ship(verdict.transaction);

import { Decimal } from "decimal.js";
import { parse } from "lossless-json";
import type { Client } from "openapi-fetch";

import type { paths } from "./schema.js";

/** The fields of a transaction a verdict reads, amounts exact. */
export interface ReadTransaction {
  paymentReference: string;
  type?: string;
  status: string;
  amount: Decimal;
  paidAmount?: Decimal;
}

/** What a state change the event claims is: A26's reading of `status`. */
export type Change = "completed" | "partially_paid" | "failed" | "unknown";

export type Verdict =
  /** Act on `transaction` (never on the event). */
  | { verdict: "confirmed"; change: Change; overpaid?: Decimal; transaction: ReadTransaction }
  /** The collection has moved on since the event (B72): ignore it. */
  | { verdict: "superseded"; claim: Change; transaction: ReadTransaction }
  /** Do not act: forged, mistaken or unreadable. */
  | {
      verdict: "unconfirmed";
      reason:
        | "unknown reference"
        | "not a collection"
        | "status mismatch"
        | "paid mismatch"
        | "unknown status"
        | "request failed";
      transaction?: ReadTransaction;
      detail?: string;
    };

/** Reads a transaction by reference; `undefined` when the API answers 404. */
export type Reader = (reference: string) => Promise<ReadTransaction | undefined>;

/** A [`Reader`] through the generated client, amounts read exactly. */
export function readTransaction(client: Client<paths>): Reader {
  return async (reference) => {
    const r = await client.GET("/api/transaction/{paymentReference}", {
      params: { path: { paymentReference: reference } },
      parseAs: "text",
    });
    if (r.response.status === 404 && (r.error as { statusCode?: unknown } | undefined)?.statusCode === 404) {
      return undefined;
    }
    if (!r.response.ok || typeof r.data !== "string") {
      throw new Error(`GET /api/transaction/${reference}: HTTP ${r.response.status}`);
    }
    return (exactJson(r.data) as { data: ReadTransaction }).data;
  };
}

function exactJson(text: string): unknown {
  return parse(text, null, (digits) => new Decimal(digits));
}

interface Event {
  reference: string;
  status: boolean | string;
  paidAmount?: Decimal;
  remainingAmount?: Decimal;
  message?: string;
}

function amountOf(value: unknown): Decimal | undefined {
  if (value instanceof Decimal) return value;
  if (typeof value === "string" && value.trim() !== "") {
    try {
      return new Decimal(value.trim());
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** The event's fields (A26), amounts exact; `undefined` when it has no
 * reference or no status. */
export function parseEvent(body: string): Event | undefined {
  const raw = exactJson(body) as Record<string, unknown>;
  const reference = [raw.reference, raw.paymentReference, raw.payRefrence].find(
    (r): r is string => typeof r === "string" && r !== "",
  );
  const status = raw.status;
  if (reference === undefined || (typeof status !== "boolean" && typeof status !== "string")) return undefined;
  const paidAmount = amountOf(raw.paidAmount ?? raw.amountPaid);
  const amount = amountOf(raw.amount);
  // What is left, when only the amounts are sent.
  const remainingAmount =
    amountOf(raw.remainingAmount ?? raw.remaining) ??
    (amount !== undefined && paidAmount !== undefined ? amount.minus(paidAmount) : undefined);
  return {
    reference,
    status,
    paidAmount,
    remainingAmount,
    message: typeof raw.message === "string" ? raw.message : undefined,
  };
}

const COMPLETED = ["COMPLETED", "SUCCESS", "SUCCESSFUL", "PAID", "TRUE"];
const PARTIAL = ["PARTIALLY_PAID", "PARTIAL"];
const FAILED = ["FAILED", "EXPIRED", "CANCELLED", "CANCELED", "REJECTED", "REVERSED"];
const oneOf = (word: string, words: string[]) => words.includes(word.toUpperCase());

/** What the event claims (A26): `false` with something paid and something
 * left is a partial payment, not a failure. */
export function classify(event: Event): { change: Change; overpaid?: Decimal } {
  const left = event.remainingAmount;
  const reason = event.message?.trim() || undefined;
  const completed = () =>
    left !== undefined && left.gt(0)
      ? { change: "unknown" as const }
      : left !== undefined && left.lt(0)
        ? { change: "completed" as const, overpaid: left.neg() }
        : { change: "completed" as const };
  const falsy = () =>
    event.paidAmount?.gt(0) && left?.gt(0)
      ? { change: "partially_paid" as const }
      : reason !== undefined
        ? { change: "failed" as const }
        : { change: "unknown" as const };
  if (event.status === true) return completed();
  if (event.status === false) return falsy();
  const word = event.status.trim();
  if (oneOf(word, COMPLETED)) return completed();
  if (word.toLowerCase() === "false") return falsy();
  if (oneOf(word, PARTIAL)) return { change: "partially_paid" };
  if (oneOf(word, FAILED)) return { change: "failed" };
  // A word nobody knows: the amounts speak for it.
  if (event.paidAmount?.gt(0) && left !== undefined) {
    if (left.gt(0)) return { change: "partially_paid" };
    return left.lt(0) ? { change: "completed", overpaid: left.neg() } : { change: "completed" };
  }
  return { change: "unknown" };
}

type State = "open" | "partially_paid" | "completed" | "failed" | "unknown";
const RANK: Record<State, number | undefined> = {
  open: 0,
  partially_paid: 1,
  completed: 2,
  failed: 2,
  unknown: undefined,
};

function stateOf(tx: ReadTransaction): State {
  switch (tx.status) {
    case "PENDING":
    case "PROCESSING":
      return "open";
    case "PARTIALLY_PAID":
      return "partially_paid";
    case "COMPLETED":
      return "completed";
    case "EXPIRED":
    case "FAILED":
      return "failed";
  }
  const paid = tx.paidAmount;
  if (paid?.gt(0)) return paid.gte(tx.amount) ? "completed" : "partially_paid";
  return "unknown";
}

/** The verdict on `event` given the transaction as read (A27, B72). */
export function judge(event: Event, tx: ReadTransaction): Verdict {
  if (tx.type === "PAYOUT") return { verdict: "unconfirmed", reason: "not a collection", transaction: tx };
  const claim = classify(event);
  const state = stateOf(tx);
  const claimed: State | undefined = claim.change === "unknown" ? undefined : claim.change;
  const then = event.paidAmount;
  const now = tx.paidAmount;
  const paidSince = then !== undefined && now !== undefined && then.lt(now);
  const sameWord =
    typeof event.status === "string" &&
    event.status.trim() !== "" &&
    event.status.trim().toUpperCase() === tx.status.trim().toUpperCase();
  const matches = sameWord || (claimed !== undefined && claimed === state);
  const claimedRank = claimed === undefined ? undefined : RANK[claimed];
  const rank = RANK[state];
  const behind =
    claimed !== "completed" &&
    claimed !== "failed" &&
    (claimedRank !== undefined && rank !== undefined
      ? claimedRank < rank || (claimedRank === rank && paidSince)
      : paidSince && state !== "unknown");
  if (!matches && !behind) {
    return {
      verdict: "unconfirmed",
      reason: state === "unknown" ? "unknown status" : "status mismatch",
      transaction: tx,
    };
  }
  // paidAmount only grows: more than the service has is never true.
  if (then !== undefined && now !== undefined && then.gt(now)) {
    return { verdict: "unconfirmed", reason: "paid mismatch", transaction: tx };
  }
  if (matches && (rank === 2 || !paidSince)) {
    if (claim.change === "completed") {
      const over = now?.minus(tx.amount);
      return over?.gt(0)
        ? { verdict: "confirmed", change: "completed", overpaid: over, transaction: tx }
        : { verdict: "confirmed", change: "completed", transaction: tx };
    }
    return { verdict: "confirmed", change: claim.change, transaction: tx };
  }
  return { verdict: "superseded", claim: claim.change, transaction: tx };
}

/** Parses the POSTed body, reads the transaction once and judges. */
export async function confirm(body: string, read: Reader): Promise<Verdict> {
  const event = parseEvent(body);
  if (event === undefined) return { verdict: "unconfirmed", reason: "unknown reference", detail: "no reference or status" };
  let tx: ReadTransaction | undefined;
  try {
    tx = await read(event.reference);
  } catch (error) {
    return { verdict: "unconfirmed", reason: "request failed", detail: String(error) };
  }
  if (tx === undefined) return { verdict: "unconfirmed", reason: "unknown reference" };
  return judge(event, tx);
}

/** The verdict's kind as the shared table names it. */
export function kind(verdict: Verdict): string {
  return verdict.verdict === "unconfirmed" ? verdict.reason : verdict.verdict;
}
