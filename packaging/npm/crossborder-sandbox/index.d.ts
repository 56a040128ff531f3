/** A running sandbox. */
export interface Sandbox {
  /** The API's base URL, `http://127.0.0.1:PORT/v1`. */
  readonly baseUrl: string;
  readonly pid: number | undefined;
  /** Stops it (SIGTERM) and waits until it has exited. */
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Extra API keys (`test_...`, `live_...`, `KEY:noaccess`): one business each. */
  keys?: string[];
  /** More command-line options (`--payout-settlement manual`, `--no-default-keys`). */
  args?: string[];
}

/** Starts a sandbox on a free loopback port; resolves once it listens. */
export function start(options?: StartOptions): Promise<Sandbox>;

/** The binary of this platform's package (or `CROSSBORDER_SANDBOX_BINARY`). */
export function binaryPath(): string;

/** The platform package of each `${process.platform}-${process.arch}`. */
export const PLATFORMS: Readonly<Record<string, string>>;
