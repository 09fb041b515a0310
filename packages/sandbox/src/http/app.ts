// The fastify application: one pipeline for every request (request id, authentication, route,
// validation, handler) and one envelope for every answer.

import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import Fastify from 'fastify';
import type { OperationName } from 'kct/api/operations.js';
import { API_PREFIX, OPERATIONS } from 'kct/api/operations.js';
import { Sessions } from '../accounts/accounts.js';
import type { SandboxContext } from '../context.js';
import { createAssignment } from '../routes/assignments.js';
import { batch } from '../routes/batch.js';
import { getCredits } from '../routes/credits.js';
import { createEvaluation } from '../routes/evaluations.js';
import { productRoutes } from '../routes/keys.js';
import { legacyRoutes } from '../routes/legacy.js';
import { createModel, questionsPreview, rubricsPreview } from '../routes/model-building.js';
import { listModels } from '../routes/models.js';
import { onePass } from '../routes/one-pass.js';
import { openApiRoutes } from '../routes/openapi.js';
import { feedbackRewrite } from '../routes/rewrite.js';
import { cancelTask, getResult, getStatus } from '../routes/tasks.js';
import { publicFileRoutes, uploadFile } from '../routes/uploads.js';
import { admissionHook } from './admission.js';
import { KeyCache } from './auth.js';
import { ConnectionCaps } from './connection-caps.js';
import { connectionAfterRefusal, requestIdFor, sandboxServer } from './connections.js';
import { httpError, installErrorHandling, REQUEST_BODY_LIMIT, sendError } from './envelope.js';
import { checkFieldLimits } from './field-limits.js';
import { duplicatedHeader } from './headers.js';
import { installJsonParser } from './json-parser.js';
import { MULTIPART_LIMITS } from './multipart.js';
import type { Operation } from './operation.js';
import { TokenBuckets } from './rate-limit.js';

/** The operations served so far; any other operation of the route table answers 501. */
const SERVED: readonly Operation[] = [
  getCredits,
  listModels,
  onePass,
  getStatus,
  getResult,
  cancelTask,
  createAssignment,
  createEvaluation,
  batch,
  uploadFile,
  feedbackRewrite,
  questionsPreview,
  rubricsPreview,
  createModel,
];

export function buildApp(ctx: SandboxContext): FastifyInstance {
  const { log, connections, rateLimit } = ctx.settings;
  const caps = new ConnectionCaps(connections);
  const app = Fastify({
    logger: false,
    serverFactory: sandboxServer(connections, caps, log),
    // Every route but the batch (ctx.settings.bodyLimit): one request's fields are far smaller.
    bodyLimit: REQUEST_BODY_LIMIT,
    genReqId: requestIdFor,
    requestIdHeader: false,
    // fastify's own 503 body would break the one-envelope rule; requests in flight finish instead.
    return503OnClosing: false,
    // A URL the router refuses before any route or hook: the same envelope as everything else.
    frameworkErrors: (err, request, reply) => {
      const refusal =
        err.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? httpError(
              404,
              'There is nothing at this URL: a part of its path is longer than any id of the API (100 characters).',
              'route_not_found',
            )
          : httpError(400, 'The URL is not valid: a part of its path is not correctly percent-encoded.', 'invalid_url');
      reply.header('x-request-id', request.id);
      const connection = connectionAfterRefusal(request.raw);
      if (connection) reply.header('connection', connection);
      sendError(reply, refusal);
    },
  });
  app.decorateRequest('principal', null);
  installJsonParser(app, ctx.engines);
  // no route reads plain text: such a body is refused as any other unsupported type (415's words, unsupported_content_type)
  app.removeContentTypeParser('text/plain');
  // A multipart body sent to a route that takes no form is accepted and left unread, as the
  // multipart plugin's own parser does; the plugin itself is registered only around the routes
  // that read forms (below), because it adds an onRequest and an onResponse hook (cleaning up
  // `saveRequestFiles()` temp files, which the sandbox never uses) to every route in its scope.
  app.addContentTypeParser('multipart/form-data', (_request, _payload, done) => done(null));
  // Before anything else: a connection over its address's cap, and headers sent twice.
  app.addHook('onRequest', (request, _reply, done) => {
    if (caps.overAddressCap(request.raw)) {
      const busy = httpError(
        503,
        `Too many connections from ${request.ip}: at most ${connections.maxConnectionsPerClient} at once. Close idle connections, or retry in a moment.`,
        'too_many_connections',
      );
      busy.headers['retry-after'] = '1';
      done(busy);
      return;
    }
    done(duplicatedHeader(request.raw.rawHeaders));
  });
  // Callback style, not async: an async hook costs a promise and defers every write by a tick.
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    done(null, payload);
  });
  if (log) {
    app.addHook('onResponse', (request, reply, done) => {
      log(`${request.method} ${request.url} ${reply.statusCode} ${Math.round(reply.elapsedTime)}ms ${request.id}`);
      done();
    });
  }
  installErrorHandling(app, log);
  // One key cache for /v1 and the key routes, so a key revoked there is refused at once here.
  const keys = new KeyCache(ctx.store);

  app.register(async (v1) => {
    v1.addHook(
      'onRequest',
      admissionHook({ store: ctx.store, keys, caps, rateLimit: rateLimit === undefined ? undefined : new TokenBuckets(rateLimit) }),
    );
    // Every JSON body's text fields, lists and marks within their limits before validation.
    v1.addHook('preValidation', (request, _reply, done) => {
      try {
        if (request.body !== null && typeof request.body === 'object') checkFieldLimits(request.body);
      } catch (err) {
        done(err as Error);
        return;
      }
      done();
    });
    // The routes that read multipart forms (request.isMultipart(), request.parts()).
    v1.register(async (forms) => {
      forms.removeContentTypeParser('multipart/form-data');
      await forms.register(multipart, { limits: MULTIPART_LIMITS });
      for (const op of SERVED) if (op.readsForms) op.register(forms, ctx);
    });
    for (const op of SERVED) if (!op.readsForms) op.register(v1, ctx);
    const implemented = new Set(SERVED.map((op) => op.name));
    for (const [name, op] of Object.entries(OPERATIONS) as [OperationName, (typeof OPERATIONS)[OperationName]][]) {
      if (implemented.has(name)) continue;
      v1.route({
        method: op.method,
        url: API_PREFIX + op.path,
        handler: async () => {
          throw httpError(
            501,
            `${op.method} ${API_PREFIX}${op.path} is part of API v1 but this sandbox does not implement it yet.`,
            'not_implemented',
          );
        },
      });
    }
  });
  productRoutes(app, ctx, { keys, sessions: new Sessions() });
  publicFileRoutes(app, ctx);
  openApiRoutes(app);
  legacyRoutes(app);
  return app;
}
