// The product's key routes (spec 5.4), outside the v1 API, at the product base (by default the
// base URL without its /v1). Sign in with an account and password, then create, list and revoke
// the account's keys:
//   const product = new ProductClient({ productUrl: 'http://127.0.0.1:4010' });
//   await product.signIn('user', password);
//   const { key } = await product.createKey({ scope: 'user', name: 'ci' });
//   await product.signOut(); await product.close();

import { ApiError, KctError } from '../api/errors.js';
import {
  CreatedKey,
  CreateKeyRequest,
  KeyList,
  type KeyRecord,
  PRODUCT_OPERATIONS,
  type ProductOperationName,
  RevokedKey,
  RevokeKeyRequest,
  Session,
  SignInRequest,
} from '../api/product.js';
import type * as z from '../api/zod.js';
import { VERSION } from '../version.js';
import type { CallOptions } from './client.js';
import { HttpClient, type HttpOptions } from './http.js';
import { validateRequest } from './records.js';

export interface ProductClientOptions extends Omit<HttpOptions, 'baseUrl' | 'userAgent' | 'apiKey'> {
  /** The product base, e.g. https://host (the key routes are under /public_api). */
  productUrl: string;
  userAgent?: string;
}

export class ProductClient {
  readonly http: HttpClient;
  private session?: string;

  constructor(options: ProductClientOptions) {
    const { productUrl, userAgent, ...http } = options;
    this.http = new HttpClient({ ...http, baseUrl: productUrl, userAgent: userAgent ?? `kct/${VERSION}` });
  }

  get productUrl(): string {
    return this.http.baseUrl;
  }

  get signedIn(): boolean {
    return this.session !== undefined;
  }

  /** Opens a session; the key routes use it until signOut(). */
  async signIn(account: string, password: string, options: CallOptions = {}): Promise<Session> {
    const body = validateRequest(SignInRequest, { account, password }, 'sign-in');
    const data = await this.call('signIn', { json: body, ...options }, false);
    const session = this.parse(Session, data, 'signIn', 'no session_token');
    this.session = session.session_token;
    return session;
  }

  /** Ends the session (on the server too); a session that has already ended is not an error. */
  async signOut(options: CallOptions = {}): Promise<void> {
    if (this.session === undefined) return;
    try {
      await this.call('signOut', options);
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 401)) throw error;
    } finally {
      this.session = undefined;
    }
  }

  /** The only answer that ever holds the new key: show it once, or store it. Never retried (a retry could make a second key). */
  async createKey(request: CreateKeyRequest, options: CallOptions = {}): Promise<CreatedKey> {
    const body = validateRequest(CreateKeyRequest, request, 'key request');
    return this.parse(CreatedKey, await this.call('createKey', { json: body, ...options }), 'createKey', 'no key');
  }

  async listKeys(options: CallOptions = {}): Promise<KeyRecord[]> {
    return this.parse(KeyList, await this.call('listKeys', options), 'listKeys', 'no list of keys').keys;
  }

  /** Revoking a key that is already revoked answers as the first time did, with already_revoked. */
  async revokeKey(id: number, options: CallOptions = {}): Promise<RevokedKey> {
    const body = validateRequest(RevokeKeyRequest, { id }, 'revoke request');
    return this.parse(RevokedKey, await this.call('revokeKey', { json: body, ...options }), 'revokeKey', 'no key record');
  }

  close(): Promise<void> {
    return this.http.close();
  }

  private async call(name: ProductOperationName, spec: { json?: unknown; signal?: AbortSignal }, needsSession = true): Promise<unknown> {
    const op = PRODUCT_OPERATIONS[name];
    if (needsSession && this.session === undefined) {
      throw new KctError('not_signed_in', `sign in before ${op.method} ${op.path}`, {
        suggestion: 'Call signIn(account, password) first.',
      });
    }
    try {
      const response = await this.http.send({
        method: op.method,
        path: op.path,
        anonymous: true,
        expectJson: true,
        ...(spec.json === undefined ? {} : { json: spec.json }),
        ...(this.session === undefined ? {} : { headers: { authorization: `Bearer ${this.session}` } }),
        ...(spec.signal ? { signal: spec.signal } : {}),
      });
      return response.data;
    } catch (error) {
      throw this.explained(error, name);
    }
  }

  private parse<S extends z.ZodType>(schema: S, data: unknown, name: ProductOperationName, missing: string): z.infer<S> {
    const parsed = schema.safeParse(data);
    if (parsed.success) return parsed.data;
    const op = PRODUCT_OPERATIONS[name];
    throw new KctError(
      'unknown_answer',
      `the server at ${this.productUrl} did not answer like the product's key routes: ${op.method} ${op.path} returned ${missing}`,
      {
        suggestion: productUrlAdvice(this.productUrl),
      },
    );
  }

  /** A route that is missing, or a page that is not JSON, means the product URL is wrong: say so. */
  private explained(error: unknown, name: ProductOperationName): unknown {
    const op = PRODUCT_OPERATIONS[name];
    // a sign-in refused is the account's name or password, never an API key
    if (error instanceof ApiError && error.status === 401 && name === 'signIn') {
      return error.retold(error.message, { suggestion: 'Check the account name and its password.' });
    }
    if (error instanceof ApiError && error.status === 404 && (error.errorCode === undefined || error.errorCode === 'route_not_found')) {
      return error.retold(error.message, {
        suggestion: `There is no ${op.method} ${op.path} at ${this.productUrl}. ${productUrlAdvice(this.productUrl)}`,
      });
    }
    if (error instanceof KctError && error.code === 'unknown_answer') {
      return new KctError(
        'unknown_answer',
        `the server at ${this.productUrl} did not answer like the product's key routes (${op.method} ${op.path})`,
        { suggestion: productUrlAdvice(this.productUrl), cause: error },
      );
    }
    return error;
  }
}

function productUrlAdvice(productUrl: string): string {
  return `The product URL ${productUrl} should be the product base the key routes live under (/public_api/...): by default the API base URL without its /v1; set it with the productUrl option.`;
}
