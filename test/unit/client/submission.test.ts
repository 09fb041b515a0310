// The client owns submission: client.prepareOnePass / onePass / batch read the answer files once,
// hash them and make the Idempotency-Key by the one rule one-pass and batch share. The keys are
// pinned: a journal or a run of an earlier kct must find its tasks again (the same key, byte for byte;
// the rule changed once, in 0.2, to a key of the identity and the labels: see the CHANGELOG).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/api/errors.js';
import { inspectFileSync } from '../../../src/client/files.js';
import { cachedHasher, deriveIdempotencyKey } from '../../../src/client/idempotency.js';
import { ORIGIN, useMockClient } from './mock-client.js';

const dir = mkdtempSync(join(tmpdir(), 'kct-unit-submission-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const FIELDS = { model_id: 12, paper_content: 'My essay ...', student_id: 's-001' };
const BATCH = {
  evaluations: [
    { model_id: 12, paper_content: 'First essay ...' },
    { model_id: 12, paper_content: 'Second essay ...' },
  ],
};

function answerFile(name: string, content: string) {
  const path = join(dir, name);
  writeFileSync(path, content);
  return inspectFileSync(path);
}

describe('the Idempotency-Key of a submission', () => {
  const mock = useMockClient();

  it('derived: the same as every kct since 0.2 made, byte for byte (text answer and batch)', async () => {
    expect((await mock.client.prepareOnePass({ fields: FIELDS }, { idempotency: 'derive' })).idempotencyKey).toBe(
      'kct-b91ac1ac47d6c046769bf454c502ecfeb2a1a247',
    );
    expect(await deriveIdempotencyKey('batch', BATCH)).toBe('kct-eaa53095e2d2882f0aceb688ce4c0b07d205f952');
  });

  it('derived: the same input gives the same key, and one byte changed in a file gives another', async () => {
    const fields = { model_id: 12, student_id: 's-002' };
    const first = await mock.client.prepareOnePass(
      { fields, answerFiles: [answerFile('a1.txt', 'An essay about uniforms.\n')] },
      { idempotency: 'derive' },
    );
    const again = await mock.client.prepareOnePass(
      { fields, answerFiles: [answerFile('a1.txt', 'An essay about uniforms.\n')] },
      { idempotency: 'derive', hasher: cachedHasher() },
    );
    const changed = await mock.client.prepareOnePass(
      { fields, answerFiles: [answerFile('a1.txt', 'An essay about uniformz.\n')] },
      { idempotency: 'derive' },
    );
    expect(first.idempotencyKey).toMatch(/^kct-[0-9a-f]{40}$/);
    expect(again.idempotencyKey).toBe(first.idempotencyKey);
    expect(changed.idempotencyKey).not.toBe(first.idempotencyKey);
    // read once: the bytes travel with the prepared submission, and hashing them gives the key a streamed hash gives
    expect(Buffer.from(changed.input.answerFiles![0].data!).toString()).toBe('An essay about uniformz.\n');
    const streamed = await deriveIdempotencyKey('one-pass', fields, [
      { field: 'answer_files', file: inspectFileSync(join(dir, 'a1.txt')) },
    ]);
    expect(changed.idempotencyKey).toBe(streamed);
  });

  it('derived: a rubric file is part of the key, under its own field', async () => {
    const answer = answerFile('a2.txt', 'Second essay.\n');
    const rubric = answerFile('rubric.txt', 'Argument (10 marks)\n');
    const withRubric = await mock.client.prepareOnePass(
      { fields: { model_id: 12 }, answerFiles: [answer], rubricFiles: [rubric] },
      { idempotency: 'derive' },
    );
    const asQuestion = await mock.client.prepareOnePass(
      { fields: { model_id: 12 }, answerFiles: [answer], questionFiles: [rubric] },
      { idempotency: 'derive' },
    );
    expect(withRubric.idempotencyKey).not.toBe(asQuestion.idempotencyKey);
  });

  it('a base key is joined to the name (the --idempotency-key rule), whatever the content', async () => {
    const one = await mock.client.prepareOnePass({ fields: FIELDS }, { idempotency: { base: 'class9', name: 'late/Jane Doe.txt' } });
    const edited = await mock.client.prepareOnePass(
      { fields: { ...FIELDS, paper_content: 'changed' } },
      { idempotency: { base: 'class9', name: 'late/Jane Doe.txt' } },
    );
    expect(one.idempotencyKey).toBe('class9-late/Jane%20Doe.txt');
    expect(edited.idempotencyKey).toBe(one.idempotencyKey);
    // a base of 200 characters and its name make a key of up to 255, which the service takes
    const long = await mock.client.prepareOnePass({ fields: FIELDS }, { idempotency: { base: 'b'.repeat(200), name: 'x'.repeat(40) } });
    expect(long.idempotencyKey).toBe(`${'b'.repeat(200)}-${'x'.repeat(40)}`);
  });

  it('an explicit key is sent as it is; none asked for, none sent', async () => {
    expect((await mock.client.prepareOnePass({ fields: FIELDS }, { idempotency: { key: 'essay-1' } })).idempotencyKey).toBe('essay-1');
    expect((await mock.client.prepareOnePass({ fields: FIELDS }, { idempotencyKey: 'essay-1' })).idempotencyKey).toBe('essay-1');
    expect((await mock.client.prepareOnePass({ fields: FIELDS })).idempotencyKey).toBeUndefined();
  });

  it('a bad key is refused before anything is sent, in neutral words', async () => {
    const refused = mock.client.onePass({ fields: FIELDS }, { idempotency: { base: ' ', name: 'a.txt' } });
    await expect(refused).rejects.toThrow(UsageError);
    await expect(refused).rejects.toMatchObject({
      message: expect.stringContaining('the idempotency key is empty'),
      suggestion: expect.not.stringMatching(/kct|--/),
    });
    await expect(mock.client.batch(BATCH, { idempotency: { key: 'has space' } })).rejects.toThrow(/only visible ASCII/);
  });

  it('onePass and batch send the key they derive', async () => {
    const pool = mock.agent.get(ORIGIN);
    const derived = (await mock.client.prepareOnePass({ fields: FIELDS }, { idempotency: 'derive' })).idempotencyKey!;
    const task = { data: { task_id: 'tsk_1', status: 'QUEUED' }, request_id: 'req_1' };
    const json = { headers: { 'content-type': 'application/json' } };
    pool
      .intercept({ method: 'POST', path: '/v1/evaluations/one-pass', headers: { 'idempotency-key': derived } })
      .reply(202, JSON.stringify(task), json);
    pool
      .intercept({
        method: 'POST',
        path: '/v1/evaluations/batch',
        headers: { 'idempotency-key': 'class9-batch-415239d27b133230c95ffa40f9b62089' },
      })
      .reply(202, JSON.stringify(task), json);
    expect((await mock.client.onePass({ fields: FIELDS }, { idempotency: 'derive' })).task_id).toBe('tsk_1');
    expect((await mock.client.batch(BATCH, { idempotency: { base: 'class9', names: ['a1.txt', 'late/a3.txt'] } })).task_id).toBe('tsk_1');
    mock.agent.assertNoPendingInterceptors();
  });
});
