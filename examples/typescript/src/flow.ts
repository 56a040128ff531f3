// The whole API flow through openapi-fetch over the types openapi-typescript
// generates from openapi/crossborder.yaml (src/schema.d.ts), against a running
// sandbox: see "From TypeScript or Python" in the repository's README.md.
//
// Every amount is read exactly: openapi-typescript 7.13.0 types amounts as
// `number` and openapi-fetch decodes with JSON.parse (binary floating point),
// so each successful response is fetched as text (`parseAs: "text"`) and
// parsed with lossless-json, every number becoming a decimal.js Decimal; the
// `Exact<T>` type keeps the generated field names, so tsc checks each field
// the flow reads. Prints each comparison; exits 1 on the first difference.
//
// Environment: CROSSBORDER_BASE_URL (http://127.0.0.1:8080/v1),
// CROSSBORDER_API_KEY (test_sandbox_key), CROSSBORDER_EXPECTED (optional: a
// JSON file of the amounts the Rust SDK read for the same requests, by name;
// each is then compared too, and every one must be read), CROSSBORDER_PDF
// (the KYB document, default ../../certificate-of-incorporation.pdf from here).

import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { basename } from "node:path";

import { Decimal } from "decimal.js";
import { parse } from "lossless-json";
import createClient from "openapi-fetch";

import type { components, paths } from "./schema.js";

type Schemas = components["schemas"];

/** A response type with every number an exact Decimal. */
type Exact<T> = T extends number
  ? Decimal
  : T extends (infer U)[]
    ? Exact<U>[]
    : T extends object
      ? { [K in keyof T]: Exact<T[K]> }
      : T;

const BASE_URL = process.env.CROSSBORDER_BASE_URL ?? "http://127.0.0.1:8080/v1";
const API_KEY = process.env.CROSSBORDER_API_KEY ?? "test_sandbox_key";
const PDF =
  process.env.CROSSBORDER_PDF ??
  new URL("../../certificate-of-incorporation.pdf", import.meta.url).pathname;

// The amounts this flow sends (the Rust reference sends the same).
const QUOTE_AMOUNT = new Decimal("123.45");
const COLLECTION_AMOUNT = new Decimal("50000.10");
const SAME_CURRENCY_PAYOUT = new Decimal("1000.50");

class Difference extends Error {}

function same<T>(what: string, got: T, want: T): void {
  const g = JSON.stringify(got);
  const w = JSON.stringify(want);
  if (g !== w) throw new Difference(`${what}: read ${g}, expected ${w}`);
  console.log(`ok  ${what}: ${g}`);
}

function sameAmount(what: string, got: Decimal, want: Decimal): void {
  if (!got.eq(want)) throw new Difference(`${what}: read ${got}, expected ${want}`);
  console.log(`ok  ${what}: ${got}`);
}

const expected: Record<string, string> = process.env.CROSSBORDER_EXPECTED
  ? JSON.parse(readFileSync(process.env.CROSSBORDER_EXPECTED, "utf8"))
  : {};
const read = new Set<string>();

/** The body's text parsed with every number an exact Decimal. */
function exact<T>(text: unknown, what: string): Exact<T> {
  if (typeof text !== "string") throw new Difference(`${what}: no body text`);
  return parse(text, null, (digits) => new Decimal(digits)) as Exact<T>;
}

/** An amount read exactly; compared with what the Rust SDK read, when given. */
function amount(name: string, value: Decimal | undefined): Decimal {
  if (!(value instanceof Decimal)) throw new Difference(`${name}: missing from the response`);
  const want = expected[name];
  if (want !== undefined) {
    if (!value.eq(want)) throw new Difference(`${name}: read ${value}, the Rust SDK read ${want}`);
    read.add(name);
    console.log(`ok  ${name} = ${value} (the Rust SDK read ${want})`);
  } else {
    console.log(`ok  ${name} = ${value}`);
  }
  return value;
}

/** A request amount for a `number` field: refused unless the number's
 * shortest text (what JSON.stringify writes) is the decimal itself. */
function asNumber(value: Decimal): number {
  const n = value.toNumber();
  if (!new Decimal(String(n)).eq(value)) {
    throw new Difference(`${value} cannot be sent exactly as a JSON number from JavaScript`);
  }
  return n;
}

