// The parts of undici the client uses, loaded one by one. undici's index loads all of undici
// (fetch, WebSocket, caches, mocks: 110 files) and, by reading globalThis.Headers, Node's own
// bundled copy of undici as well; the client needs a few dispatchers, the request API and
// FormData (about 50 files). That saves ~7 MB of peak memory and ~55 ms of start-up
// (docs/benchmarks.md). These paths are undici's internal layout, so package.json pins undici's
// exact version and test/unit/undici-parts.test.ts checks them against undici's own exports.
import { createRequire } from 'node:module';
import type * as Undici from 'undici';

const require = createRequire(import.meta.url);

// What undici's index does to every dispatcher: give it request(), connect() (proxies tunnel
// with it), stream(), pipeline() and upgrade().
const DispatcherClass = require('undici/lib/dispatcher/dispatcher.js') as { prototype: object };
Object.assign(DispatcherClass.prototype, require('undici/lib/api/index.js'));

export const Agent: typeof Undici.Agent = require('undici/lib/dispatcher/agent.js');
export const EnvHttpProxyAgent: typeof Undici.EnvHttpProxyAgent = require('undici/lib/dispatcher/env-http-proxy-agent.js');
export const FormData: typeof Undici.FormData = (require('undici/lib/web/fetch/formdata.js') as { FormData: typeof Undici.FormData }).FormData;
/** undici's own connector (TLS, timeouts, keep-alive), wrapped by connector.ts. */
export const buildConnector: typeof Undici.buildConnector = require('undici/lib/core/connect.js');

export type Dispatcher = Undici.Dispatcher;
export type FormData = Undici.FormData;
