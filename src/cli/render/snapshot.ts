import type { StatusSnapshot } from '../../api/schemas.js';

/** One human line for a status snapshot: "PROGRESS processing · step 2/4 grading · 50%". */
export function describeSnapshot(snapshot: StatusSnapshot): string {
  const parts: string[] = [];
  const status = snapshot.status ?? '';
  const stage = snapshot.stage ?? '';
  parts.push(stage && stage.toLowerCase() !== status.toLowerCase() ? `${status} (${stage})`.trim() : status || stage || 'unknown');
  if (typeof snapshot.position === 'number') {
    parts.push(
      typeof snapshot.length === 'number' ? `position ${snapshot.position} of ${snapshot.length}` : `position ${snapshot.position}`,
    );
  }
  if (typeof snapshot.cur_step === 'number' && typeof snapshot.total_step === 'number') {
    parts.push(`step ${snapshot.cur_step}/${snapshot.total_step}${snapshot.cur_step_name ? ` ${snapshot.cur_step_name}` : ''}`);
  } else if (snapshot.cur_step_name) {
    parts.push(snapshot.cur_step_name);
  }
  if (typeof snapshot.progress === 'number') parts.push(`${Math.round(snapshot.progress)}%`);
  if (snapshot.message) parts.push(snapshot.message);
  return parts.join(' · ');
}
