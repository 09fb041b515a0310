// The config file, through `conf`: one JSON file under the XDG config dir, directory 0700,
// file 0600 (it holds API keys).
import { mkdirSync, chmodSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { ProfileData, StoredConfig } from './settings.js';

export function configDir(env: NodeJS.ProcessEnv): string {
  if (env.KCT_CONFIG_DIR) return env.KCT_CONFIG_DIR;
  const base = env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return join(base, 'kct');
}

export const CONFIG_FILE_NAME = 'config';

export interface ConfigStore {
  readonly path: string;
  read(): StoredConfig;
  setProfileValue(profile: string, key: keyof ProfileData, value: string | undefined): void;
  setCurrentProfile(profile: string): void;
}

export async function openConfigStore(env: NodeJS.ProcessEnv): Promise<ConfigStore> {
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
