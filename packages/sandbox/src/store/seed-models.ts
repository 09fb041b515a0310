// The marking models a new sandbox starts with. Their assignments and rubrics are data
// (seed-assignments.json), written as a teacher would write them, because the grader reads
// descriptions and level descriptors to mark against them; this file says who owns which.
import type { GradeRubric } from '../engines/jobs.js';
import ASSIGNMENTS from './seed-assignments.json' with { type: 'json' };

export interface SeedModel {
  model_id: number;
  owner: string | null;
  org: string | null;
  assignment_name: string;
  assignment_desc: string;
  question_text: string;
  post_status: 'ready' | 'training';
  cum_method: 'sum' | 'average';
  total_score: number;
  rubrics: GradeRubric[];
}

type SeedAssignment = Omit<SeedModel, 'model_id' | 'owner' | 'org'>;
type AssignmentData = (typeof ASSIGNMENTS)[keyof typeof ASSIGNMENTS];

/** Four level descriptors, top first, fall at the criterion's maximum, 70 %, 40 % and 0. */
const LEVEL_SHARES = [1, 0.7, 0.4, 0] as const;

function assignment(data: AssignmentData): SeedAssignment {
  return {
    ...data,
    post_status: data.post_status as SeedAssignment['post_status'],
    cum_method: data.cum_method as SeedAssignment['cum_method'],
    rubrics: data.rubrics.map(({ levels, ...criterion }) => ({
      ...criterion,
      levels: levels.map((descriptor, i) => ({ score: Math.round(criterion.max_score * LEVEL_SHARES[i]), descriptor })),
    })),
  };
}

export const SEED_ORGANIZATION = 'Northfield Academy';

const PERSUASIVE = assignment(ASSIGNMENTS.persuasive);

export const SEED_MODELS: SeedModel[] = [
  { model_id: 12, owner: 'user', org: null, ...PERSUASIVE },
  { model_id: 13, owner: 'user', org: null, ...assignment(ASSIGNMENTS.mice_and_men) },
  { model_id: 14, owner: 'user', org: null, ...assignment(ASSIGNMENTS.lab_report) },
  { model_id: 15, owner: 'broke', org: null, ...PERSUASIVE },
  { model_id: 21, owner: null, org: SEED_ORGANIZATION, ...assignment(ASSIGNMENTS.source_analysis) },
  { model_id: 31, owner: 'org_member', org: null, ...assignment(ASSIGNMENTS.narrative) },
];
