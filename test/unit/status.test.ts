import { describe, expect, it } from 'vitest';
import {
  isFinalSnapshot,
  isFinalStatus,
  isUnsuccessfulFinal,
  LEGACY_STATUS,
  STAGE_OF,
  statusOf,
  TASK_STATUSES,
} from '../../src/api/status.js';

describe('task statuses (spec 3)', () => {
  it('lists the seven statuses in the stated order', () => {
    expect(TASK_STATUSES).toEqual(['QUEUED', 'UPLOADING', 'SUBMITTED', 'PROGRESS', 'SUCCESS', 'FAILURE', 'CANCEL']);
  });

  it('pairs each status with its lower-case stage', () => {
    // as the spec's status table writes them, one pair per status
    const pairs = Object.entries(STAGE_OF).map(([status, stage]) => `${status} ${stage}`);
    expect(pairs.join(', ')).toBe(
      'QUEUED queued, UPLOADING uploading, SUBMITTED submitted, PROGRESS processing, SUCCESS completed, FAILURE failed, CANCEL cancelled',
    );
  });

  it('names PENDING as the legacy starting status', () => {
    expect(LEGACY_STATUS).toBe('PENDING');
  });
});

describe('isFinalStatus', () => {
  it.each(['SUCCESS', 'FAILURE', 'CANCEL', 'success', 'Failure', 'cancel'])('%s is final', (status) => {
    expect(isFinalStatus(status)).toBe(true);
  });

  it.each(['QUEUED', 'UPLOADING', 'SUBMITTED', 'PROGRESS', 'PENDING', 'WEIRD', 'CANCELLED', 'completed', ''])(
    '%j is not final',
    (status) => {
      expect(isFinalStatus(status)).toBe(false);
    },
  );

  it('is false for non-strings', () => {
    expect(isFinalStatus(undefined)).toBe(false);
    expect(isFinalStatus(null)).toBe(false);
    expect(isFinalStatus(200)).toBe(false);
    expect(isFinalStatus(['SUCCESS'])).toBe(false);
  });
});

describe('isFinalSnapshot', () => {
  it('decides by status when there is one', () => {
    expect(isFinalSnapshot({ status: 'SUCCESS', stage: 'completed' })).toBe(true);
    expect(isFinalSnapshot({ status: 'PROGRESS', stage: 'processing' })).toBe(false);
  });

  it('lets an unknown status defer to a final stage', () => {
    expect(isFinalSnapshot({ status: 'FAILED', stage: 'failed' })).toBe(true);
    expect(isFinalSnapshot({ status: 'WEIRD', stage: 'processing' })).toBe(false);
  });

  it('lets a known status win over a contradicting stage', () => {
    expect(isFinalSnapshot({ status: 'PROGRESS', stage: 'completed' })).toBe(false);
    expect(isFinalSnapshot({ status: 'FAILURE', stage: 'processing' })).toBe(true);
  });

  it.each(['completed', 'failed', 'cancelled', 'COMPLETED'])('falls back to the final stage %s when status is missing', (stage) => {
    expect(isFinalSnapshot({ stage })).toBe(true);
    expect(isFinalSnapshot({ status: '', stage })).toBe(true);
  });

  it.each(['queued', 'uploading', 'submitted', 'processing', 'done', 'canceled'])('does not treat stage %s as final', (stage) => {
    expect(isFinalSnapshot({ stage })).toBe(false);
  });

  it('is not final with neither field, or with non-string fields', () => {
    expect(isFinalSnapshot({})).toBe(false);
    expect(isFinalSnapshot({ status: 3, stage: 4 })).toBe(false);
    expect(isFinalSnapshot({ status: 'PENDING' })).toBe(false);
  });
});

describe('isUnsuccessfulFinal', () => {
  it('is true for FAILURE and CANCEL in any case', () => {
    for (const status of ['FAILURE', 'CANCEL', 'failure', 'Cancel']) expect(isUnsuccessfulFinal(status)).toBe(true);
  });

  it('is false for success, running and unknown statuses', () => {
    for (const status of ['SUCCESS', 'PROGRESS', 'QUEUED', 'PENDING', '', undefined, null, 1])
      expect(isUnsuccessfulFinal(status)).toBe(false);
  });

  it('a stage-only failed snapshot counts as unsuccessful', () => {
    expect(isUnsuccessfulFinal(statusOf({ stage: 'failed' }))).toBe(true);
    expect(isUnsuccessfulFinal(statusOf({ stage: 'cancelled' }))).toBe(true);
    expect(statusOf({})).toBe('UNKNOWN');
  });
});
