import type { Context } from '../../../cli/context.js';
import { checkConfigKey, settingFor } from '../../../cli/config-keys.js';
import { out } from '../../../cli/io.js';
import { formatFor, printRecord } from '../../../cli/render/rows.js';
import type { OptionsOf } from '../../../cli/define-command.js';
import type { command } from './command.js';

type Options = OptionsOf<typeof command>;

export async function run(options: Options, context: Context): Promise<void> {
  const key = checkConfigKey(options.key, 'read');
  const setting = settingFor(await context.settings(), key);
  await printRecord(context.io, await formatFor(options, context), { key, value: setting.value ?? null, source: setting.source ?? null }, () => {
    if (setting.value !== undefined) out(context.io, setting.value);
  });
}
