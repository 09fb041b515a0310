// POST /uploads/file (spec 4.14) and the public URL it returns: unguessable, served without a key.
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { UPLOAD_MIME_TYPES } from 'kct/api/limits.js';
import type { SandboxContext } from '../context.js';
import { httpError, sendError } from '../http/envelope.js';
import { defineOperation } from '../http/operation.js';
import { PUBLIC_FILES_PREFIX, publicOrigin } from '../http/public-url.js';
import { nowIso } from '../store/db.js';

export const uploadFile = defineOperation<Record<string, unknown>>(
  'uploadFile',
  {
    files: {
      policy: { fileFields: { file: 'answer' }, acceptedMimes: UPLOAD_MIME_TYPES },
      fields: null,
      formOnly: 'Send the file as multipart/form-data, in the field "file".',
    },
    check: (fields, files) => {
      const extra = Object.keys(fields);
      if (extra.length > 0)
        throw httpError(
          400,
          `Unknown field${extra.length > 1 ? 's' : ''} ${extra.map((f) => `"${f}"`).join(', ')}: this endpoint takes only the file, in the field "file".`,
          'invalid_request',
        );
      if (files.length !== 1) {
        throw files.length === 0
          ? httpError(400, 'No file was sent: put exactly one file in the multipart field "file".', 'file_missing')
          : httpError(400, `${files.length} files were sent: this endpoint takes exactly one file per request.`, 'too_many_files');
      }
    },
    status: 201,
  },
  async (ctx, principal, { files: [file], dir, request }) => {
    const token = randomBytes(16).toString('hex');
    const stored = await ctx.files.adoptUpload(dir!, token);
    try {
      ctx.store
        .prepared(`INSERT INTO uploads (token, owner_user_id, name, mime, size, sha256, path, created_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)`)
        .run(token, principal.userId, file.name, file.mime, file.size, file.sha256, ctx.files.relative(join(stored, '0')), nowIso());
    } catch (err) {
      await ctx.files.remove(stored);
      throw err;
    }
    const publicPath = `${PUBLIC_FILES_PREFIX}/${token}/${encodeURIComponent(file.name)}`;
    return {
      data: {
        name: file.name,
        mime_type: file.mime,
        size: file.size,
        path: publicPath,
        url: `${publicOrigin(ctx, request)}${publicPath}`,
      },
    };
  },
);

export function publicFileRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  // Public on purpose (spec 4.14: "a reusable hosted public URL"): the 128-bit token is the secret.
  app.route({
    method: ['GET', 'HEAD'],
    url: `${PUBLIC_FILES_PREFIX}/:token/:name`,
    handler: async (request, reply) => {
      const { token, name } = request.params as { token: string; name: string };
      const upload = /^[0-9a-f]{32}$/.test(token) ? ctx.store.upload(token) : undefined;
      if (!upload || upload.name !== name) {
        return sendError(reply, httpError(404, 'There is no uploaded file at this URL.', 'file_not_found'));
      }
      reply.header('content-type', upload.mime);
      reply.header('content-length', String(upload.size));
      reply.header('content-disposition', `inline; filename*=UTF-8''${encodeURIComponent(upload.name)}`);
      reply.header('x-content-type-options', 'nosniff');
      reply.header('cache-control', 'public, max-age=31536000, immutable');
      if (request.method === 'HEAD') return reply.send();
      return reply.send(createReadStream(ctx.files.absolute(upload.path)));
    },
  });
}
