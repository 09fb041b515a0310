// The parts of undici the client uses, from its public exports only (undici's index): a
// keep-alive Agent, the proxy-aware EnvHttpProxyAgent, its FormData (Node's global FormData,
// from the copy of undici Node bundles, is not one this undici can send) and its connector.

export type { Dispatcher } from 'undici';
export { Agent, buildConnector, EnvHttpProxyAgent, FormData } from 'undici';
