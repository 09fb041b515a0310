// POST /feedback-rewrite (spec 4.13): deterministic, free, synchronous.
import type { FastifyInstance } from 'fastify';
import { API_PREFIX, OPERATIONS } from '../../api/operations.js';
import { FeedbackRewriteRequest } from '../../api/schemas.js';
import type { SandboxContext } from '../context.js';
import { httpError, sendData, validationError } from '../envelope.js';
import { rewrite } from '../rewrite.js';
import { jsonObjectBody } from './body.js';

export function rewriteRoutes(app: FastifyInstance, _ctx: SandboxContext): void {
  app.route({
    ...OPERATIONS.feedbackRewrite,
    url: API_PREFIX + OPERATIONS.feedbackRewrite.path,
    handler: async (request, reply) => {
      const parsed = FeedbackRewriteRequest.safeParse(jsonObjectBody(request));
      if (!parsed.success) throw validationError(parsed.error);
      const body = parsed.data;
      // Field limits (field-limits.ts) keep each number within 0 to 10,000; a score must also fit its section.
      body.sections.forEach((s, i) => {
        if (s.score > s.max_score) {
          throw httpError(400, `sections[${i}].score is ${s.score}, more than its max_score ${s.max_score}: a score is out of its section's maximum.`, 'number_out_of_range',
            [{ path: `sections[${i}].score`, message: `must not be more than max_score (${s.max_score})` }]);
        }
      });
      if (body.target_item !== undefined && !body.sections.some((s) => s.item.trim().toLowerCase() === body.target_item!.trim().toLowerCase())) {
        throw httpError(400, `target_item "${body.target_item}" is not the item of any section; sections hold: ${body.sections.map((s) => `"${s.item}"`).join(', ')}.`, 'invalid_request',
          [{ path: 'target_item', message: 'matches no section item' }]);
      }
      const result = rewrite(body);
      return sendData(reply, {
        style: body.style,
        ...(body.target_item !== undefined ? { target_item: body.target_item } : {}),
        sections: result.sections,
      });
    },
  });
}
