// A sandbox per test file, started from the `crossborder-sandbox` npm package
// (no Rust toolchain needed): a free loopback port, its base URL read from
// the first line it prints. Copy this file into your tests:
//
//   const sandbox = sandboxPerFile({ keys: ["test_my_suite"] });
//   test("...", async () => { const url = sandbox().baseUrl; ... });

import { after, before } from "node:test";

import { start, type Sandbox, type StartOptions } from "crossborder-sandbox";

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
