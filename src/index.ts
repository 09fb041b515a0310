// Library entry: the client, its errors and the API contract, without any CLI code (docs/library.md).

export * from './api/errors.js';
export * from './api/limits.js';
export { API_PREFIX, OPERATIONS, type OperationName } from './api/operations.js';
export * from './api/product.js';
export * from './api/schemas.js';
export * from './api/status.js';
export { type BudgetOptions, type PaceReading, RequestBudget } from './client/budget.js';
export {
  type AcceptedTask,
  type BatchOptions,
  type CallOptions,
  type CancelResult,
  type IngestPreviewInput,
  type IngestPreviewResult,
  KctClient,
  type KctClientOptions,
  type OnePassInput,
  type OnePassOptions,
  type PreparedOnePass,
  type SubmitOptions,
  type WaitOptions,
} from './client/client.js';
export { unwrapEnvelope } from './client/envelope.js';
export { inspectFile, type LocalFile } from './client/files.js';
export { DEFAULT_TIMEOUTS, HttpClient, type HttpOptions, type HttpResponse, type RequestSpec, type Timeouts } from './client/http.js';
export {
  type BatchIdempotency,
  cachedHasher,
  deriveIdempotencyKey,
  type FileHasher,
  type KeyRule,
  type OnePassIdempotency,
} from './client/idempotency.js';
export { identityOf } from './client/identity.js';
export { ModelWaitInterruptedError, type ModelWaitOptions, ModelWaitTimeoutError } from './client/model-wait.js';
export { type PollSchedule, pollSchedule, type StatusFetcher, TaskPoller, type WatchOptions, watchTasks } from './client/poll.js';
export { ProductClient, type ProductClientOptions } from './client/product.js';
export { DEFAULT_RETRY, type RetryPolicy } from './client/retry.js';
export { assertSendableKey } from './client/sendable-key.js';
export { VERSION } from './version.js';
