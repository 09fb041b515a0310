import { describe, expect, it } from 'vitest';
import { DEFAULT_PROFILE, resolveSettings, type StoredConfig } from '../../src/cli/core/settings.js';

const stored: StoredConfig = {
  current_profile: 'work',
  profiles: {
    default: { api_key: 'kct_default_key_000000', base_url: 'https://default.example/v1', model: '1', output: 'table' },
    work: { api_key: 'kct_work_key_111111', base_url: 'https://work.example/v1', model: '22', output: 'csv' },
    staging: { api_key: 'kct_staging_key_222222', base_url: 'https://staging.example/v1' },
  },
};

const fullEnv = {
  KCT_API_KEY: 'kct_env_key_333333',
  KCT_BASE_URL: 'https://env.example/v1',
  KCT_MODEL: '33',
  KCT_OUTPUT: 'json',
};

describe('resolveSettings: profile choice', () => {
  it('--profile beats KCT_PROFILE and current_profile', () => {
    const settings = resolveSettings({ profile: 'staging' }, { KCT_PROFILE: 'default' }, stored);
    expect(settings.profile).toBe('staging');
    expect(settings.profileSource).toBe('--profile');
    expect(settings.baseUrl.value).toBe('https://staging.example/v1');
  });

  it('KCT_PROFILE beats current_profile', () => {
    const settings = resolveSettings({}, { KCT_PROFILE: 'staging' }, stored);
    expect(settings.profile).toBe('staging');
    expect(settings.profileSource).toBe('KCT_PROFILE');
  });

  it('uses current_profile from the config file next', () => {
    const settings = resolveSettings({}, {}, stored);
    expect(settings.profile).toBe('work');
    expect(settings.profileSource).toBe('config file');
    expect(settings.apiKey).toEqual({ value: 'kct_work_key_111111', source: 'profile "work"' });
  });

  it('falls back to the default profile', () => {
    const settings = resolveSettings({}, {}, { profiles: stored.profiles });
    expect(settings.profile).toBe(DEFAULT_PROFILE);
    expect(settings.profile).toBe('default');
    expect(settings.profileSource).toBe('default');
    expect(settings.model.value).toBe('1');
  });

  it('ignores empty strings when choosing the profile', () => {
    const settings = resolveSettings({ profile: '' }, { KCT_PROFILE: '' }, { ...stored, current_profile: '' });
    expect(settings.profile).toBe('default');
    expect(settings.profileSource).toBe('default');
  });

  it('gives empty settings for a profile that does not exist', () => {
    const settings = resolveSettings({ profile: 'ghost' }, {}, stored);
    expect(settings.profile).toBe('ghost');
    expect(settings.apiKey).toEqual({});
    expect(settings.baseUrl).toEqual({});
    expect(settings.model).toEqual({});
    expect(settings.output).toEqual({});
  });

  it('works with an empty config', () => {
    const settings = resolveSettings({}, {}, {});
    expect(settings.profile).toBe('default');
    expect(settings.apiKey.value).toBeUndefined();
  });
});

describe('resolveSettings: precedence of values', () => {
  it('flags beat the environment, which beats the profile', () => {
    const settings = resolveSettings({ baseUrl: 'https://flag.example/v1', model: '44', output: 'ndjson' }, fullEnv, stored);
    expect(settings.baseUrl).toEqual({ value: 'https://flag.example/v1', source: '--base-url' });
    expect(settings.model).toEqual({ value: '44', source: '--model' });
    expect(settings.output).toEqual({ value: 'ndjson', source: '--output' });
    expect(settings.apiKey).toEqual({ value: 'kct_env_key_333333', source: 'environment (KCT_API_KEY)' });
  });

  it('the environment beats the profile', () => {
    const settings = resolveSettings({}, fullEnv, stored);
    expect(settings.baseUrl).toEqual({ value: 'https://env.example/v1', source: 'environment (KCT_BASE_URL)' });
    expect(settings.model).toEqual({ value: '33', source: 'environment (KCT_MODEL)' });
    expect(settings.output).toEqual({ value: 'json', source: 'environment (KCT_OUTPUT)' });
  });

  it('the profile fills what flags and environment leave open, naming the profile', () => {
    const settings = resolveSettings({ model: '55' }, { KCT_BASE_URL: 'https://env.example/v1' }, stored);
    expect(settings.model.source).toBe('--model');
    expect(settings.baseUrl.source).toBe('environment (KCT_BASE_URL)');
    expect(settings.apiKey).toEqual({ value: 'kct_work_key_111111', source: 'profile "work"' });
    expect(settings.output).toEqual({ value: 'csv', source: 'profile "work"' });
  });

  it('ignores empty strings in flags and environment', () => {
    const settings = resolveSettings(
      { baseUrl: '', model: '', output: '' },
      { KCT_API_KEY: '', KCT_BASE_URL: '', KCT_MODEL: '', KCT_OUTPUT: '' },
      stored,
    );
    expect(settings.apiKey.source).toBe('profile "work"');
    expect(settings.baseUrl).toEqual({ value: 'https://work.example/v1', source: 'profile "work"' });
    expect(settings.model.value).toBe('22');
    expect(settings.output.value).toBe('csv');
  });

  it('ignores an empty string stored in the profile', () => {
    const settings = resolveSettings({}, {}, { profiles: { default: { api_key: '', model: '' } } });
    expect(settings.apiKey).toEqual({});
    expect(settings.model).toEqual({});
  });

  it('takes the key only from the environment or the profile, never from flags', () => {
    const flags = { apiKey: 'kct_flag_key_999999', api_key: 'kct_flag_key_999999', key: 'kct_flag_key_999999' };
    const settings = resolveSettings(flags as Parameters<typeof resolveSettings>[0], {}, stored);
    expect(settings.apiKey.value).toBe('kct_work_key_111111');
    expect(settings.apiKey.source).not.toMatch(/^--/);
  });
});
