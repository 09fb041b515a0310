// Random ids (`req_`, `tsk_`, `msg_` + 24 hex, docs/sandbox.md rule 25) drawn from a block of
// CSPRNG bytes, not one randomBytes call each (why: docs/benchmarks.md, "Measured choices that still stand").
import { randomBytes } from 'node:crypto';

const ID_BYTES = 12;
const IDS_PER_BLOCK = 512;
const HEX_PER_ID = ID_BYTES * 2;

let block = '';
let next = IDS_PER_BLOCK;

/** 24 fresh random hex characters (96 bits). */
function randomHex24(): string {
  if (next === IDS_PER_BLOCK) {
    block = randomBytes(ID_BYTES * IDS_PER_BLOCK).toString('hex');
    next = 0;
  }
  const start = next++ * HEX_PER_ID;
  return block.slice(start, start + HEX_PER_ID);
}

export function newRequestId(): string {
  return `req_${randomHex24()}`;
}

export function newTaskId(): string {
  return `tsk_${randomHex24()}`;
}

export function newWebhookId(): string {
  return `msg_${randomHex24()}`;
}
