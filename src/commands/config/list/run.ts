import { CONFIG_KEYS, settingFor } from '../../../cli/core/config-keys.js';
import type { Context } from '../../../cli/core/context.js';
import type { OptionsOf } from '../../../cli/core/define-command.js';
import { out } from '../../../cli/core/io.js';
import { formatFor, printRows } from '../../../cli/render/rows.js';
import { maskKey } from '../../../client/redact.js';
import type { command } from './command.js';

type Options = OptionsOf<typeof command>;

export async function run(options: Options, context: Context): Promise<void> {
  const settings = await context.settings();
  const rows = [
    { key: 'profile', value: settings.profile, source: settings.profileSource },
    { key: 'api_key', value: settings.apiKey.value ? maskKey(settings.apiKey.value) : undefined, source: settings.apiKey.source },
    ...CONFIG_KEYS.map((key) => ({ key, ...settingFor(settings, key) })),
  ];
  const format = await formatFor(options, context);
  if (format === 'json') {
    out(
      context.io,
      JSON.stringify(Object.fromEntries(rows.map((row) => [row.key, { value: row.value ?? null, source: row.source ?? null }])), null, 2),
    );
    return;
  }
  if (format !== 'table') {
    await printRows(
      context.io,
      format,
      rows,
      [
        { header: 'key', value: (row) => row.key },
        { header: 'value', value: (row) => row.value ?? null },
        { header: 'source', value: (row) => row.source ?? null },
      ],
      (row) => ({ key: row.key, value: row.value ?? null, source: row.source ?? null }),
    );
    return;
  }
  for (const row of rows) out(context.io, `${row.key.padEnd(9)} ${row.value ?? '(unset)'}${row.source ? `  [${row.source}]` : ''}`);
}
