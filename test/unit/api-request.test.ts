// kct api's arguments: the method and path, paths under the base URL, -f/-F fields, headers and
// query strings.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/api/errors.js';
import {
  type FieldArg,
  fieldArgs,
  methodAndPath,
  parseFields,
  parseHeaders,
  routePath,
  withQuery,
} from '../../src/cli/core/api-request.js';
import { propertyRuns, propertySeed } from './property-runs.js';

const RUNS = propertyRuns(100);
const SEED = propertySeed(13);

describe('kct api arguments', () => {
  it('one argument is a path: GET, or POST when there is a body', () => {
    expect(methodAndPath('/credits', undefined, false)).toEqual({ method: 'GET', path: '/credits' });
    expect(methodAndPath('/evaluations/batch', undefined, true)).toEqual({ method: 'POST', path: '/evaluations/batch' });
    expect(methodAndPath('patch', '/x', false)).toEqual({ method: 'PATCH', path: '/x' });
    expect(() => methodAndPath('FETCH', '/x', false)).toThrow(UsageError);
    // a method alone is a route left out, not a route named GET
    for (const method of ['GET', 'post', 'DELETE'])
      expect(() => methodAndPath(method, undefined, false)).toThrow(/needs a route after the method/);
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
      parseFields([
        ...['a=12', 'b=', 'c=x=y', 't[]=1', 't[]=two'].map((entry): FieldArg => ['-f', entry]),
        ...['n=12', 'f=1.5e3', 'yes=true', 'no=false', 'nil=null', 's=twelve', 'file=@essay.pdf', 'neg=-3'].map(
          (entry): FieldArg => ['-F', entry],
        ),
      ]),
    ).toEqual({
      values: { a: '12', b: '', c: 'x=y', t: ['1', 'two'], n: 12, f: 1500, yes: true, no: false, nil: null, s: 'twelve', neg: -3 },
      files: [{ field: 'file', path: 'essay.pdf' }],
    });
    expect(() => parseFields([['-f', 'novalue']])).toThrow(/expected key=value/);
    expect(() => parseFields([['-f', '=x']])).toThrow(/expected key=value/);
    expect(() => parseFields([['-F', 'f=@']])).toThrow(/name the file/);
  });

  it('key[]= appends in the order given, whichever flag gives it', () => {
    const given = fieldArgs([
      ['rawField', 'x[]=1'],
      ['header', 'A:b'],
      ['field', 'x[]=2'],
      ['rawField', 'x[]=3'],
    ]);
    expect(given).toEqual([
      ['-f', 'x[]=1'],
      ['-F', 'x[]=2'],
      ['-f', 'x[]=3'],
    ]);
    expect(parseFields(given).values).toEqual({ x: ['1', 2, '3'] });
  });

  it(`property: an array holds its items in the order given across -f and -F (seed ${SEED}, ${RUNS} runs)`, () => {
    const item = fc.record({ flag: fc.constantFrom<'-f' | '-F'>('-f', '-F'), text: fc.stringMatching(/^[a-z]{1,4}$/) });
    fc.assert(
      fc.property(fc.array(item, { maxLength: 12 }), (items) => {
        const inOrder = items.map(({ flag, text }) => [flag === '-f' ? 'rawField' : 'field', `t[]=${text}`]);
        const { values } = parseFields(fieldArgs(inOrder));
        expect(values.t ?? []).toEqual(items.map(({ text }) => text));
      }),
      { seed: SEED, numRuns: RUNS },
    );
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
