// kct as a single-file executable (scripts/build-exe.js): the modules it cannot hold (native
// addons, the OCR engine) are replaced by ones that throw KCT_NOT_IN_EXE when loaded.
import { UsageError } from '../../api/errors.js';

/** Turns "this module is not embedded" into a message naming the command and the way out; rethrows anything else. */
export function notInExecutable(command: string): (error: unknown) => never {
  return (error) => {
    const missing = error as { code?: unknown; module?: unknown };
    if (missing?.code !== 'KCT_NOT_IN_EXE') throw error;
    throw new UsageError(
      `${command} needs the npm package of kct: the single-file executable cannot hold ${String(missing.module)} (a native module)`,
      {
        suggestion: `Install kct and its sandbox with npm on Node.js 20.19 or newer (both tarballs of \`npm run pack\` in one npm install -g: docs/guides/install.md), then run ${command}. Every other command works in this executable.`,
      },
    );
  };
}
