// Library entry: the client, its errors and the API contract, without any CLI code.
export { KctClient, assertSendableKey, type KctClientOptions, type OnePassInput, type SubmitOptions } from './client/client.js';
export { ProductClient, type ProductClientOptions } from './client/product.js';
export { HttpClient, type HttpOptions, type HttpResponse, type RequestSpec } from './client/http.js';
export { watchTasks, pollSchedule, type WatchOptions } from './client/poll.js';
export { inspectFile, type LocalFile } from './client/files.js';
export { unwrapEnvelope } from './client/envelope.js';
export * from './api/errors.js';
export * from './api/schemas.js';
export * from './api/status.js';
export * from './api/limits.js';
export { OPERATIONS, API_PREFIX } from './api/operations.js';
export * from './api/product.js';
export { VERSION } from './version.js';
