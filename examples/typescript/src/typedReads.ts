// Typed reads with exact amounts. Reading amounts exactly needs the body's
// text (`parseAs: "text"`), and then openapi-fetch types `data` as `string`:
// the link from the path to its response type is lost, each call names a
// schema by hand, and a wrong one compiles. This wrapper keeps the link: the
// response type comes from the generated `paths` for the path and method
// (its 2xx `application/json` body), with every `number` an exact Decimal
// (money.ts's `Exact`), so the caller names no schema and a wrong one does
// not compile. Copy it next to money.ts:
//
//   const reads = typedReads(createClient<paths>({ baseUrl, headers, bodySerializer: writeExact }));
//   const r = await reads.GET("/api/balance/{currency}", { params: { path: { currency: "NGN" } } });
//   if (r.data) r.data.data.balance; // a Decimal, typed from the path

import type { Client, MaybeOptionalInit } from "openapi-fetch";

import { readExact, type Exact } from "./money.js";
import type { paths } from "./schema.js";

type Method = "get" | "post";
type Success = 200 | 201 | 202;

/** The paths with an operation for `M`. */
export type PathsWith<M extends Method> = {
  [P in keyof paths]: paths[P] extends { [K in M]: object } ? P : never;
}[keyof paths];

type Operation<P extends keyof paths, M extends Method> = paths[P] extends { [K in M]: infer Op } ? Op : never;

type JsonOf<R> = R extends { content: { "application/json": infer Body } } ? Body : never;

/** The declared 2xx JSON body of `M` on `P`. */
export type ResponseBody<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { responses: infer Rs }
    ? { [S in keyof Rs]: S extends Success ? JsonOf<Rs[S]> : never }[keyof Rs]
    : never;

/** The declared non-2xx JSON bodies of `M` on `P` (decoded by openapi-fetch,
 * so not exact). */
export type ErrorBody<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { responses: infer Rs }
    ? { [S in keyof Rs]: S extends Success ? never : JsonOf<Rs[S]> }[keyof Rs]
    : never;

/** What a call takes: openapi-fetch's own options for the path and method
 * (params, body, headers), less `parseAs`, which the wrapper sets. */
export type ReadInit<P extends keyof paths, M extends Method> = Omit<MaybeOptionalInit<paths[P], M>, "parseAs">;

type Args<I> = object extends I ? [init?: I] : [init: I];

/** The answer: `data` on a 2xx, with every number exact; `error` otherwise. */
export type ReadResult<P extends keyof paths, M extends Method> =
  | { data: Exact<ResponseBody<P, M>>; error?: never; response: Response }
  | { data?: never; error: ErrorBody<P, M>; response: Response };

export interface TypedReads {
  GET<P extends PathsWith<"get">>(path: P, ...init: Args<ReadInit<P, "get">>): Promise<ReadResult<P, "get">>;
  POST<P extends PathsWith<"post">>(path: P, ...init: Args<ReadInit<P, "post">>): Promise<ReadResult<P, "post">>;
}

type Untyped = (path: string, init: object) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

/** `client`'s GET and POST, answering with the path's own response type,
 * every amount read exactly. */
export function typedReads(client: Client<paths>): TypedReads {
  const call = async (send: Untyped, path: string, init: object | undefined) => {
    const r = await send(path, { ...init, parseAs: "text" });
    if (r.response.ok) return { data: readExact(r.data), response: r.response };
    return { error: r.error, response: r.response };
  };
  // The one cast: openapi-fetch's methods are generic over the path; the
  // types above give the answer its type.
  const get = client.GET as unknown as Untyped;
  const post = client.POST as unknown as Untyped;
  return {
    GET: (path, ...init) => call(get, path, init[0]) as never,
    POST: (path, ...init) => call(post, path, init[0]) as never,
  };
}
