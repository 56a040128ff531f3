"use strict";
// The launcher of the crossborder sandbox: finds the binary of this
// machine's platform package (an optional dependency, the esbuild/biome
// pattern) and starts it on a free port, reading its base URL from the
// first line it prints.

const { spawn } = require("node:child_process");
const readline = require("node:readline");

/** The platform package of each `${process.platform}-${process.arch}`. */
const PLATFORMS = {
  "darwin-arm64": "@crossborder/sandbox-darwin-arm64",
  "darwin-x64": "@crossborder/sandbox-darwin-x64",
  "linux-arm64": "@crossborder/sandbox-linux-arm64",
  "linux-x64": "@crossborder/sandbox-linux-x64",
  "win32-x64": "@crossborder/sandbox-win32-x64",
};

/** The first line the sandbox prints: `crossborder sandbox listening on <base URL>`. */
const LISTENING = /^crossborder sandbox listening on (\S+)$/;

function binaryPath() {
  if (process.env.CROSSBORDER_SANDBOX_BINARY) return process.env.CROSSBORDER_SANDBOX_BINARY;
  const platform = `${process.platform}-${process.arch}`;
  const pkg = PLATFORMS[platform];
  if (pkg === undefined) {
    throw new Error(
      `crossborder-sandbox: no binary is published for ${platform}; ` +
        "build one (cargo install crossborder-sandbox) and set CROSSBORDER_SANDBOX_BINARY",
    );
  }
  const exe = process.platform === "win32" ? "crossborder-sandbox.exe" : "crossborder-sandbox";
  try {
    return require.resolve(`${pkg}/bin/${exe}`);
  } catch {
    throw new Error(
      `crossborder-sandbox: the package ${pkg} is not installed ` +
        "(was it installed with --omit=optional or --no-optional?)",
    );
  }
}

function start(options = {}) {
  const args = ["--host", "127.0.0.1", "--port", "0", "--quiet"];
  for (const key of options.keys ?? []) args.push("--key", key);
  args.push(...(options.args ?? []));
  const child = spawn(binaryPath(), args, { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
  };
  return new Promise((resolve, reject) => {
    const lines = readline.createInterface({ input: child.stdout });
    let found = false;
    lines.on("line", (line) => {
      const match = LISTENING.exec(line);
      if (!found && match) {
        found = true;
        resolve({ baseUrl: match[1], pid: child.pid, stop });
      }
    });
    child.once("error", reject);
    exited.then((code) => {
      if (!found) reject(new Error(`crossborder-sandbox exited (${code}) before listening: ${stderr}`));
    });
  });
}

module.exports = { binaryPath, start, PLATFORMS };
