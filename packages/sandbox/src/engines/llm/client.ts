// One chat-completions call to an OpenAI-compatible server, with the engine's own connection
// pool and time limits, and every way it can go wrong turned into a GraderFailure a person can act
// on. The API key goes in the Authorization header to the configured URL and nowhere else: undici's
// request() follows no redirect, and no message repeats the key.
import { Agent, errors, request } from 'undici';
import type { ChatMessage, JsonSchema } from './prompt.js';
import { ReplyProblem } from './reply.js';
import { GraderFailure, type GraderOptions } from './types.js';

/** Fixed, so the same task asks the same question the same way (servers that honour it repeat themselves). */
const SEED = 7;
const DEFAULT_TIMEOUT_MS = 120_000;
const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
const MAX_REPLY_BYTES = 4 * 1024 * 1024;

/** The server rejected `response_format: json_schema`: the engine asks again with the schema in the prompt. */
export class SchemaUnsupported extends Error {}

export interface ChatRequest {
  messages: ChatMessage[];
  /** Structured output; undefined to rely on the prompt alone. */
  schema: JsonSchema | undefined;
  maxTokens: number;
}

export class ChatClient {
  private readonly agent: Agent;
  private readonly endpoint: string;
  private readonly timeoutMs: number;

  constructor(private readonly options: GraderOptions) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.endpoint = `${options.url.replace(/\/+$/, '')}/chat/completions`;
    this.agent = new Agent({
      connect: { timeout: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS },
      connections: Math.max(1, options.concurrency ?? 2),
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
    });
  }

  /** Where the engine sends requests, for messages: the URL without any credentials in it. */
  get where(): string {
    const u = new URL(this.options.url);
    u.username = '';
    u.password = '';
    return u.href.replace(/\/+$/, '');
  }

  /** The text of the first choice. Throws GraderFailure, SchemaUnsupported, ReplyProblem, or the task's abort. */
  async complete(req: ChatRequest, signal: AbortSignal): Promise<string> {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const body = {
      model: this.options.model,
      messages: req.messages,
      temperature: 0,
      seed: SEED,
      max_tokens: req.maxTokens,
      stream: false,
      ...(req.schema
        ? { response_format: { type: 'json_schema', json_schema: { name: req.schema.name, strict: true, schema: req.schema.schema } } }
        : {}),
    };
    let status: number;
    let text: string;
    try {
      const res = await request(this.endpoint, {
        method: 'POST',
        dispatcher: this.agent,
        signal: AbortSignal.any([signal, timeout]),
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          'user-agent': 'kct-sandbox (grader)',
          ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}),
        },
        body: JSON.stringify(body),
      });
      status = res.statusCode;
      text = await readLimited(res.body);
    } catch (err) {
      if (signal.aborted) throw signal.reason;
      throw this.transportFailure(err, timeout.aborted);
    }
    if (status >= 200 && status < 300) return contentOf(text);
    const detail = this.redact(serverMessage(text));
    if ((status === 400 || status === 422) && req.schema && /response_format|json_schema|schema|structured/i.test(detail)) {
      throw new SchemaUnsupported(detail);
    }
    throw this.statusFailure(status, detail);
  }

  async close(): Promise<void> {
    // Not close(): that would wait out a request the model never answers (up to --grader-timeout).
    await this.agent.destroy();
  }

  private transportFailure(err: unknown, timedOut: boolean): GraderFailure {
    const e = err as { code?: string; name?: string; cause?: { code?: string } };
    const code = e.code ?? e.cause?.code ?? e.name ?? 'error';
    if (timedOut || err instanceof errors.HeadersTimeoutError || err instanceof errors.BodyTimeoutError) {
      return new GraderFailure(
        `The grading model at ${this.where} did not answer within ${this.timeoutMs / 1000} s. Submit again when it is less busy, or start the sandbox with a longer --grader-timeout.`,
        'timeout',
        true,
      );
    }
    return new GraderFailure(
      `The grading model at ${this.where} could not be reached (${code}). Check that the server is running (for Ollama: ollama serve) and that --grader-url is right, then submit again.`,
      'unreachable',
      true,
    );
  }

  private statusFailure(status: number, detail: string): GraderFailure {
    const said = detail ? `: ${detail}` : '';
    if (status === 401 || status === 403) {
      return new GraderFailure(
        `The grading model at ${this.where} refused the request (HTTP ${status}${said}). Check the key in KCT_GRADER_API_KEY.`,
        'refused',
        true,
      );
    }
    if (status === 404) {
      return new GraderFailure(
        `The grading model at ${this.where} does not know the model "${this.options.model}" or the route /chat/completions (HTTP 404${said}). Check --grader-model and --grader-url (it ends in /v1 for Ollama).`,
        'refused',
        true,
      );
    }
    if (status === 429 || status >= 500) {
      return new GraderFailure(`The grading model at ${this.where} answered HTTP ${status}${said}. Submit again.`, 'server', true);
    }
    return new GraderFailure(`The grading model at ${this.where} rejected the request (HTTP ${status}${said}).`, 'refused', true);
  }

  /** A server's words, without the key should it echo it back. */
  private redact(text: string): string {
    const key = this.options.apiKey;
    return key ? text.split(key).join('[key]') : text;
  }
}

async function readLimited(body: AsyncIterable<Buffer | Uint8Array>): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > MAX_REPLY_BYTES) throw Object.assign(new Error('reply over 4 MB'), { code: 'REPLY_TOO_LARGE' });
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** An error body's message, short: OpenAI's {error: {message}}, Ollama's {error: "..."}, or the text. */
function serverMessage(text: string): string {
  let message = text;
  try {
    const parsed = JSON.parse(text) as { error?: { message?: string } | string; message?: string };
    message = (typeof parsed.error === 'string' ? parsed.error : parsed.error?.message) ?? parsed.message ?? text;
  } catch {
    /* not JSON */
  }
  const line = message.replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 197)}...` : line;
}

function contentOf(text: string): string {
  let parsed: { choices?: { message?: { content?: unknown; refusal?: unknown }; finish_reason?: string }[] };
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ReplyProblem(['the server’s answer is not a chat completion (not JSON)']);
  }
  const choice = parsed.choices?.[0];
  if (typeof choice?.message?.refusal === 'string' && choice.message.refusal)
    throw new ReplyProblem([`the model refused: ${choice.message.refusal.slice(0, 200)}`]);
  const content = choice?.message?.content;
  if (typeof content !== 'string' || content.trim() === '') throw new ReplyProblem(['the reply has no message content']);
  if (choice?.finish_reason === 'length') throw new ReplyProblem(['the reply was cut off at the token limit']);
  return content;
}
