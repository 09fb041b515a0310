// The Idempotency-Key of an answer a run sends, and a 409 on it told in the user's words.
import { resolve } from 'node:path';
import { ApiError, refusalOf } from '../api/errors.js';
import type { Answer } from '../cli/answers/answers.js';
import { TEXT_LABEL } from '../cli/answers/labels.js';
import type { OnePassInput } from '../client/client.js';
import { checkBaseKey, type KeyRule, keyForName, keyFromIdentity } from '../client/idempotency.js';
import { labelsOf } from '../client/identity.js';
import { taskOf } from './plan.js';
import type { RunSettings } from './settings.js';

/** The rule `--idempotency-key` gives a run: its base, checked, or keys derived when it is not given. */
export function keyRuleOf(flag: string | undefined): KeyRule {
  // an empty key (an unset variable in a script) would send none: every run charged again
  return flag === undefined ? { kind: 'derived' } : { kind: 'base', base: checkBaseKey(flag, '--idempotency-key') };
}

/**
 * The answer's key: --idempotency-key joined to its name, or derived from its identity and its
 * labels (what is sent; with --mark-copies, a copy alike in every label holds its path too);
 * also from the task it was sent as before when that is to be replaced (its task ended FAILURE or
 * CANCEL: `replacing`; or --mark-again, from the ledger), so the service makes a new one.
 */
export function keyOf(
  settings: Pick<RunSettings, 'keyRule' | 'markAgain' | 'ledger' | 'plan'>,
  answer: Answer,
  identity: string,
  input: OnePassInput,
  replacing?: string,
): string {
  const rule = settings.keyRule;
  if (rule.kind === 'base') return keyForName(rule.base, answer.keyName);
  const files = [
    ...(input.answerFiles ?? []).map((file) => ({ field: 'answer_files', file })),
    ...(input.rubricFiles ?? []).map((file) => ({ field: 'rubric_files', file })),
    ...(input.questionFiles ?? []).map((file) => ({ field: 'question_files', file })),
  ];
  const marked = settings.markAgain ? settings.ledger?.lookup(identity) : undefined;
  const before = replacing ?? (marked ? taskOf(marked) : undefined);
  const again = before ? { again: before } : {};
  // copies marked each on their own may share every label (each student's essay.txt, student id
  // "essay"): their paths tell them apart, whole, so the class named as a folder or as its files is the same
  const path = settings.plan.alike.has(answer.index) ? { path: resolve(answer.label) } : {};
  return keyFromIdentity('one-pass', identity, { ...labelsOf(input.fields, files), ...path, ...again });
}

/**
 * A 409 for a key reused on a changed answer, told in the user's terms: which file changed, under
 * which key, and the two ways on. With derived keys a changed file gets a new key, so this comes
 * from a base key given with --idempotency-key.
 */
export function keyConflict(rule: KeyRule, error: unknown, answer: Answer, key: string): unknown {
  if (!(error instanceof ApiError) || refusalOf(error) !== 'idempotency_key_reused' || rule.kind !== 'base') return error;
  const what = answer.label === '-' ? 'the answer on standard input' : answer.label === TEXT_LABEL ? 'the --text answer' : answer.label;
  return error.retold(
    `the key ${key} was sent before with another answer than ${what} (this file changed since, or another file of that name was sent under it): the service refused it (${error.message})`,
    {
      suggestion: `To mark the new version, run again with a new --idempotency-key (e.g. ${rule.base}-v2), or without one (keys are then derived from each answer's content). To keep the first marks, restore the file.`,
    },
  );
}
