// Who an API key belongs to, as read from the body of GET /credits and told to a person.
import { describe, expect, it } from 'vitest';
import { describeOwner, keyOwner } from '../../src/cli/core/account.js';

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
