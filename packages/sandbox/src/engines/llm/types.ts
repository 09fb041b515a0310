// The optional language-model grading engine: what the sandbox is told about it and what it
// offers the worker and the feedback-rewrite route. The deterministic grader (grader.ts) stays
// the default; this engine is used only when `kct sandbox --grader openai` configures it.
import type { GraderOptions } from 'kct/api/sandbox.js';
import type { RewriteSectionIn, RewriteSectionOut, RewriteStyle } from '../feedback-rewrite.js';
import type { GradeInput, GradeOutput } from '../grader.js';

export type { GraderOptions };

export type FailureKind = 'unreachable' | 'timeout' | 'server' | 'refused' | 'invalid';

/**
 * Why the engine could not mark or rewrite. `message` is written for the person who submitted
 * (it goes into the task's comment) and never holds the API key; `retryable` says whether
 * submitting again can help (a server down or slow: yes; a reply that stays invalid: no).
 */
export class GraderFailure extends Error {
  constructor(
    message: string,
    readonly kind: FailureKind,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'GraderFailure';
  }
}

export interface RewriteRequest {
  style: RewriteStyle;
  instruction?: string;
  target_item?: string;
  sections: RewriteSectionIn[];
}

export interface GradingEngine {
  /** Short description for logs and start-up output, e.g. "openai llama3.1:8b at http://…/v1". */
  readonly label: string;
  /** What a result it marked says marked it (`graded_by`), e.g. the language model "llama3.1:8b", through the sandbox. */
  readonly gradedBy: string;
  grade(input: GradeInput, signal: AbortSignal): Promise<GradeOutput>;
  rewrite(request: RewriteRequest, signal: AbortSignal): Promise<{ sections: RewriteSectionOut[] }>;
  close(): Promise<void>;
}
