// POST /feedback-rewrite (spec 4.13): free; deterministic, or through the language-model engine
// when the sandbox was started with one (docs/sandbox.md).
import type { FastifyInstance, FastifyReply } from 'fastify';
import { API_PREFIX, OPERATIONS } from '../../api/operations.js';
import { FeedbackRewriteRequest } from '../../api/schemas.js';
import type { SandboxContext } from '../context.js';
import { httpError, sendData, validationError } from '../http/envelope.js';
import { rewrite } from '../engines/feedback-rewrite.js';
import { GraderFailure } from '../engines/llm/types.js';
import { jsonObjectBody } from '../http/body.js';

export function rewriteRoutes(app: FastifyInstance, ctx: SandboxContext): void {
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
      const result = ctx.grader ? await engineRewrite(ctx, body, reply) : rewrite(body);
      return sendData(reply, {
        style: body.style,
        ...(body.target_item !== undefined ? { target_item: body.target_item } : {}),
        sections: result.sections,
      });
    },
  });
}

/** The engine's rewrite; its failures as 503 (server down or slow: try again) or 502 (it answered, unusably). */
async function engineRewrite(ctx: SandboxContext, body: FeedbackRewriteRequest, reply: FastifyReply) {
  // A caller that hangs up stops the model's work too.
  const gone = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) gone.abort();
  });
  try {
    return await ctx.grader!.rewrite(body, gone.signal);
  } catch (err) {
    if (!(err instanceof GraderFailure)) throw err;
    if (err.kind === 'unreachable' || err.kind === 'timeout' || err.kind === 'server') {
      reply.header('retry-after', '5');
      throw httpError(503, err.message, 'grader_unavailable');
    }
    throw httpError(502, err.message, err.kind === 'invalid' ? 'grader_invalid_reply' : 'grader_refused');
  }
}