function ok<T>(result: { data?: T; error?: unknown; response: Response }, what: string): T {
  if (!result.response.ok || result.data === undefined) {
    throw new Difference(`${what}: HTTP ${result.response.status}: ${JSON.stringify(result.error)}`);
  }
  return result.data;
}

async function main(): Promise<void> {
  const run = randomUUID().replace(/-/g, "").slice(0, 12);
  const client = createClient<paths>({ baseUrl: BASE_URL, headers: { "x-api-key": API_KEY } });
  console.log(`typescript flow against ${BASE_URL} (run ${run})`);

  const balance = async (currency: Schemas["Currency"], name: string): Promise<Decimal> => {
    const r = await client.GET("/api/balance/{currency}", {
      params: { path: { currency } },
      parseAs: "text",
    });
    return amount(name, exact<Schemas["BalanceResponse"]>(ok(r, name), name).data.balance);
  };

  const ngnStart = await balance("NGN", "balance.NGN.start");
  const usdStart = await balance("USD", "balance.USD.start");

  // A quote pinned to a rail.
  const qr = await client.GET("/api/qoutes/{fromCurrency}/{toCurrency}/{amount}", {
    params: {
      path: { fromCurrency: "USD", toCurrency: "NGN", amount: asNumber(QUOTE_AMOUNT) },
      query: { rail: "swift" },
    },
    parseAs: "text",
  });
  const quote = exact<Schemas["QuoteResponse"]>(ok(qr, "quote"), "quote").data;
  const q = {
    rate: amount("quote.rate", quote.rate),
    roundedRate: amount("quote.roundedRate", quote.roundedRate),
    fee: amount("quote.fee", quote.fee),
    toAmount: amount("quote.toAmount", quote.toAmount),
    totalAmount: amount("quote.totalAmount", quote.totalAmount),
  };
  sameAmount("quote.totalAmount = amount + fee", q.totalAmount, QUOTE_AMOUNT.plus(q.fee));

  // A same-currency collection, paid in full by a simulated funding.
  const reference = `ts-${run}`;
  const cr = await client.POST("/api/initiate-payment", {
    body: {
      amount: asNumber(COLLECTION_AMOUNT),
      fromCurrency: "NGN",
      toCurrency: "NGN",
      paymentReference: reference,
    },
    parseAs: "text",
  });
  const created = exact<Schemas["TransactionResponse"]>(ok(cr, "collection"), "collection").data;
  same("collection.status", created.status, "PENDING");
  amount("collection.created.amount", created.amount);
  const fr = await client.POST("/api/simulate-funding", {
    body: {
      currency: "NGN",
      amount: asNumber(COLLECTION_AMOUNT),
      narration: created.payRefrence ?? "",
      sessionId: `ts-fund-${run}`,
    },
  });
  ok(fr, "simulate-funding");
  const tr = await client.GET("/api/transaction/{paymentReference}", {
    params: { path: { paymentReference: reference } },
    parseAs: "text",
  });
  const tx = exact<Schemas["TransactionResponse"]>(ok(tr, "collection read"), "collection read").data;
  same("collection.read.status", tx.status, "COMPLETED");
  amount("collection.read.amount", tx.amount);
  const paid = amount("collection.read.paidAmount", tx.paidAmount);
  amount("collection.read.toAmount", tx.toAmount);
  amount("collection.read.totalAmount", tx.totalAmount);
  amount("collection.read.fee", tx.fee);
  amount("collection.read.rate", tx.rate);
  sameAmount("collection.read.paidAmount = amount funded", paid, COLLECTION_AMOUNT);
  const ngnFunded = await balance("NGN", "balance.NGN.funded");
  sameAmount("balance.NGN.funded = start + funded", ngnFunded, ngnStart.plus(COLLECTION_AMOUNT));

  // Payouts: one same-currency, one converting with the quote's rate key.
  const bank = {
    accountNumber: "0123456789",
    accountName: "ADAEZE OKAFOR",
    bankName: "Guaranty Trust Bank",
    bankCode: "058",
  };
  const payouts: { kind: string; session: string; from: Schemas["Currency"]; value: Decimal }[] = [
    { kind: "same", session: `ts-pay-${run}`, from: "NGN", value: SAME_CURRENCY_PAYOUT },
    { kind: "converting", session: `ts-fx-${run}`, from: "USD", value: QUOTE_AMOUNT },
  ];
  let converting: Exact<Schemas["Transaction"]> | undefined;
  for (const { kind, session, from, value } of payouts) {
    const pr = await client.POST("/api/payout", {
      body: {
        amount: value.toString(),
        fromCurrency: from,
        toCurrency: "NGN",
        sessionId: session,
        rateKey: kind === "converting" ? quote.rateKey : undefined,
        narration: `spec-reuse ${kind}`,
        ...bank,
      },
    });
    same(`payout.${kind}.sessionId echoed`, ok(pr, `payout ${kind}`).sessionId, session);
    const rr = await client.GET("/api/transaction/{paymentReference}", {
      params: { path: { paymentReference: session } },
      parseAs: "text",
    });
    const p = exact<Schemas["TransactionResponse"]>(ok(rr, `payout ${kind} read`), kind).data;
    same(`payout.${kind}.type`, p.type, "PAYOUT");
    same(`payout.${kind}.paymentReference`, p.paymentReference, session);
    same(`payout.${kind}.status`, p.status, "COMPLETED");
    const sent = amount(`payout.${kind}.amount`, p.amount);
    amount(`payout.${kind}.toAmount`, p.toAmount);
    amount(`payout.${kind}.totalAmount`, p.totalAmount);
    amount(`payout.${kind}.fee`, p.fee);
    amount(`payout.${kind}.rate`, p.rate);
    sameAmount(`payout.${kind}.amount = amount sent`, sent, value);
    converting = p;
  }
  for (const k of ["rate", "fee", "toAmount", "totalAmount"] as const) {
    sameAmount(`payout.converting.${k} = quote.${k}`, converting?.[k] ?? new Decimal(-1), q[k]);
  }
  sameAmount(
    "balance.NGN.end = funded - payout",
    await balance("NGN", "balance.NGN.end"),
    ngnFunded.minus(SAME_CURRENCY_PAYOUT),
  );
  sameAmount(
    "balance.USD.end = start - quote.totalAmount",
    await balance("USD", "balance.USD.end"),
    usdStart.minus(q.totalAmount),
  );

  // Banks.
  const banks = ok(
    await client.GET("/api/bank-list/{fromCurrency}/{toCurrency}", {
      params: { path: { fromCurrency: "NGN", toCurrency: "NGN" } },
    }),
    "bank list",
  ).data;
  same(
    "bank list has 058",
    banks.filter((b) => b.code === "058").map((b) => b.name),
    ["Guaranty Trust Bank"],
  );
  const resolved = ok(
    await client.POST("/api/resolve-bank", {
      body: { accountNumber: "0123456789", bankCode: "058", fromCurrency: "NGN", toCurrency: "NGN" },
    }),
    "resolve-bank",
  ).data;
  same("resolve-bank accountName", resolved.accountName, "ADAEZE OKAFOR");

  // KYB: a real PDF uploaded as multipart, then the business and its people.
  // openapi-typescript 7.13.0 types a `format: binary` field as string, so the
  // Blob is cast; the body serializer sends it as the multipart part `file`.
  const pdf = readFileSync(PDF);
  const upload = ok(
    await client.POST("/api/upload-document", {
      body: { file: new Blob([pdf], { type: "application/pdf" }) as unknown as string },
      bodySerializer: (body) => {
        const form = new FormData();
        form.append("file", body.file as unknown as Blob, basename(PDF));
        return form;
      },
    }),
    "upload",
  );
  const link = upload.data.link;
  // The link is not an operation of the spec; it is read with the uploader's key.
  const download = await fetch(link, { headers: { "x-api-key": API_KEY } });
  const stored = Buffer.from(await download.arrayBuffer());
  same("uploaded document's bytes equal the file's", stored.equals(pdf), true);
  const doc = (key: string) => ({ url: link, key });
  const address = {
    houseNumber: "12",
    street: "Admiralty Way",
    city: "Lekki",
    state: "Lagos",
    zipCode: "106104",
  };
  const business = ok(
    await client.POST("/api/business", {
      body: {
        name: "Lagos Trading Ltd",
        businessType: "LLC",
        registrationNumber: `RC${run}`,
        email: "compliance@lagostrading.ng",
        phoneNumber: "+2348012345678",
        natureOfBusiness: { nature: "Wholesale", code: "4652" },
        businessAddress: address,
        proofOfAddress: { url: link, key: "utility", type: "Utility bill" },
        documents: {
          cac_document: doc("cac_document"),
          bank_statement: doc("bank_statement"),
          application_letter: doc("application_letter"),
          cac_status_report: doc("cac_status_report"),
        },
      },
    }),
    "create business",
  ).data;
  same("business.status after create", business.status, "PENDING");
  const businessId = { params: { path: { businessId: business.id } } };
  const person: Schemas["PersonRequest"] = {
    firstName: "Adaeze",
    lastName: "Okafor",
    dateOfBirth: "1985-04-12",
    nationality: "NG",
    phoneNumber: "+2348031234567",
    idNumber: "A12345678",
    idType: "currentPassport",
    idDocumentUrl: link,
    address,
    document: doc("director-utility"),
  };
  const director = ok(
    await client.POST("/api/business/{businessId}/director", { ...businessId, body: person }),
    "director",
  ).data;
  same("director.role", [director.role, director.businessId], ["DIRECTOR", business.id]);
  const ubo = ok(
    await client.POST("/api/business/{businessId}/ubo", {
      ...businessId,
      body: { ...person, ownershipPercentage: "60" },
    }),
    "ubo",
  ).data;
  same("ubo.role, submitted", [ubo.role, ubo.submitted, ubo.businessStatus], ["UBO", true, "SUBMITTED"]);
  const decided = ok(await client.GET("/api/business/{businessId}", businessId), "business status").data;
  same("business.status decided", decided.status, "APPROVED");

  const hook = ok(
    await client.PUT("/api/set-webhook", { body: { webhookUrl: "http://127.0.0.1:9/hook" } }),
    "set-webhook",
  );
  same("set-webhook message", hook.message, "Webhook URL set successfully");

  // One documented error of each kind, decoded as the generated ErrorResponse.
  const error = (
    r: { error?: Schemas["ErrorResponse"]; response: Response },
    status: number,
    message: string,
  ): Schemas["ErrorResponse"] => {
    same(`HTTP ${status} status`, [r.response.status, r.error?.statusCode], [status, status]);
    same(`HTTP ${status} message`, r.error?.message, message);
    return r.error as Schemas["ErrorResponse"];
  };
  const ngn = { params: { path: { currency: "NGN" as const } } };
  const wrongKey = createClient<paths>({ baseUrl: BASE_URL, headers: { "x-api-key": "test_unknown_key" } });
  error(await wrongKey.GET("/api/balance/{currency}", ngn), 401, "Invalid api key");
  const noKey = createClient<paths>({ baseUrl: BASE_URL });
  error(await noKey.GET("/api/balance/{currency}", ngn), 403, "API key header needed");
  const rule = "is required when toCurrency is NGN";
  const fields = ["accountNumber", "accountName", "bankName", "bankCode"];
  const bad = error(
    await client.POST("/api/payout", {
      body: { amount: "1", fromCurrency: "NGN", toCurrency: "NGN", sessionId: `ts-bad-${run}` },
    }),
    400,
    fields.map((f) => `${f}: ${rule}`).join("; "),
  );
  same(
    "HTTP 400 field errors",
    (bad.errors ?? []).map((e) => [e.field, e.message]),
    fields.map((f) => [f, rule]),
  );
  const missing = `ts-missing-${run}`;
  error(
    await client.GET("/api/transaction/{paymentReference}", {
      params: { path: { paymentReference: missing } },
    }),
    404,
    `Transaction not found: ${missing}`,
  );

  const unread = Object.keys(expected).filter((name) => !read.has(name));
  if (unread.length > 0) {
    throw new Difference(`amounts the Rust SDK read that this flow did not: ${unread.join(", ")}`);
  }
  const against =
    Object.keys(expected).length > 0
      ? `${read.size} amounts equal to the Rust SDK's`
      : "no Rust SDK reference given";
  console.log(`typescript flow: every comparison held (${against})`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Difference ? `DIFFERENCE ${err.message}` : err);
  process.exit(1);
});
