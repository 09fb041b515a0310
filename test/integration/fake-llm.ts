// A fake OpenAI-compatible chat-completions server on loopback, for the language-model grading
// engine's tests. The requested `model` picks the behaviour, so one server serves every case:
//   good            a valid marking (half marks each) with a stray "total" the engine must ignore
//   fenced          the same inside ```json fences and a sentence of prose
//   malformed       not JSON, every time
//   malformed-once  not JSON, then valid when asked to repair
//   missing         leaves out the last criterion, every time
//   over-max        gives the first criterion one mark above its maximum, every time
//   error-500       HTTP 500
//   hang            never answers (until the server closes)
//   no-schema       HTTP 400 to any request with response_format; valid from the prompt otherwise
//   echo-key        HTTP 401 whose message repeats the Authorization header
//   slow            valid, after 50 ms (to see how many requests overlap)
//   generous        wants to give more than every maximum, but decodes under the schema: each score is the
//                   schema's maximum for its criterion when the schema gives one (else the mark it wanted)
//   labelled        rewrites as labelled bullets ("- Shows: …", "- Lacks: …"), whatever style is asked
// Rewrites (schema "rewrite", or a prompt asking to rewrite) get "Rewritten: <comment>".
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

export interface SeenRequest {
  model: string;
  body: any;
  headers: IncomingMessage['headers'];
}

export interface FakeLlm {
  url: string;
  requests: SeenRequest[];
  /** Most requests in flight at once. */
  peak: number;
  close(): Promise<void>;
}

/** Criterion names and maxima from the engine's prompt: lines like `- "Organisation" (maximum 5)`. */
function rubricOf(body: any): { item: string; max: number }[] {
  const user = body.messages.find((m: any) => m.role === 'user')?.content ?? '';
  return [...String(user).matchAll(/^- "(.+)" \(maximum ([\d.]+)\)/gm)].map((m) => ({ item: m[1], max: Number(m[2]) }));
}

/** Section names from a rewrite prompt: lines like `- "Organisation" (score 3 of 5):`. */
function sectionsOf(body: any): { item: string; comment: string }[] {
  const user = String(body.messages.find((m: any) => m.role === 'user')?.content ?? '');
  return [...user.matchAll(/^- "(.+)" \(score [\d.]+ of [\d.]+\):\n([^\n]*)/gm)].map((m) => ({ item: m[1], comment: m[2] }));
}

function marking(body: any, change: (entries: { item: string; score: number; feedback: string }[]) => void = () => {}): string {
  const entries = rubricOf(body).map((r) => ({
    item: r.item,
    score: r.max / 2,
    feedback: `Reaches the middle level for ${r.item}: "a short quotation". To improve, explain each point.`,
  }));
  change(entries);
  return JSON.stringify({ criteria: entries, total: 999 });
}

/** The maximum the request's JSON schema allows a criterion's score, as constrained decoding would enforce it. */
function schemaMaximum(body: any, item: string): number | undefined {
  const items = body.response_format?.json_schema?.schema?.properties?.criteria?.items;
  const entries: any[] = items?.anyOf ?? (items ? [items] : []);
  const entry =
    entries.find(
      (e) => Array.isArray(e.properties?.item?.enum) && e.properties.item.enum.length === 1 && e.properties.item.enum[0] === item,
    ) ?? entries.find((e) => e.properties?.item?.enum?.includes(item));
  return entry?.properties?.score?.maximum;
}

function rewriting(body: any): string {
  return JSON.stringify({ sections: sectionsOf(body).map((s) => ({ item: s.item, comment: `Rewritten: ${s.comment}` })) });
}

const completion = (content: string) => ({
  id: 'chatcmpl-fake',
  object: 'chat.completion',
  choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
});

export async function startFakeLlm(): Promise<FakeLlm> {
  const requests: SeenRequest[] = [];
  const hanging = new Set<ServerResponse>();
  let inFlight = 0;
  const state = { peak: 0 };
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => {
      raw += c.toString();
    });
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions')
        return send(res, 404, { error: { message: `no route ${req.method} ${req.url}` } });
      const body = JSON.parse(raw);
      requests.push({ model: body.model, body, headers: req.headers });
      const isRewrite = body.response_format?.json_schema?.name === 'rewrite' || /rewrite a teacher/i.test(body.messages[0].content);
      const answer = (content: string) => send(res, 200, completion(content));
      const mine = requests.filter((r) => r.model === body.model).length;
      switch (body.model) {
        case 'good':
          return answer(isRewrite ? rewriting(body) : marking(body));
        case 'fenced':
          return answer(`Here is the marking:\n\`\`\`json\n${marking(body)}\n\`\`\``);
        case 'malformed':
          return answer('I think this essay deserves {a good mark');
        case 'malformed-once':
          return answer(mine % 2 === 1 ? 'not json at all' : isRewrite ? rewriting(body) : marking(body));
        case 'missing':
          return answer(isRewrite ? JSON.stringify({ sections: [] }) : marking(body, (e) => e.pop()));
        case 'over-max':
          return answer(
            marking(body, (e) => {
              e[0].score = rubricOf(body)[0].max + 1;
            }),
          );
        case 'generous':
          return answer(
            marking(body, (e) => {
              for (const x of e) x.score = schemaMaximum(body, x.item) ?? x.score * 2 + 1;
            }),
          );
        case 'labelled':
          return answer(
            isRewrite
              ? JSON.stringify({
                  sections: sectionsOf(body).map((x) => ({
                    item: x.item,
                    comment: `- Shows: ${x.comment.replace(/\.$/, '')}; clear links\n- Lacks: a conclusion`,
                  })),
                })
              : marking(body),
          );
        case 'error-500':
          return send(res, 500, { error: { message: 'model crashed', type: 'server_error' } });
        case 'hang':
          hanging.add(res);
          return;
        case 'no-schema':
          if (body.response_format)
            return send(res, 400, {
              error: { message: "response_format type 'json_schema' is not supported", type: 'invalid_request_error' },
            });
          return answer(isRewrite ? rewriting(body) : marking(body));
        case 'echo-key':
          return send(res, 401, { error: { message: `Invalid credentials: ${req.headers.authorization}` } });
        case 'slow':
          inFlight++;
          state.peak = Math.max(state.peak, inFlight);
          setTimeout(() => {
            inFlight--;
            answer(isRewrite ? rewriting(body) : marking(body));
          }, 50);
          return;
        default:
          return send(res, 404, { error: { message: `model "${body.model}" not found` } });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    get peak() {
      return state.peak;
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/**
 * The fake server for a test file: started before its tests; after them, whatever the tests
 * handed to `closeLater` is closed first (newest first), then the server.
 */
export function fakeLlmForFile(): {
  readonly fake: FakeLlm;
  closeLater<T extends object>(thing: T, close: (thing: T) => Promise<unknown>): T;
} {
  let fake: FakeLlm | undefined;
  const closers: (() => Promise<unknown>)[] = [];
  beforeAll(async () => {
    fake = await startFakeLlm();
  });
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
    await fake?.close();
  });
  return {
    get fake() {
      if (!fake) throw new Error('the fake language-model server starts before the tests (beforeAll)');
      return fake;
    },
    closeLater(thing, close) {
      closers.push(() => close(thing));
      return thing;
    },
  };
}
