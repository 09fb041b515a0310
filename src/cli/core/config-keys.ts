// The settings `kct config` may read and write, with their checks. The API key is not one of
// them: it goes through `kct auth login`, which verifies it first.
import { UsageError } from '../../api/errors.js';
import { checkBaseUrl } from '../../client/base-url.js';
import { OUTPUT_FORMATS } from '../render/format.js';
import { parsePositiveInteger } from './parse.js';
import type { ResolvedSettings } from './settings.js';

export const CONFIG_KEYS = ['base_url', 'model', 'output', 'product_url', 'account'] as const;
export type ConfigKey = (typeof CONFIG_KEYS)[number];

export function checkConfigKey(key: string, use: 'read' | 'write' = 'write'): ConfigKey {
  if (key === 'api_key') {
    throw use === 'read'
      ? new UsageError('the API key is never printed', { suggestion: 'Run `kct auth status` to see it masked, and where it comes from.' })
      : new UsageError('the API key is set with `kct auth login`, which checks it first');
  }
  if (key === 'password') {
    throw new UsageError('a password is never stored', {
      suggestion: '`kct keys` asks for it on a terminal, or reads it from --password-stdin or KCT_PASSWORD.',
    });
  }
  if (!(CONFIG_KEYS as readonly string[]).includes(key)) {
    throw new UsageError(`unknown setting "${key}"`, { suggestion: `Settings: ${CONFIG_KEYS.join(', ')}.` });
  }
  return key as ConfigKey;
}

export function checkConfigValue(key: ConfigKey, value: string): string {
  if (key === 'base_url' || key === 'product_url') {
    const example = key === 'base_url' ? 'https://host/v1' : 'https://host';
    // the one check of what a base URL may be (client/base-url.ts), with this command's way to give another
    checkBaseUrl(
      value,
      key,
      example,
      `For example: kct config set ${key} ${example}${key === 'base_url' ? ' (a local sandbox prints its own when it starts)' : ''}`,
    );
    return value.replace(/\/+$/, '');
  }
  if (key === 'account') {
    if (value.trim() === '') throw new UsageError('account must be the name of an account of the product, e.g. org_admin');
    return value.trim();
  }
  if (key === 'model') return String(parsePositiveInteger(value, 'model'));
  if (!(OUTPUT_FORMATS as readonly string[]).includes(value))
    throw new UsageError(`output must be one of ${OUTPUT_FORMATS.join(', ')}, not "${value}"`, {
      suggestion: 'For example: kct config set output ndjson (what commands that print rows print when no --output is given)',
    });
  return value;
}

export function settingFor(settings: ResolvedSettings, key: ConfigKey): { value?: string; source?: string } {
  const map: Record<ConfigKey, keyof ResolvedSettings> = {
    base_url: 'baseUrl',
    model: 'model',
    output: 'output',
    product_url: 'productUrl',
    account: 'account',
  };
  return settings[map[key]] as { value?: string; source?: string };
}
