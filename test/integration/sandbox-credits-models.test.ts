import { describe, expect, test } from 'vitest';
import { sandboxForFile } from '../unit/sandbox-helpers.js';

const sb = sandboxForFile();

describe('GET /credits', () => {
  test.each([
    ['user', 1000, 'user'],
    ['broke', 0, 'user'],
    ['org_admin', 500, 'organization'],
    ['org_member', 200, 'user'],
  ] as const)('%s has %i credits, scope %s, billed to the owner', async (who, credits, scope) => {
    const res = await sb.call('GET', '/credits', { key: sb.keys[who] });
    expect(res.status).toBe(200);
    const organization = scope === 'organization' ? { organization: { id: expect.any(Number), name: 'Northfield Academy' } } : {};
    expect(res.body.data).toEqual({
      credits,
      reserved: 0,
      available: credits,
      billing_mode: 'owner_user',
      scope,
      account: { id: expect.any(Number), name: who },
      ...organization,
    });
  });
});

describe('GET /models', () => {
  const idsFor = async (key: string) => {
    const res = await sb.call('GET', '/models', { key });
    expect(res.status).toBe(200);
    return (res.body.data as { model_id: number }[]).map((m) => m.model_id);
  };

  test("a user key sees only its owner's models; an organization key only the organization's", async () => {
    expect(await idsFor(sb.keys.user)).toEqual([12, 13, 14]);
    expect(await idsFor(sb.keys.broke)).toEqual([15]);
    expect(await idsFor(sb.keys.org_admin)).toEqual([21]);
    expect(await idsFor(sb.keys.org_member)).toEqual([31]);
  });

  test('items carry the fields of spec 2.1 plus cum_method, criteria_count and the criteria with their maxima', async () => {
    const res = await sb.call('GET', '/models');
    const [persuasive, mice, lab] = res.body.data;
    expect(persuasive).toEqual({
      model_id: 12,
      assignment_name: 'Persuasive essay: school uniforms',
      assignment_desc: expect.stringContaining('school board'),
      post_status: 'ready',
      creation_method: 'custom',
      total_score: 20,
      cum_method: 'sum',
      criteria_count: 4,
      criteria: [
        { item: 'Thesis & position', max_score: 5 },
        { item: 'Evidence & reasoning', max_score: 6 },
        { item: 'Organisation', max_score: 5 },
        { item: 'Language & conventions', max_score: 4 },
      ],
    });
    expect(mice).toMatchObject({ model_id: 13, post_status: 'ready', cum_method: 'average', total_score: 10, criteria_count: 5 });
    expect(lab).toMatchObject({ model_id: 14, post_status: 'training' });
  });
});
