// JSON bodies: present and an object, or a 400 that says how to send one.
import type { FastifyRequest } from 'fastify';
import { httpError } from '../envelope.js';

export function jsonObjectBody(request: FastifyRequest): Record<string, unknown> {
  const body = request.body;
  if (body === undefined || body === null) {
    throw httpError(400, 'The request body is missing: send a JSON object with Content-Type: application/json.', 'invalid_request');
  }
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw httpError(400, 'The request body must be a JSON object (Content-Type: application/json).', 'invalid_request');
  }
  return body as Record<string, unknown>;
}
