// Marking and feedback rewriting through an OpenAI-compatible server (Ollama, llama.cpp's server,
// vLLM, LM Studio...). One request per task; structured output through a JSON schema, or the
// schema in the prompt for a server without it; one repair attempt for an invalid reply; totals
// always recomputed here by cum_method, never taken from the model.
import { EvaluationEntry } from 'kct/api/schemas.js';
import { conform, type RewriteSectionOut } from '../feedback-rewrite.js';
import { type GradeInput, type GradeOutput, markedRubrics, totalScore } from '../grader.js';
import { ChatClient, type ChatRequest, SchemaUnsupported } from './client.js';
import { type ChatMessage, type JsonSchema, markingMessages, markingSchema, rewriteMessages, rewriteSchema } from './prompt.js';
import { asBullets, checkMarking, checkRewrite, jsonIn, ReplyProblem } from './reply.js';
import { Slots } from './slots.js';
import { GraderFailure, type GraderOptions, type GradingEngine, type RewriteRequest } from './types.js';

export class OpenAiGrader implements GradingEngine {
  readonly label: string;
  readonly gradedBy: string;
  private readonly client: ChatClient;
  private readonly slots: Slots;
  /** Whether the server takes `response_format: json_schema`; learnt from its first refusal. */
  private structured = true;

  constructor(options: GraderOptions) {
    this.client = new ChatClient(options);
    this.slots = new Slots(Math.max(1, options.concurrency ?? 2));
    this.label = `openai-compatible model "${options.model}" at ${this.client.where}`;
    // The model's name, not the server's address: a result is the task owner's, the server the sandbox's.
    this.gradedBy = `the language model "${options.model}", through the sandbox`;
  }

  async grade(input: GradeInput, signal: AbortSignal): Promise<GradeOutput> {
    const rubric = markedRubrics(input);
    const schema = markingSchema(rubric);
    const request = (structured: boolean): ChatRequest => ({
      messages: markingMessages({ ...input, rubrics: rubric }, structured ? undefined : schema),
      schema: structured ? schema : undefined,
      maxTokens: Math.min(8192, 600 + 400 * rubric.length),
    });
    const marked = await this.ask(request, schema, (value) => checkMarking(value, rubric), signal);
    const evaluation = marked.map((m) => ({
      ...m,
      feedback: input.style === 'Bullet' ? asBullets(m.feedback) : m.feedback.replace(/\s*\n\s*/g, ' '),
    }));
    // The contract's own schema for result entries, as the last check before anything is stored.
    for (const e of evaluation) EvaluationEntry.parse(e);
    return { score: totalScore(evaluation, input.cumMethod, Number.isFinite(input.totalScore) ? input.totalScore : 0), evaluation };
  }

  async rewrite(req: RewriteRequest, signal: AbortSignal): Promise<{ sections: RewriteSectionOut[] }> {
    const target = req.target_item?.trim().toLowerCase();
    const chosen = req.sections.filter((s) => target === undefined || s.item.trim().toLowerCase() === target);
    const schema = rewriteSchema(chosen.map((s) => s.item));
    const request = (structured: boolean): ChatRequest => ({
      messages: rewriteMessages(req, chosen, structured ? undefined : schema),
      schema: structured ? schema : undefined,
      maxTokens: Math.min(8192, 400 + 400 * chosen.length),
    });
    const comments = await this.ask(
      request,
      schema,
      (value) =>
        checkRewrite(
          value,
          chosen.map((s) => s.item),
        ),
      signal,
    );
    return {
      sections: req.sections.map((s) => {
        const section = { item: s.item, comment: s.comment, score: s.score, max_score: s.max_score };
        const comment = comments.get(s.item);
        if (comment === undefined) return { ...section, rewritten: false };
        // The same form as the sandbox's own rewrite: prose without labels, short sentences, or bullets.
        return { ...section, comment: conform(comment, req.style), rewritten: true };
      }),
    };
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  /**
   * Asks, checks, and on an invalid reply asks once more with the problems named. A server that
   * refuses structured output is asked again with the schema in the prompt, which does not use up
   * the repair attempt, and is not offered structured output again.
   */
  private async ask<T>(
    request: (structured: boolean) => ChatRequest,
    schema: JsonSchema,
    check: (value: unknown) => T,
    signal: AbortSignal,
  ): Promise<T> {
    return this.slots.run(async () => {
      let req = request(this.structured);
      let first: Attempt;
      try {
        first = await this.attempt(req, signal);
      } catch (err) {
        if (!(err instanceof SchemaUnsupported)) throw err;
        this.structured = false;
        req = request(false);
        first = await this.attempt(req, signal);
      }
      const firstCheck = checked(first, check);
      if ('value' in firstCheck) return firstCheck.value;
      const repair: ChatMessage[] = [
        ...req.messages,
        ...(first.content !== undefined ? [{ role: 'assistant' as const, content: first.content.slice(0, 20_000) }] : []),
        {
          role: 'user',
          content: `That reply cannot be used: ${firstCheck.problems.join('; ')}. Reply again with the corrected JSON object only.\n${schemaReminder(schema)}`,
        },
      ];
      const secondCheck = checked(await this.attempt({ ...req, messages: repair }, signal), check);
      if ('value' in secondCheck) return secondCheck.value;
      throw new GraderFailure(
        `The grading model’s reply could not be used, even after one request to correct it (${secondCheck.problems.slice(0, 3).join('; ')}). A larger or more instruction-following model usually fixes this, or use the sandbox’s own grader (kct sandbox without --grader).`,
        'invalid',
        false,
      );
    }, signal);
  }

  /** One call; a reply that is no usable completion comes back as problems, for the repair attempt. */
  private async attempt(req: ChatRequest, signal: AbortSignal): Promise<Attempt> {
    try {
      return { content: await this.client.complete(req, signal) };
    } catch (err) {
      if (err instanceof ReplyProblem) return { problems: err.problems };
      throw err;
    }
  }
}

interface Attempt {
  content?: string;
  problems?: string[];
}

function checked<T>(attempt: Attempt, check: (value: unknown) => T): { value: T } | { problems: string[] } {
  if (attempt.content === undefined) return { problems: attempt.problems ?? ['no reply'] };
  try {
    return { value: check(jsonIn(attempt.content)) };
  } catch (err) {
    if (err instanceof ReplyProblem) return { problems: err.problems };
    throw err;
  }
}

function schemaReminder(schema: JsonSchema): string {
  return `The JSON schema: ${JSON.stringify(schema.schema)}`;
}
