// POST /feedback-rewrite (spec 4.13): free; deterministic, or through the language-model engine
// when the sandbox was started with one (docs/sandbox.md).
import { FeedbackRewriteRequest } from 'kct/api/schemas.js';
import type { SandboxContext } from '../context.js';
import { rewrite } from '../engines/feedback-rewrite.js';
import { GraderFailure } from '../engines/llm/types.js';
import { HttpError, httpError } from '../http/envelope.js';
import { defineOperation } from '../http/operation.js';

export const feedbackRewrite = defineOperation(
  'feedbackRewrite',
  {
    body: FeedbackRewriteRequest,
    check: (body) => {
      // Field limits (field-limits.ts) keep each number within 0 to 10,000; a score must also fit its section.
      body.sections.forEach((s, i) => {
        if (s.score > s.max_score) {
          throw httpError(
            400,
            `sections[${i}].score is ${s.score}, more than its max_score ${s.max_score}: a score is out of its section's maximum.`,
            'number_out_of_range',
            [{ path: `sections[${i}].score`, message: `must not be more than max_score (${s.max_score})` }],
          );
        }
      });
      if (
        body.target_item !== undefined &&
        !body.sections.some((s) => s.item.trim().toLowerCase() === body.target_item!.trim().toLowerCase())
      ) {
        throw httpError(
          400,
          `target_item "${body.target_item}" is not the item of any section; sections hold: ${body.sections.map((s) => `"${s.item}"`).join(', ')}.`,
          'invalid_request',
          [{ path: 'target_item', message: 'matches no section item' }],
        );
      }
    },
  },
  async (ctx, _principal, { fields: body, hangUp }) => {
    // A caller that hangs up stops the model's work too.
    const result = ctx.grader ? await engineRewrite(ctx, body, hangUp()) : rewrite(body);
    return {
      data: {
        style: body.style,
        ...(body.target_item !== undefined ? { target_item: body.target_item } : {}),
        sections: result.sections,
      },
    };
  },
);

/** The engine's rewrite; its failures as 503 (server down or slow: try again) or 502 (it answered, unusably). */
async function engineRewrite(ctx: SandboxContext, body: FeedbackRewriteRequest, signal: AbortSignal) {
  try {
    return await ctx.grader!.rewrite(body, signal);
  } catch (err) {
    if (!(err instanceof GraderFailure)) throw err;
    if (err.kind === 'unreachable' || err.kind === 'timeout' || err.kind === 'server') {
      throw new HttpError(503, 'grader_unavailable', err.message, undefined, { 'retry-after': '5' });
    }
    throw httpError(502, err.message, err.kind === 'invalid' ? 'grader_invalid_reply' : 'grader_refused');
  }
}
