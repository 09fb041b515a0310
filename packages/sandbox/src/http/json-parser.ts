// The application/json parser of every route: fastify's (the same prototype-poisoning guard, the
// route's size limit), except that an empty body means "no body", and that a big body is parsed
// and fingerprinted on a request thread (json-body.ts), not on the thread that answers every
// other client: a batch of 100 answers of 300 KB held it 0.6 to 1.4 s (docs/benchmarks.md).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errorCodes } from 'fastify';
import type { Engines } from '../engines/jobs.js';
import { jobRefusal } from '../engines/work/refusals.js';
import { tooDeepError } from './field-limits.js';
import { type JsonBody, readJsonBody } from './json-body.js';

/** Bodies up to this are parsed here: about 2.5 ms with their fingerprint on the 2-core machine (1 MB: 18 ms). */
const INLINE_BODY_BYTES = 256 * 1024;

/** Fingerprints computed with a body's parse, by request (the others are computed when asked). */
const fingerprints = new WeakMap<FastifyRequest, string>();

export function installJsonParser(app: FastifyInstance, engines: Engines): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const bytes = body as Buffer;
    if (bytes.length <= INLINE_BODY_BYTES) {
      answer(request, readJsonBody(bytes, false), done);
      return;
    }
    engines.readJsonBody(bytes).then(
      (read) => answer(request, read, done),
      (err: unknown) => done((jobRefusal(err, 'reading the request body') ?? err) as Error, undefined),
    );
  });
}

function answer(request: FastifyRequest, read: JsonBody, done: (err: Error | null, body?: unknown) => void): void {
  if (read.kind === 'empty') done(null, undefined);
  else if (read.kind === 'invalid') done(new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY(), undefined);
  else if (read.kind === 'too_deep') done(tooDeepError(read.path), undefined);
  else {
    if (read.fingerprint !== undefined) fingerprints.set(request, read.fingerprint);
    done(null, read.value);
  }
}

/** The fingerprint of the request's JSON body computed with its parse, if it was. */
export function bodyFingerprint(request: FastifyRequest): string | undefined {
  return fingerprints.get(request);
}
