// GET /v1/openapi.json: the OpenAPI 3.1 document of the API (src/api/openapi.ts), without a key,
// naming this sandbox as its server. Built on the first request, not at start-up.
import type { FastifyInstance } from 'fastify';
import { API_PREFIX } from '../../api/operations.js';
import { VERSION } from '../../version.js';

export const OPENAPI_PATH = `${API_PREFIX}/openapi.json`;

export function openApiRoutes(app: FastifyInstance): void {
  let document: Promise<Record<string, unknown>> | undefined;
  app.get(OPENAPI_PATH, async (request, reply) => {
    document ??= import('../../api/openapi.js').then(({ openApiDocument }) => openApiDocument({ version: VERSION }));
    const servers = [{ url: `${request.protocol}://${request.host}${API_PREFIX}`, description: 'this kct sandbox' }];
    return reply.type('application/json; charset=utf-8').send({ ...(await document), servers });
  });
}
