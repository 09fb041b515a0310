// Types of bench/packed.js, for the tests that import it.
export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}
export function run(command: string, args: string[], options?: { cwd?: string; env?: NodeJS.ProcessEnv }): Promise<RunResult>;
export function packWorkspaces(dir: string): Promise<Record<string, string>>;
export interface Installed {
  seconds: number;
  megabytes: number;
  diskMegabytes: number;
  warnings: string[];
  packages: number;
  nativeAddons: string[];
  installScripts: string[];
  bin: string;
  modules: string;
}
export const SANDBOX_ALLOW_SCRIPTS: string;
export function installGlobally(prefix: string, tarballs: string[]): Promise<Installed>;
