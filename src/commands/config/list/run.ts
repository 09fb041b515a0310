import { CONFIG_KEYS, settingFor } from '../../../cli/core/config-keys.js';
import type { Context } from '../../../cli/core/context.js';
import type { OptionsOf } from '../../../cli/core/define-command.js';
import { exporterFor } from '../../../cli/render/export.js';
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
  const list = rows.map((row) => ({ key: row.key, value: row.value ?? null, source: row.source ?? null }));
  await (await exporterFor(options, context)).list(
    list,
    [
      { name: 'key', header: 'Setting', value: (row) => row.key },
      { name: 'value', header: 'Value', value: (row) => row.value, show: (row) => row.value ?? '(unset)' },
      { name: 'source', header: 'From', value: (row) => row.source },
    ],
    // json is one object by setting, as `kct config get` names them
    { document: () => Object.fromEntries(list.map(({ key, value, source }) => [key, { value, source }])) },
  );
}
