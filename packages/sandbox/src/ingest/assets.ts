// `assets` of the preview endpoints (spec 4.4): each URL is either one of this sandbox's own upload
// URLs (POST /uploads/file), read straight from the data dir, never over HTTP, or a public https
// address, fetched with the SSRF guard: the host must resolve to public addresses only, checked
// again on the address actually connected to; no redirects; a time limit; the 20 MB cap while
// streaming.
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { MAX_FILE_BYTES } from 'kct/api/limits.js';
import { mimeFromName } from 'kct/api/mime.js';
import type { Asset } from 'kct/api/schemas.js';
import { HttpError, httpError } from '../http/envelope.js';
import { fileMime } from '../http/multipart.js';
import { PUBLIC_FILES_PREFIX } from '../http/public-url.js';
import { assertPublicUrl, BlockedAddressError, guardedAgent } from '../net/public-address.js';
import type { Store } from '../store/store.js';

const ASSET_TIMEOUT_MS = 20_000;

export interface SourceFile {
  /** Where it came from: a multipart file, one of our uploads, or a public URL. */
  origin: 'file' | 'upload' | 'url';
  name: string;
  mime: string;
  size: number;
  /** Absolute path of the bytes on disk. */
  path: string;
  url?: string;
}

export interface AssetContext {
  store: Store;
  /** This sandbox's public origin (http/public-url.ts): its upload URLs are read from disk. */
  publicOrigin: string;
  /** Absolute path of a stored upload from its data-dir-relative path. */
  absolute(relativePath: string): string;
  /** Allow private addresses and plain http (tests only; the sandbox never sets it for assets). */
  allowPrivate?: boolean;
  timeoutMs?: number;
  maxBytes?: number;
}

const OWN_FILE = new RegExp(`^${PUBLIC_FILES_PREFIX}/([0-9a-f]{32})/([^/]+)$`);
const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

/**
 * The token and name of one of this sandbox's upload URLs (on its public origin, or on loopback
 * at its port), or undefined for any other URL.
 */
function ownUploadOf(url: URL, request: Pick<FastifyRequest, 'socket'>, publicOrigin: string): { token: string; name: string } | undefined {
  const match = OWN_FILE.exec(url.pathname);
  if (!match || url.search !== '') return undefined;
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const sameHost = url.origin.toLowerCase() === publicOrigin.toLowerCase();
  const sameLoopback = LOOPBACK_NAMES.has(url.hostname.toLowerCase()) && port === request.socket.localPort;
  if (!sameHost && !sameLoopback) return undefined;
  let name: string;
  try {
    name = decodeURIComponent(match[2]);
  } catch {
    return undefined;
  }
  return { token: match[1], name };
}

function assetError(index: number, message: string, code = 'invalid_asset', status = 400): HttpError {
  return httpError(status, `assets[${index}]: ${message}`, code, [{ path: `assets[${index}].url`, message }]);
}

function nameFromUrl(url: URL): string {
  try {
    return decodeURIComponent(basename(url.pathname)) || url.hostname;
  } catch {
    return basename(url.pathname) || url.hostname;
  }
}

/**
 * The type to act on: the asset's stated type, unless missing or generic; then the server's
 * Content-Type; then the extension of the asset's name or URL (spec 4.4).
 */
function assetMime(asset: Asset, name: string, served: string | undefined): string | undefined {
  const stated = fileMime(asset.mime_type, name);
  if (asset.mime_type && stated) return stated;
  const fromServer = served ? fileMime(served, name) : undefined;
  return fromServer ?? mimeFromName(name);
}

/** Resolves and, for public URLs, downloads every asset into `dir` (which the caller removes). */
export async function fetchAssets(
  assets: readonly Asset[],
  request: Pick<FastifyRequest, 'socket'>,
  ctx: AssetContext,
  dir: string,
  accepted: readonly string[],
): Promise<SourceFile[]> {
  const out: SourceFile[] = [];
  for (const [index, asset] of assets.entries()) {
    const url = new URL(asset.url);
    const own = ownUploadOf(url, request, ctx.publicOrigin);
    if (own) {
      const upload = ctx.store.upload(own.token);
      if (!upload || upload.name !== own.name) {
        throw assetError(
          index,
          `${asset.url} is an upload URL of this sandbox, but no uploaded file is there. Upload the file again with POST /uploads/file and use the url it returns.`,
          'asset_not_found',
        );
      }
      const name = asset.name ?? upload.name;
      const mime = asset.mime_type ? fileMime(asset.mime_type, name) : upload.mime;
      checkType(index, name, mime, accepted);
      out.push({ origin: 'upload', name, mime: mime!, size: upload.size, path: ctx.absolute(upload.path), url: asset.url });
      continue;
    }
    const path = join(dir, `asset-${index}`);
    const fetched = await download(index, url, path, ctx);
    const name = asset.name ?? nameFromUrl(url);
    const mime = assetMime(asset, name, fetched.contentType);
    checkType(index, name, mime, accepted);
    out.push({ origin: 'url', name, mime: mime!, size: fetched.size, path, url: asset.url });
  }
  return out;
}

