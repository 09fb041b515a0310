// Which key, base URL, model and output format apply, and where each came from.
// Precedence: flags > environment (KCT_*) > the profile in the config file. Pure, for testing.
import { fromEnv } from './environment.js';

export interface ProfileData {
  api_key?: string;
  base_url?: string;
  model?: string;
  output?: string;
  /** The account `kct keys` signs in with (never its password). */
  account?: string;
  /** The product base of the key routes, when it is not the base URL without /v1. */
  product_url?: string;
}

export interface StoredConfig {
  current_profile?: string;
  profiles?: Record<string, ProfileData>;
}

export interface SettingFlags {
  profile?: string;
  baseUrl?: string;
  model?: string;
  output?: string;
  account?: string;
  productUrl?: string;
}

interface Setting<T> {
  value?: T;
  source?: string;
}

export interface ResolvedSettings {
  profile: string;
  profileSource: string;
  /** Whether the config file has this profile (a typo in --profile or KCT_PROFILE has none). */
  profileExists: boolean;
  /** The profiles the config file has. */
  knownProfiles: string[];
  apiKey: Setting<string>;
  baseUrl: Setting<string>;
  model: Setting<string>;
  output: Setting<string>;
  account: Setting<string>;
  /** As set; `kct keys` derives it from the base URL when unset (commands/keys/product-session.ts). */
  productUrl: Setting<string>;
}

export const DEFAULT_PROFILE = 'default';

export function resolveSettings(flags: SettingFlags, env: NodeJS.ProcessEnv, stored: StoredConfig): ResolvedSettings {
  const [profile, profileSource] = pick<string>([
    [flags.profile, '--profile'],
    [fromEnv(env, 'KCT_PROFILE'), 'KCT_PROFILE'],
    [stored.current_profile, 'config file'],
    [DEFAULT_PROFILE, 'default'],
  ]);
  const data = stored.profiles?.[profile!] ?? {};
  const fromProfile = `profile "${profile}"`;
  const setting = (candidates: [string | undefined, string][]): Setting<string> => {
    const [value, source] = pick(candidates);
    return value === undefined ? {} : { value, source };
  };
  return {
    profile: profile!,
    profileSource: profileSource!,
    profileExists: stored.profiles?.[profile!] !== undefined,
    knownProfiles: Object.keys(stored.profiles ?? {}),
    // No flag for the key on purpose: a command-line argument shows in the process list.
    apiKey: setting([
      [fromEnv(env, 'KCT_API_KEY'), 'environment (KCT_API_KEY)'],
      [data.api_key, fromProfile],
    ]),
    baseUrl: setting([
      [flags.baseUrl, '--base-url'],
      [fromEnv(env, 'KCT_BASE_URL'), 'environment (KCT_BASE_URL)'],
      [data.base_url, fromProfile],
    ]),
    model: setting([
      [flags.model, '--model'],
      [fromEnv(env, 'KCT_MODEL'), 'environment (KCT_MODEL)'],
      [data.model, fromProfile],
    ]),
    output: setting([
      [flags.output, '--output'],
      [fromEnv(env, 'KCT_OUTPUT'), 'environment (KCT_OUTPUT)'],
      [data.output, fromProfile],
    ]),
    account: setting([
      [flags.account, '--account'],
      [fromEnv(env, 'KCT_ACCOUNT'), 'environment (KCT_ACCOUNT)'],
      [data.account, fromProfile],
    ]),
    productUrl: setting([
      [flags.productUrl, '--product-url'],
      [fromEnv(env, 'KCT_PRODUCT_URL'), 'environment (KCT_PRODUCT_URL)'],
      [data.product_url, fromProfile],
    ]),
  };
}

function pick<T>(candidates: [T | undefined, string][]): [T | undefined, string | undefined] {
  for (const [value, source] of candidates) {
    if (value !== undefined && value !== '') return [value, source];
  }
  return [undefined, undefined];
}
