// kct version: kct's version with the Node.js and platform it runs on, for bug reports.
import type { Context } from '../../cli/core/context.js';
import type { OptionsOf } from '../../cli/core/define-command.js';
import { out } from '../../cli/core/io.js';
import { exporterFor } from '../../cli/render/export.js';
import { VERSION } from '../../version.js';
import type { command } from './command.js';

type Options = OptionsOf<typeof command>;

export interface VersionReport {
  version: string;
  node: string;
  platform: string;
  arch: string;
}

export function versionReport(): VersionReport {
  return { version: VERSION, node: process.versions.node, platform: process.platform, arch: process.arch };
}

export async function run(options: Options, context: Context): Promise<void> {
  const report = versionReport();
  await (await exporterFor(options, context)).record(report, () =>
    out(context.io, `kct ${report.version} (Node.js ${report.node}, ${report.platform}-${report.arch})`),
  );
}
