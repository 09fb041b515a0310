// The product's routes (spec 5.4) on the sandbox's product base, its origin, outside /v1: sign in
// with an account's password for a session, then create, list and revoke that account's keys
// with `Authorization: Bearer <session_token>` (docs/sandbox.md, "Key routes").
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CreateKeyRequest, PRODUCT_OPERATIONS, RevokeKeyRequest, SignInRequest } from 'kct/api/product.js';
import { type Account, checkPassword, type Sessions } from '../accounts/accounts.js';
import { createKey, listKeys, revokeKey } from '../accounts/key-records.js';
import type { SandboxContext } from '../context.js';
import type { KeyCache } from '../http/auth.js';
import { validJsonBody } from '../http/body.js';
import { httpError, sendData } from '../http/envelope.js';

declare module 'fastify' {
  interface FastifyRequest {
    account: Account | null;
  }
}

const SIGN_IN = `POST ${PRODUCT_OPERATIONS.signIn.path}`;

export function productRoutes(app: FastifyInstance, ctx: SandboxContext, auth: { keys: KeyCache; sessions: Sessions }): void {
  const { store } = ctx;
  const { sessions } = auth;
  const log = ctx.settings.log;
  app.decorateRequest('account', null);

  app.route({
    ...PRODUCT_OPERATIONS.signIn,
    url: PRODUCT_OPERATIONS.signIn.path,
    handler: async (request, reply) => {
      const body = validJsonBody(request, SignInRequest);
      const account = checkPassword(store, body.account, body.password);
      if (!account) {
        throw httpError(
          401,
          "The account name or password is wrong. `kct sandbox` prints every account's password when it starts (passwords in --json).",
          'invalid_credentials',
        );
      }
      const session = sessions.open(account);
      const organizations = store
        .prepared(`SELECT o.id, o.name, m.role FROM memberships m JOIN organizations o ON o.id = m.org_id
        WHERE m.user_id = ? ORDER BY o.id`)
        .all(account.id) as { id: number; name: string; role: string }[];
      return sendData(reply, {
        session_token: session.token,
        token_type: 'Bearer',
        expires_at: new Date(session.expiresAt).toISOString(),
        account,
        organizations,
      });
    },
  });

  app.register(async (signedIn) => {
    signedIn.addHook('onRequest', (request: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void) => {
      try {
        request.account = sessionAccount(request, sessions);
      } catch (err) {
        done(err as Error);
        return;
      }
      done();
    });

    signedIn.route({
      ...PRODUCT_OPERATIONS.signOut,
      url: PRODUCT_OPERATIONS.signOut.path,
      handler: async (request, reply) => {
        sessions.close(bearerToken(request)!);
        return sendData(reply, { signed_out: true });
      },
    });

    signedIn.route({
      ...PRODUCT_OPERATIONS.listKeys,
      url: PRODUCT_OPERATIONS.listKeys.path,
      handler: async (request, reply) => sendData(reply, { keys: listKeys(store, request.account!) }),
    });

    signedIn.route({
      ...PRODUCT_OPERATIONS.createKey,
      url: PRODUCT_OPERATIONS.createKey.path,
      handler: async (request, reply) => {
        const body = validJsonBody(request, CreateKeyRequest);
        const created = createKey(store, request.account!, body);
        log?.(`key ${created.id} (${created.masked_key}, ${created.scope} scope) created for ${request.account!.name}`);
        return sendData(reply, created, 201);
      },
    });

    signedIn.route({
      ...PRODUCT_OPERATIONS.revokeKey,
      url: PRODUCT_OPERATIONS.revokeKey.path,
      handler: async (request, reply) => {
        const body = validJsonBody(request, RevokeKeyRequest);
        const revocation = revokeKey(store, request.account!, body.id);
        auth.keys.forget(revocation.keyHash);
        if (!revocation.alreadyRevoked)
          log?.(`key ${revocation.record.id} (${revocation.record.masked_key}) revoked by ${request.account!.name}`);
        return sendData(reply, { ...revocation.record, already_revoked: revocation.alreadyRevoked });
      },
    });
  });
}

function bearerToken(request: FastifyRequest): string | undefined {
  const value = request.headers.authorization;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(Array.isArray(value) ? value[0] : (value ?? ''));
  return match?.[1];
}

/** The signed-in account of a request, or the 401 that says how to sign in. */
function sessionAccount(request: FastifyRequest, sessions: Sessions): Account {
  const token = bearerToken(request);
  if (token === undefined) {
    const why =
      request.headers['x-api-key'] !== undefined
        ? 'The key routes take a signed-in session, not an API key'
        : request.headers.authorization !== undefined
          ? 'The Authorization header is not "Bearer <session_token>"'
          : 'Sign in first';
    throw httpError(
      401,
      `${why}: ${SIGN_IN} with {"account", "password"}, then send Authorization: Bearer <session_token>.`,
      'unauthenticated',
    );
  }
  const account = sessions.find(token);
  if (!account) {
    throw httpError(
      401,
      `The session is not valid or has ended (a session lasts an hour, and ends at sign-out or when the sandbox stops): sign in again with ${SIGN_IN}.`,
      'invalid_session',
    );
  }
  return account;
}
