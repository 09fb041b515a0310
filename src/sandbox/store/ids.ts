// Random ids (`req_`, `tsk_`, `msg_` + 24 hex, docs/sandbox.md rule 25) from a pool of random
// bytes: one `randomBytes(12)` per id cost ~2-4 us (a call into the CSPRNG and a Buffer each);
// drawing 12 bytes at a time from a block of 6 KiB costs a slice. The bytes are the same
// CSPRNG's, each used once, so an id is exactly as unpredictable as before.
import { randomBytes } from 'node:crypto';

const ID_BYTES = 12;
const IDS_PER_BLOCK = 512;
const HEX_PER_ID = ID_BYTES * 2;

let block = '';
let next = IDS_PER_BLOCK;

/** 24 fresh random hex characters (96 bits). */
export function randomHex24(): string {
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
