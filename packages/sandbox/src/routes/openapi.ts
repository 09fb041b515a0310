// GET /v1/openapi.json: the OpenAPI 3.1 document of the API (src/api/openapi.ts), without a key,
// naming this sandbox as its server. Built on the first request, not at start-up.
import type { FastifyInstance } from 'fastify';
import { API_PREFIX } from 'kct/api/operations.js';

const OPENAPI_PATH = `${API_PREFIX}/openapi.json`;

export function openApiRoutes(app: FastifyInstance): void {
  let document: Promise<Record<string, unknown>> | undefined;
  app.get(OPENAPI_PATH, async (request, reply) => {
    // version.js reads package.json: loaded here too, so a sandbox embedded without it still starts
    document ??= Promise.all([import('kct/api/openapi.js'), import('../version.js')]).then(([{ openApiDocument }, { VERSION }]) =>
      openApiDocument({ version: VERSION }),
    );
    const servers = [{ url: `${request.protocol}://${request.host}${API_PREFIX}`, description: 'this kct sandbox' }];
    return reply.type('application/json; charset=utf-8').send({ ...(await document), servers });
  });
}
