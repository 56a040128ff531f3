// Exact money both ways, never through a binary float. The spec types
// request and response amounts as JSON numbers (`format: decimal`, B65),
// except the payout's `amount`, a string (`DecimalString`); openapi-typescript
// types both kinds of number as `number` and openapi-fetch decodes with
// JSON.parse. So: read the response text with every number a decimal.js
// Decimal, write Decimal amounts into the JSON text digit for digit, and keep
// the one cast the generated types need in this file.
//
//   const client = createClient<paths>({ baseUrl, headers, bodySerializer: writeExact });
//   await client.POST("/api/initiate-payment", { body: exactBody<Body>({ amount: new Decimal("50000.10"), ... }) });
//   const r = await client.GET("/api/transaction/{paymentReference}", { params, parseAs: "text" });
//   const tx = readExact<Schemas["TransactionResponse"]>(r.data).data; // tx.paidAmount is a Decimal

import { Decimal } from "decimal.js";
import { parse, stringify } from "lossless-json";

/** A type with every `number` an exact Decimal (a response as read, a
 * request as written). */
export type Exact<T> = T extends number
  ? Decimal
  : T extends (infer U)[]
    ? Exact<U>[]
    : T extends object
      ? { [K in keyof T]: Exact<T[K]> }
      : T;

/** The body text parsed with every number an exact Decimal. */
export function readExact<T>(text: unknown): Exact<T> {
  if (typeof text !== "string") throw new TypeError("readExact needs the body's text (parseAs: \"text\")");
  return parse(text, null, (digits) => new Decimal(digits)) as Exact<T>;
}

/** A decimal in plain notation, never with an exponent: what a JSON number,
 * a path segment or a `DecimalString` carries. */
export function plain(value: Decimal): string {
  if (!value.isFinite()) throw new RangeError(`${value} is not an amount`);
  return value.toFixed();
}

const DECIMAL_NUMBER = { test: (v: unknown) => Decimal.isDecimal(v), stringify: (v: unknown) => plain(v as Decimal) };

/** JSON text of a request body whose amounts are Decimals, each written as
 * a JSON number with exactly its digits (openapi-fetch's `bodySerializer`). */
export function writeExact(body: unknown): string {
  const text = stringify(body, null, undefined, [DECIMAL_NUMBER]);
  if (text === undefined) throw new TypeError("the body cannot be written as JSON");
  return text;
}

/** A request body built with Decimal amounts, passed where the generated
 * type says `number` (send it with `bodySerializer: writeExact`). */
export function exactBody<T>(body: Exact<T>): T {
  return body as unknown as T;
}

/** A path amount (the quote's `{amount}`): the decimal's plain text where
 * the generated type says `number`. */
export function pathAmount(value: Decimal): number {
  return plain(value) as unknown as number;
}

/** A `DecimalString` (a payout's `amount`): no sign, no exponent. */
export function decimalString(value: Decimal): string {
  const text = plain(value);
  if (!/^[0-9]+(\.[0-9]+)?$/.test(text)) throw new RangeError(`${text} is not a DecimalString (no sign, no exponent)`);
  return text;
}
