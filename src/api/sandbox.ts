// What `kct sandbox` asks of the sandbox package (kct-sandbox) and what it gets back: the one
// contract between them. The sandbox implements it (its startSandbox); kct loads the package only
// when `kct sandbox` runs, so the client never imports sandbox code.

/** The optional language-model grading engine (`kct sandbox --grader openai`). */
export interface GraderOptions {
  kind: 'openai';
  /** Base URL of an OpenAI-compatible API, e.g. http://127.0.0.1:11434/v1 (Ollama). */
  url: string;
  /** The model name the server knows, e.g. "llama3.1:8b". */
  model: string;
  /** Sent as `Authorization: Bearer …` to `url` only; never stored, logged or sent elsewhere. */
  apiKey?: string;
  /** Whole-request limit per call (ms). Default 120,000: a local model on a CPU is slow. */
  timeoutMs?: number;
  /** Limit on opening the connection (ms). Default 10,000. */
  connectTimeoutMs?: number;
  /** Calls to the model server at once, whatever the number of sandbox workers. Default 2. */
  concurrency?: number;
}

/** The seeded accounts, by name: their keys, or their passwords. */
export interface SandboxKeys {
  user: string;
  broke: string;
  org_admin: string;
  org_member: string;
  /** An organization key whose owner is no longer an admin (403). */
  former_admin: string;
}

export interface SandboxStartOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 4010; 0 takes a free port. */
  port?: number;
  /** Holds sandbox.db and the uploaded files; seeded when new. */
  dataDir: string;
  /** Sleep per stage and per progress step, in ms. Default 0 (as fast as possible). */
  latencyMs?: number;
  /** Tasks processed at once. Default 4. */
  workers?: number;
  /** Worker threads for text extraction, rubric parsing and marking. Default: the number of cores. */
  threads?: number;
  /** Time one job (reading a task's files, marking it, parsing a preview) may run, ms. Default 180,000. */
  jobTimeoutMs?: number;
  /** Heap of one worker thread, MB. Default 1024. */
  jobMemoryMb?: number;
  /** The whole request (headers and body) must arrive within this, ms. Default 60,000. */
  requestTimeoutMs?: number;
  /** The headers must arrive within this, ms. Default 10,000. */
  headersTimeoutMs?: number;
  /** A connection that sends nothing for this long while the sandbox waits for it is closed, ms. Default 10,000. */
  idleTimeoutMs?: number;
  /** Connections one client address may hold at once; more get 503. Default 256. */
  maxConnectionsPerClient?: number;
  /** Connections one API key may hold at once, from any address; more get 503. Default 64. */
  maxConnectionsPerKey?: number;
  /**
   * Requests a second each API key may make: a token bucket per key holding one second's worth
   * (at least 1); past it, 429 `rate_limited` with Retry-After. Default: no limit.
   */
  rateLimit?: number;
  /** Origin of the upload URLs it hands out, e.g. https://sandbox.school.example. Default: the listen address. */
  publicUrl?: string;
  /** Allow callbacks to loopback/private addresses and plain http (tests). Default false. */
  allowPrivateCallbacks?: boolean;
  /** Divides the sandbox's waits: the callback retry schedule and the extra time of KCT-SANDBOX-SLOW (tests). Default 1. */
  timeScale?: number;
  /** How long a model created with POST /models stays `training` before it is `ready` (ms). Default 0. */
  trainingDelayMs?: number;
  /** Receives one line per request, and internal errors. */
  log?: (line: string) => void;
  /** Mark through an OpenAI-compatible server instead of the deterministic grader (docs/sandbox.md). */
  grader?: GraderOptions;
}

/** A started sandbox: where it listens, its accounts' secrets, and how to stop it. */
export interface StartedSandbox {
  /** e.g. http://127.0.0.1:4010/v1; under publicUrl when one was given (what others are told to use). */
  baseUrl: string;
  /** The product base of the key routes (spec 5.4), the origin: e.g. http://127.0.0.1:4010 */
  productUrl: string;
  /** The address it listens on, e.g. http://0.0.0.0:4010 (the same as productUrl without publicUrl). */
  listenUrl: string;
  keys: SandboxKeys;
  /** The password of each seeded account, for the key routes' sign-in. */
  passwords: Record<keyof SandboxKeys, string>;
  /** Seeded keys revoked through the key routes: they stay revoked. */
  revokedKeys: (keyof SandboxKeys)[];
  /** Signs batch callbacks (Standard Webhooks, `whsec_…`); the same for the life of the data dir. */
  webhookSecret: string;
  close(): Promise<void>;
}

/** What the sandbox package exports for `kct sandbox`. */
export interface SandboxPackage {
  startSandbox(options: SandboxStartOptions): Promise<StartedSandbox>;
}

/** The name `kct sandbox` loads and tells people to install. */
export const SANDBOX_PACKAGE = 'kct-sandbox';
