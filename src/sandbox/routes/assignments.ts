// POST /assignments (spec 4.6): an assignment from a ready model the key can use.
import type { FastifyInstance } from 'fastify';
import { API_PREFIX, OPERATIONS } from '../../api/operations.js';
import { AssignmentRequest } from '../../api/schemas.js';
import { usableModel } from '../accounts/model-access.js';
import { principalOf } from '../http/auth.js';
import type { SandboxContext } from '../context.js';
import { nowIso } from '../store/db.js';
import { httpError, sendData, validationError } from '../http/envelope.js';
import { jsonObjectBody } from '../http/body.js';

const ENDPOINT = `POST ${API_PREFIX}${OPERATIONS.createAssignment.path}`;

export function assignmentRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.route({
    ...OPERATIONS.createAssignment,
    url: API_PREFIX + OPERATIONS.createAssignment.path,
    handler: async (request, reply) => {
      const principal = principalOf(request);
      const parsed = AssignmentRequest.safeParse(jsonObjectBody(request));
      if (!parsed.success) throw validationError(parsed.error);
      const fields = parsed.data;
      if (fields.start_time && Date.parse(fields.start_time) > Date.parse(fields.deadline_time)) {
        throw httpError(400, 'start_time is after deadline_time: an assignment must start before it is due.', 'invalid_request',
          [{ path: 'start_time', message: 'must not be after deadline_time' }]);
      }
      const row = ctx.store.db.transaction(() => {
        const model = usableModel(ctx.store, principal, fields.model_id, ENDPOINT);
        const assignmentId = ctx.store.nextObjectId('assignment');
        const { model_id: _m, assignment_name: _n, assignment_desc: _d, ...details } = fields;
        ctx.store.q(`INSERT INTO assignments (assignment_id, model_id, owner_user_id, assignment_name, assignment_desc,
            status, details_json, created_at) VALUES (?, ?, ?, ?, ?, 'active', ?, ?)`)
          .run(assignmentId, model.model_id, principal.userId, fields.assignment_name, fields.assignment_desc, JSON.stringify(details), nowIso());
        return ctx.store.assignment(assignmentId)!;
      }).immediate();
      return sendData(reply, {
        assignment_id: row.assignment_id,
        model_id: row.model_id,
        assignment_name: row.assignment_name,
        status: row.status,
      }, 201);
    },
  });
}
