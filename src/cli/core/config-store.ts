// The config file: one JSON file under the XDG config dir, directory 0700, file 0600 (it holds
// API keys). Reading is a plain JSON parse, since every command reads it and conf (with ajv and
// semver) costs ~80 ms to load; writing goes through conf (atomic writes, file mode).
import { chmodSync, mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../../api/errors.js';
import { isPlainObject } from '../../client/envelope.js';
import { fromEnv } from './environment.js';
import type { ProfileData, StoredConfig } from './settings.js';

function configDir(env: NodeJS.ProcessEnv): string {
  const configured = fromEnv(env, 'KCT_CONFIG_DIR');
  if (configured) return configured;
  const base = env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return join(base, 'kct');
}

/**
 * Where kct keeps what it learns as it runs (the ledger of what was sent): KCT_STATE_DIR, else
 * beside a KCT_CONFIG_DIR (tests and portable set-ups keep all of kct's files in one place), else
 * $XDG_STATE_HOME/kct, as gh keeps its state apart from its config.
 */
export function stateDir(env: NodeJS.ProcessEnv): string {
  const state = fromEnv(env, 'KCT_STATE_DIR');
  if (state) return state;
  const config = fromEnv(env, 'KCT_CONFIG_DIR');
  if (config) return join(config, 'state');
  return join(env.XDG_STATE_HOME || join(homedir(), '.local', 'state'), 'kct');
}

const CONFIG_FILE_NAME = 'config';

export function configPath(env: NodeJS.ProcessEnv): string {
  return join(configDir(env), `${CONFIG_FILE_NAME}.json`);
}

export interface ConfigStore {
  readonly path: string;
  read(): StoredConfig;
  setProfileValue(profile: string, key: keyof ProfileData, value: string | undefined): void;
  setCurrentProfile(profile: string): void;
}

/**
 * Stores a profile's key and base URL (`kct auth login`, `kct keys create --save-as`). It becomes
 * the current one when none is set and the profile in use (`default`) does not exist; saved beside
 * an existing `default` (a `ci` profile next to it), it leaves the current one as it was.
 */
export function saveKeyProfile(store: ConfigStore, profile: string, key: string, baseUrl: string): void {
  const before = store.read();
  // the profile in use now (the current one, else `default`) stays in use if it exists; else the key would be unreachable
  const inUse = before.current_profile ?? 'default';
  const first = !before.current_profile && (inUse === profile || before.profiles?.[inUse] === undefined);
  store.setProfileValue(profile, 'api_key', key);
  store.setProfileValue(profile, 'base_url', baseUrl);
  if (first) store.setCurrentProfile(profile);
}

/** The stored config, or an empty one when there is no file yet. Creates nothing. */
export function readStoredConfig(env: NodeJS.ProcessEnv): StoredConfig {
  const path = configPath(env);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return {};
    throw new UsageError(`cannot read the config file ${path} (${code ?? String(error)})`, {
      suggestion: 'Check its permissions, or point KCT_CONFIG_DIR at another folder.',
    });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`the config file ${path} is not valid JSON: ${(error as Error).message}`, {
      suggestion: 'Fix it by hand, or delete it and run `kct auth login` again.',
    });
  }
  if (!isPlainObject(parsed)) {
    throw new UsageError(`the config file ${path} does not hold a JSON object`, {
      suggestion: 'Delete it and run `kct auth login` again.',
    });
  }
  const wrong = misplacedValue(parsed);
  if (wrong !== undefined) {
    throw new UsageError(`the config file ${path} has ${wrong}`, {
      suggestion: 'Fix it by hand (every setting is a string), or set it again with `kct config set` or `kct auth login`.',
    });
  }
  return parsed as StoredConfig;
}

/** Where a hand-edited file breaks the shape kct reads (a string where a string belongs), described; undefined when it is fine. */
function misplacedValue(config: Record<string, unknown>): string | undefined {
  if (config.current_profile !== undefined && typeof config.current_profile !== 'string') return 'a current_profile that is not a string';
  if (config.profiles === undefined) return undefined;
  if (!isPlainObject(config.profiles)) return '"profiles" that is not an object';
  for (const [name, profile] of Object.entries(config.profiles)) {
    if (!isPlainObject(profile)) return `a profile "${name}" that is not an object`;
    for (const [key, value] of Object.entries(profile)) {
      if (value !== undefined && typeof value !== 'string') return `profiles.${name}.${key} set to ${JSON.stringify(value)}, not a string`;
    }
  }
  return undefined;
}

/** The config for writing; reads are checked first, so a broken file is reported, not overwritten. */
export async function openConfigStore(env: NodeJS.ProcessEnv): Promise<ConfigStore> {
  readStoredConfig(env);
  const dir = configDir(env);
  // conf would create the folder 0755; create it first, private.
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  try {
    chmodSync(dir, 0o700);
  } catch {
    // not ours to change (e.g. a shared mount): the file itself is still 0600
  }
  const { default: Conf } = await import('conf');
  const conf = new Conf<StoredConfig>({
    cwd: dir,
    configName: CONFIG_FILE_NAME,
    projectSuffix: '',
    configFileMode: 0o600,
    clearInvalidConfig: false,
  });
  return {
    path: conf.path,
    read: () => conf.store,
    setProfileValue(profile, key, value) {
      const profiles = { ...(conf.get('profiles') ?? {}) };
      const data: ProfileData = { ...(profiles[profile] ?? {}) };
      if (value === undefined) delete data[key];
      else data[key] = value;
      profiles[profile] = data;
      conf.set('profiles', profiles);
    },
    setCurrentProfile(profile) {
      conf.set('current_profile', profile);
    },
  };
}
