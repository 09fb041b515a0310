// A key pasted with the words around it (kct sandbox's line "user          kct_sbx_…", or
// "KCT_API_KEY=kct_…") is refused for what it is: "paste only the key", the key masked, never
// echoed; a third-party provider's key still gets its own refusal (walk-h4, defect 6).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CredentialsError } from '../../../src/api/errors.js';
import { assertSendableKey } from '../../../src/client/sendable-key.js';
import { propertyRuns, propertySeed } from '../property-runs.js';

const refusal = (text: string): CredentialsError => {
  try {
    assertSendableKey(text);
  } catch (error) {
    return error as CredentialsError;
  }
  throw new Error(`${text} was taken as a key`);
};

const key = fc
  .tuple(fc.constantFrom('kct_', 'kct_sbx_', 'kct_live_'), fc.stringMatching(/^[a-f0-9]{24,40}$/))
  .map(([prefix, secret]) => `${prefix}${secret}`);
const words = fc.constantFrom('user', 'org_admin', 'broke  ', 'KCT_API_KEY=', 'export KCT_API_KEY=', 'key:');

describe('a key pasted among other words', () => {
  it("kct sandbox's whole line: told to paste only the key, the key masked", () => {
    const pasted = 'user          kct_sbx_108e3b0fee6b118dca3a08b4fa4c71fd';
    const error = refusal(pasted);
    expect(error.message).toBe('the text given as the API key holds a key (kct_****71fd) among other words');
    expect(error.suggestion).toBe('Paste only the key, the word that begins with kct_, not the account name or anything else on its line.');
    expect(error.message).not.toMatch(/third-party/);
    // a key alone is taken; another provider's key keeps its own refusal
    expect(() => assertSendableKey('kct_sbx_108e3b0fee6b118dca3a08b4fa4c71fd')).not.toThrow();
    expect(refusal('sk-proj-abcdef1234567890').message).toMatch(/does not begin with kct_/);
  });

  it(`property: words before or after one key or several, never the key in the words said (seed ${propertySeed(6102)})`, () => {
    fc.assert(
      fc.property(fc.array(key, { minLength: 1, maxLength: 3 }), words, fc.option(words, { nil: undefined }), (keys, before, after) => {
        const pasted = `${before}${keys.join(' ')}${after === undefined ? '' : ` ${after}`}`;
        const error = refusal(pasted);
        expect(error).toBeInstanceOf(CredentialsError);
        const said = `${error.message} ${error.suggestion}`;
        expect(said).toMatch(/^the text given as the API key holds /);
        expect(said).toContain('Paste only the key, the word that begins with kct_,');
        // neither a key nor the secret after its prefix is ever shown
        for (const k of keys) {
          expect(said).not.toContain(k);
          expect(said).not.toContain(k.slice(k.indexOf('_', 4) + 1, -4));
        }
      }),
      { numRuns: propertyRuns(200), seed: propertySeed(6102) },
    );
  });
});
