// POST /uploads/file (spec 4.14) and the public URL it returns: unguessable, served without a key.
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { UPLOAD_MIME_TYPES } from '../../api/limits.js';
import { API_PREFIX, OPERATIONS } from '../../api/operations.js';
import { principalOf } from '../http/auth.js';
import type { SandboxContext } from '../context.js';
import { nowIso } from '../store/db.js';
import { httpError, sendData, sendError } from '../http/envelope.js';
import { publicOrigin } from '../http/public-url.js';
import { receiveMultipart } from '../http/multipart.js';

export const PUBLIC_FILES_PREFIX = '/files';

export function uploadRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.route({
    ...OPERATIONS.uploadFile,
    url: API_PREFIX + OPERATIONS.uploadFile.path,
    handler: async (request, reply) => {
      const principal = principalOf(request);
      if (!request.isMultipart()) {
        throw httpError(400, 'Send the file as multipart/form-data, in the field "file".', 'unsupported_content_type');
      }
      const received = await receiveMultipart(request, ctx.files.incoming, { fileFields: { file: 'answer' }, acceptedMimes: UPLOAD_MIME_TYPES });
      let dir = received.dir;
      try {
        const extra = Object.keys(received.fields);
        if (extra.length > 0) throw httpError(400, `Unknown field${extra.length > 1 ? 's' : ''} ${extra.map((f) => `"${f}"`).join(', ')}: this endpoint takes only the file, in the field "file".`, 'invalid_request');
        if (received.files.length !== 1) {
          throw received.files.length === 0
            ? httpError(400, 'No file was sent: put exactly one file in the multipart field "file".', 'file_missing')
            : httpError(400, `${received.files.length} files were sent: this endpoint takes exactly one file per request.`, 'too_many_files');
        }
        const file = received.files[0];
        const token = randomBytes(16).toString('hex');
        dir = await ctx.files.adoptUpload(dir, token);
        const stored = ctx.files.relative(join(dir, '0'));
        ctx.store.q(`INSERT INTO uploads (token, owner_user_id, name, mime, size, sha256, path, created_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?)`).run(token, principal.userId, file.name, file.mime, file.size, file.sha256, stored, nowIso());
        const publicPath = `${PUBLIC_FILES_PREFIX}/${token}/${encodeURIComponent(file.name)}`;
        return sendData(reply, {
          name: file.name,
          mime_type: file.mime,
          size: file.size,
          path: publicPath,
          url: `${publicOrigin(ctx, request)}${publicPath}`,
        }, 201);
      } catch (err) {
        await ctx.files.remove(dir);
        throw err;
      }
    },
  });
}

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
