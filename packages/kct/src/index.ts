// Library entry: the client, its errors and the API contract, without any CLI code (docs/library.md).
export {
  KctClient, assertSendableKey,
  type KctClientOptions, type CallOptions, type OnePassInput, type SubmitOptions, type OnePassOptions, type BatchOptions, type PreparedOnePass,
  type IngestPreviewInput, type IngestPreviewResult, type CancelResult, type WaitOptions, type AcceptedTask,
} from './client/client.js';
export { HttpClient, DEFAULT_TIMEOUTS, type HttpOptions, type HttpResponse, type RequestSpec, type Timeouts } from './client/http.js';
export { DEFAULT_RETRY, type RetryPolicy } from './client/retry.js';
export { TaskPoller, watchTasks, pollSchedule, type WatchOptions, type PollSchedule, type StatusFetcher } from './client/poll.js';
export { ProductClient, type ProductClientOptions } from './client/product.js';
export { inspectFile, type LocalFile } from './client/files.js';
export {
  deriveIdempotencyKey, cachedHasher, type KeyRule, type OnePassIdempotency, type BatchIdempotency, type FileHasher,
} from './client/idempotency.js';
export { ModelWaitTimeoutError, ModelWaitInterruptedError, type ModelWaitOptions } from './client/model-wait.js';
export { unwrapEnvelope } from './client/envelope.js';
export * from './api/errors.js';
export * from './api/schemas.js';
export * from './api/status.js';
export * from './api/limits.js';
export { OPERATIONS, API_PREFIX, type OperationName } from './api/operations.js';
export * from './api/product.js';
export { VERSION } from './version.js';
