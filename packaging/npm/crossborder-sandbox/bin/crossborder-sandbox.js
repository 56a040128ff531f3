#!/usr/bin/env node
"use strict";
// `npx crossborder-sandbox [options]`: runs this platform's binary with the
// same arguments, passing Ctrl-C and SIGTERM on so it stops gracefully.

const { spawn } = require("node:child_process");
const { binaryPath } = require("../index.js");

let bin;
try {
  bin = binaryPath();
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
const child = spawn(bin, process.argv.slice(2), { stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("error", (error) => {
  console.error(`crossborder-sandbox: cannot run ${bin}: ${error.message}`);
  process.exit(1);
});
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
