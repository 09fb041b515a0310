// The pure parts of kct's tools: kct api's argument handling, the pager choice, who a key
// belongs to, loopback callbacks, and man page escaping.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../packages/kct/src/api/errors.js';
import { describeOwner, keyOwner } from '../../packages/kct/src/cli/core/account.js';
import { methodAndPath, parseFields, parseHeaders, routePath, withQuery } from '../../packages/kct/src/cli/core/api-request.js';
import { isLocalCallback, isLoopbackHost } from '../../packages/kct/src/cli/core/loopback.js';
import { choosePager } from '../../packages/kct/src/cli/core/pager.js';
import { roffEscape } from '../../packages/kct/src/cli/packaging/man-page.js';

describe('kct api arguments', () => {
  it('one argument is a path: GET, or POST when there is a body', () => {
    expect(methodAndPath('/credits', undefined, false)).toEqual({ method: 'GET', path: '/credits' });
    expect(methodAndPath('/evaluations/batch', undefined, true)).toEqual({ method: 'POST', path: '/evaluations/batch' });
    expect(methodAndPath('patch', '/x', false)).toEqual({ method: 'PATCH', path: '/x' });
    expect(() => methodAndPath('FETCH', '/x', false)).toThrow(UsageError);
  });

  it('paths are relative to the base URL; a repeated /v1 is dropped; other hosts are refused', () => {
    const base = 'http://127.0.0.1:4010/v1';
    expect(routePath('credits', base)).toBe('/credits');
    expect(routePath('/v1/credits', base)).toBe('/credits');
    expect(routePath('/v1', base)).toBe('/');
    expect(routePath('/v10/x', base)).toBe('/v10/x');
    expect(routePath('http://127.0.0.1:4010/v1/models?x=1', base)).toBe('/models?x=1');
    expect(() => routePath('http://127.0.0.1:4011/v1/models', base)).toThrow(/not under the base URL/);
    expect(routePath('/credits', 'https://host')).toBe('/credits');
  });

  it('-f is a string, -F a JSON literal or a file; key[] appends', () => {
    expect(
      parseFields(
        ['a=12', 'b=', 'c=x=y', 't[]=1', 't[]=two'],
        ['n=12', 'f=1.5e3', 'yes=true', 'no=false', 'nil=null', 's=twelve', 'file=@essay.pdf', 'neg=-3'],
      ),
    ).toEqual({
      values: { a: '12', b: '', c: 'x=y', t: ['1', 'two'], n: 12, f: 1500, yes: true, no: false, nil: null, s: 'twelve', neg: -3 },
      files: [{ field: 'file', path: 'essay.pdf' }],
    });
    expect(() => parseFields(['novalue'])).toThrow(/expected key=value/);
    expect(() => parseFields(['=x'])).toThrow(/expected key=value/);
    expect(() => parseFields([], ['f=@'])).toThrow(/name the file/);
  });

  it("headers: name:value, lower-cased; the key and content type are kct's", () => {
    expect(parseHeaders(['Idempotency-Key: k1', 'X-Trace:a:b'])).toEqual({ 'idempotency-key': 'k1', 'x-trace': 'a:b' });
    expect(() => parseHeaders(['X-API-Key:kct_abc'])).toThrow(/sets this header itself/);
    expect(() => parseHeaders(['Content-Type: text/plain'])).toThrow(UsageError);
    expect(() => parseHeaders(['no colon'])).toThrow(/expected name:value/);
  });

  it('query strings repeat array keys and keep an existing query', () => {
    expect(withQuery('/x', { a: 1, t: ['p', 'q'], n: null })).toBe('/x?a=1&t=p&t=q&n=');
    expect(withQuery('/x?y=1', { a: 'b c' })).toBe('/x?y=1&a=b+c');
    expect(withQuery('/x', {})).toBe('/x');
  });
});

describe('pager choice', () => {
  it('KCT_PAGER, then PAGER, then less -FRX; "" and cat mean none', () => {
    expect(choosePager({ KCT_PAGER: 'most', PAGER: 'more' })).toEqual({ command: 'most', source: 'KCT_PAGER' });
    expect(choosePager({ PAGER: 'more -s' })).toEqual({ command: 'more -s', source: 'PAGER' });
    expect(choosePager({})).toEqual({ command: 'less -FRX', source: 'default' });
    expect(choosePager({ KCT_PAGER: '', PAGER: 'more' })).toBeUndefined();
    expect(choosePager({ PAGER: 'cat' })).toBeUndefined();
  });
});

describe('key owner from GET /credits', () => {
  it('reads scope, account and organization in whatever shape they come', () => {
    expect(keyOwner({ scope: 'user', account: { id: 1, name: 'ana' } })).toEqual({ scope: 'user', account: 'ana (id 1)' });
    expect(keyOwner({ scope: 'organization', user: 'bo@example.org', organization: { name: 'Northfield' } })).toEqual({
      scope: 'organization',
      account: 'bo@example.org',
      organization: 'Northfield',
    });
    expect(keyOwner({ credits: 5 })).toEqual({});
    expect(describeOwner({})).toBe('the server does not say which account');
    expect(describeOwner({ scope: 'user', account: 'ana' })).toBe('scope user, account ana');
  });
});

describe('loopback callbacks', () => {
  it('names this machine only for loopback hosts', () => {
    for (const host of ['localhost', '127.0.0.1', '127.9.9.9', '[::1]', '::ffff:127.0.0.1', 'app.localhost'])
      expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['10.0.0.1', 'example.org', '192.168.1.2', '::']) expect(isLoopbackHost(host), host).toBe(false);
  });

  it('allows plain http only when the callback and the API are both on loopback', () => {
    expect(isLocalCallback(new URL('http://127.0.0.1:8080/'), 'http://127.0.0.1:4010/v1')).toBe(true);
    expect(isLocalCallback(new URL('http://127.0.0.1:8080/'), 'https://api.example/v1')).toBe(false);
    expect(isLocalCallback(new URL('http://hooks.example/'), 'http://127.0.0.1:4010/v1')).toBe(false);
    expect(isLocalCallback(new URL('https://127.0.0.1/'), 'http://127.0.0.1:4010/v1')).toBe(false);
    expect(isLocalCallback(new URL('http://127.0.0.1/'), undefined)).toBe(false);
  });
});

describe('man page text', () => {
  it('escapes backslashes, leading dots and quotes, and non-ASCII characters', () => {
    expect(roffEscape('a\\b')).toBe('a\\eb');
    expect(roffEscape(".hidden\n'quoted")).toBe("\\&.hidden\n\\&'quoted");
    expect(roffEscape('café – ok')).toBe('caf\\[u00E9] \\[u2013] ok');
  });
});
