#!/usr/bin/env node
// kct-sandbox: the sandbox on its own, the same command as `kct sandbox` (its flags, --help and
// output are kct's: this package depends on kct), with this package handed in as the sandbox.
import { main } from 'kct/cli';

process.exitCode = await main(['sandbox', ...process.argv.slice(2)], {
  exit: (code) => process.exit(code),
  sandbox: () => import('../dist/server.js'),
});
