// The retired integration's routes (spec 9): a 404 that points at the v1 replacement.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API_PREFIX } from 'kct/api/operations.js';
import { httpError, sendError } from '../http/envelope.js';

const REPLACEMENTS: Record<string, string> = {
  start: `POST ${API_PREFIX}/evaluations (with an assignment_id), or POST ${API_PREFIX}/evaluations/one-pass (with a model_id)`,
  result: `GET ${API_PREFIX}/evaluations/{taskId}`,
};
const QUEUE_POLLING = `GET ${API_PREFIX}/evaluations/{taskId}/status`;

function replacementFor(url: string): string {
  const action = url.split('?')[0].replace(/\/+$/, '').split('/').pop() ?? '';
  return REPLACEMENTS[action] ?? `${QUEUE_POLLING} (queue polling), or GET ${API_PREFIX}/models instead of implicit model assumptions`;
}

export function legacyRoutes(app: FastifyInstance): void {
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0];
    return sendError(
      reply,
      httpError(
        404,
        `${path} belongs to the retired /api/open/evaluation integration. Use ${replacementFor(request.url)} of API v1, with your key in the X-API-Key header.`,
        'legacy_route',
      ),
    );
  };
  for (const prefix of ['', API_PREFIX]) {
    app.all(`${prefix}/api/open/evaluation`, handler);
    app.all(`${prefix}/api/open/evaluation/*`, handler);
  }
}
