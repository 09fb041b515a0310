// The fastify application: one pipeline for every request (request id, authentication, route,
// validation, handler) and one envelope for every answer.
import { randomBytes } from 'node:crypto';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { API_PREFIX, OPERATIONS } from '../api/operations.js';
import type { OperationName } from '../api/operations.js';
import { authHook } from './auth.js';
import type { SandboxContext } from './context.js';
import { httpError, installErrorHandling } from './envelope.js';
import { MULTIPART_LIMITS } from './multipart.js';
import { assignmentRoutes } from './routes/assignments.js';
import { batchRoutes } from './routes/batch.js';
import { creditsRoutes } from './routes/credits.js';
import { evaluationRoutes } from './routes/evaluations.js';
import { legacyRoutes } from './routes/legacy.js';
import { modelBuildingRoutes } from './routes/model-building.js';
import { modelsRoutes } from './routes/models.js';
import { onePassRoutes } from './routes/one-pass.js';
import { rewriteRoutes } from './routes/rewrite.js';
import { taskRoutes } from './routes/tasks.js';
import { publicFileRoutes, uploadRoutes } from './routes/uploads.js';

/** Operations served so far; anything else in the route table answers 501. */
const IMPLEMENTED = new Set<OperationName>([
  'getCredits', 'listModels', 'onePass', 'getStatus', 'getResult', 'cancel',
  'createAssignment', 'createEvaluation', 'batch', 'uploadFile', 'feedbackRewrite',
  'questionsPreview', 'rubricsPreview', 'createModel',
]);

export function buildApp(ctx: SandboxContext): FastifyInstance {
  const { bodyLimit, log } = ctx.settings;
  const app = Fastify({
    logger: false,
    bodyLimit,
    genReqId: () => `req_${randomBytes(12).toString('hex')}`,
    requestIdHeader: false,
    // fastify's own 503 body would break the one-envelope rule; requests in flight finish instead.
    return503OnClosing: false,
  });
  app.decorateRequest('principal', null);
  installJsonParser(app, bodyLimit);
  app.register(multipart, { limits: MULTIPART_LIMITS });
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('x-request-id', request.id);
    return payload;
  });
  if (log) {
    app.addHook('onResponse', async (request, reply) => {
      log(`${request.method} ${request.url} ${reply.statusCode} ${Math.round(reply.elapsedTime)}ms ${request.id}`);
    });
  }
  installErrorHandling(app, bodyLimit, log);

  app.register(async (v1) => {
    v1.addHook('onRequest', authHook(ctx.store));
    creditsRoutes(v1, ctx);
    modelsRoutes(v1, ctx);
    onePassRoutes(v1, ctx);
    batchRoutes(v1, ctx);
    evaluationRoutes(v1, ctx);
    taskRoutes(v1, ctx);
    assignmentRoutes(v1, ctx);
    uploadRoutes(v1, ctx);
    rewriteRoutes(v1, ctx);
    modelBuildingRoutes(v1, ctx);
    for (const [name, op] of Object.entries(OPERATIONS) as [OperationName, (typeof OPERATIONS)[OperationName]][]) {
      if (IMPLEMENTED.has(name)) continue;
      v1.route({
        method: op.method,
        url: API_PREFIX + op.path,
        handler: async () => {
          throw httpError(501, `${op.method} ${API_PREFIX}${op.path} is part of API v1 but this sandbox does not implement it yet.`, 'not_implemented');
        },
      });
    }
  });
  publicFileRoutes(app, ctx);
  legacyRoutes(app);
  return app;
}

/** fastify's JSON parser (with its prototype-poisoning guard), but an empty body means "no body". */
function installJsonParser(app: FastifyInstance, bodyLimit: number): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    parseJson(request, text, done);
  });
}