function checkType(index: number, name: string, mime: string | undefined, accepted: readonly string[]): void {
  if (mime === undefined || !accepted.includes(mime)) {
    throw assetError(
      index,
      `"${name}" has ${mime ? `type ${mime}` : 'an unknown type'}, which is not accepted. Accepted types: ${accepted.join(', ')} (state mime_type in the asset, or use a URL whose name ends in a matching extension).`,
      'unsupported_file_type',
    );
  }
}

/** Downloads a public https URL to `path`. Every refusal is an HttpError naming the asset. */
export async function download(
  index: number,
  url: URL,
  path: string,
  ctx: Pick<AssetContext, 'allowPrivate' | 'timeoutMs' | 'maxBytes'>,
): Promise<{ size: number; contentType?: string }> {
  const allowPrivate = ctx.allowPrivate ?? false;
  const timeoutMs = ctx.timeoutMs ?? ASSET_TIMEOUT_MS;
  const maxBytes = ctx.maxBytes ?? MAX_FILE_BYTES;
  const blockedHint = 'Asset URLs must be public https addresses, or URLs returned by POST /uploads/file of this service.';
  try {
    await assertPublicUrl(url.href, { allowPrivate });
  } catch (err) {
    if (err instanceof BlockedAddressError)
      throw assetError(index, `${url.href} is not allowed: ${err.message}. ${blockedHint}`, 'asset_url_blocked');
    throw err;
  }
  const [agent, { request }] = await Promise.all([guardedAgent({ allowPrivate }, timeoutMs), import('undici')]);
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const response = await request(url, {
      method: 'GET',
      dispatcher: agent,
      signal,
      headers: { 'user-agent': 'kct-sandbox (assets)', accept: '*/*' },
    });
    if (response.statusCode >= 300 && response.statusCode < 400) {
      await response.body.dump();
      throw assetError(
        index,
        `${url.href} answered with a redirect (HTTP ${response.statusCode}${response.headers.location ? ` to ${String(response.headers.location)}` : ''}); redirects are not followed. Give the final URL of the file.`,
        'asset_fetch_failed',
      );
    }
    if (response.statusCode !== 200) {
      await response.body.dump();
      throw assetError(index, `${url.href} could not be fetched: the server answered HTTP ${response.statusCode}.`, 'asset_fetch_failed');
    }
    const declared = Number(response.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes) {
      response.body.destroy();
      throw assetError(
        index,
        `${url.href} is ${Math.ceil(declared / 1024 / 1024)} MB; the limit is ${Math.round(maxBytes / 1024 / 1024)} MB per file.`,
        'file_too_large',
        413,
      );
    }
    let size = 0;
    const cap = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        if (size > maxBytes) done(new SizeExceeded());
        else done(null, chunk);
      },
    });
    const file = createWriteStream(path, { flags: 'wx', mode: 0o600 });
    try {
      await pipeline(response.body, cap, file);
    } catch (err) {
      // the pipeline can fail while the file is still being opened: remove it once it has closed,
      // or the open would make it again after the removal
      if (!file.closed) await new Promise<void>((closed) => file.once('close', () => closed()));
      await rm(path, { force: true });
      if (err instanceof SizeExceeded)
        throw assetError(
          index,
          `${url.href} is larger than the ${Math.round(maxBytes / 1024 / 1024)} MB limit per file.`,
          'file_too_large',
          413,
        );
      throw err;
    }
    if (size === 0) throw assetError(index, `${url.href} is empty.`, 'empty_file');
    const type = response.headers['content-type'];
    return { size, ...(typeof type === 'string' ? { contentType: type } : {}) };
  } catch (err) {
    if (err instanceof HttpError) throw err;
    if (err instanceof BlockedAddressError || (err as Error).cause instanceof BlockedAddressError) {
      const reason = err instanceof BlockedAddressError ? err.message : ((err as Error).cause as Error).message;
      throw assetError(index, `${url.href} is not allowed: ${reason}. ${blockedHint}`, 'asset_url_blocked');
    }
    if (signal.aborted || (err as Error).name === 'TimeoutError' || /timeout/i.test((err as { code?: string }).code ?? '')) {
      throw assetError(index, `${url.href} did not answer within ${Math.round(timeoutMs / 1000)} s.`, 'asset_fetch_failed');
    }
    throw assetError(index, `${url.href} could not be fetched (${(err as Error).message}).`, 'asset_fetch_failed');
  } finally {
    await agent.close().catch(() => undefined);
  }
}

class SizeExceeded extends Error {}
