// POST /assignments (spec 4.6): an assignment from a ready model the key can use.
import { API_PREFIX, OPERATIONS } from 'kct/api/operations.js';
import { AssignmentRequest } from 'kct/api/schemas.js';
import { usableModel } from '../accounts/model-access.js';
import { httpError } from '../http/envelope.js';
import { defineOperation } from '../http/operation.js';
import { nowIso } from '../store/db.js';

const ENDPOINT = `POST ${API_PREFIX}${OPERATIONS.createAssignment.path}`;

export const createAssignment = defineOperation(
  'createAssignment',
  {
    body: AssignmentRequest,
    check: (fields) => {
      if (fields.start_time && Date.parse(fields.start_time) > Date.parse(fields.deadline_time)) {
        throw httpError(400, 'start_time is after deadline_time: an assignment must start before it is due.', 'invalid_request', [
          { path: 'start_time', message: 'must not be after deadline_time' },
        ]);
      }
    },
    status: 201,
  },
  (ctx, principal, { fields }) => {
    const row = ctx.store.db
      .transaction(() => {
        const model = usableModel(ctx.store, principal, fields.model_id, ENDPOINT);
        const assignmentId = ctx.store.nextObjectId('assignment');
        const { model_id: _m, assignment_name: _n, assignment_desc: _d, ...details } = fields;
        ctx.store
          .prepared(`INSERT INTO assignments (assignment_id, model_id, owner_user_id, assignment_name, assignment_desc,
        status, details_json, created_at) VALUES (?, ?, ?, ?, ?, 'active', ?, ?)`)
          .run(
            assignmentId,
            model.model_id,
            principal.userId,
            fields.assignment_name,
            fields.assignment_desc,
            JSON.stringify(details),
            nowIso(),
          );
        return ctx.store.assignment(assignmentId)!;
      })
      .immediate();
    return {
      data: {
        assignment_id: row.assignment_id,
        model_id: row.model_id,
        assignment_name: row.assignment_name,
        status: row.status,
      },
    };
  },
);
