// Types of scripts/build-docs.js, for test/unit/command-reference.test.ts.
export const COMMANDS_DIR: string;
export const ENVIRONMENT_GUIDE: string;
export const ENVIRONMENT_START: string;
export const ENVIRONMENT_END: string;
export function pageName(path: readonly string[]): string;
/** Every generated file as it should be, by its path from the repository's root. */
export function expectedDocs(): Promise<Map<string, string>>;
