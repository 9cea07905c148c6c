// The HTTP service: the interface's six operations with API keys and credits. Its packages
// (Fastify, better-sqlite3) are optional dependencies of copysim: importing this entry point
// without them fails at once with a message that says what to install. The PostgreSQL client
// and ioredis are loaded only by a service that uses them.
import { requireServiceDependencies } from './service-dependencies.js';

requireServiceDependencies();

export { createServer, DEFAULT_BODY_LIMIT, type ServiceOptions } from './app.js';
export { startServer, type StartOptions, type RunningServer } from './start.js';
export { loadTapes, bundledDataDir, type ServedTape, type DataFolder } from './data.js';
export { HttpError, type HttpErrorBody } from './http-error.js';
export type { CreditsSpent } from './credits.js';
export { KeyStore, type Charge, type KeyStoreOptions, type AnswerRow, type StoredAnswerRow } from './keys/key-store.js';
export {
  IDEMPOTENCY_TTL_SECONDS,
  LedgerUnavailableError,
  type Ledger,
  type ApiKeyRecord,
  type ApiKeyListing,
  type LedgerRow,
  type ChargeOutcome,
  type Hold,
  type HoldOutcome,
  type Claim,
  type ClaimOutcome,
  type StoredAnswer,
  type AnswerToStore,
  type NewKey,
  type KeyStatus,
  KEY_STATUS_MAX_AGE_MS,
} from './ledger/ledger.js';
export { SqliteLedger } from './ledger/sqlite-ledger.js';
export {
  PostgresLedger,
  DEFAULT_LEASE_SECONDS,
  migratePostgres,
  type PostgresLedgerOptions,
} from './ledger/postgres-ledger.js';
export { POSTGRES_MIGRATIONS } from './ledger/postgres-schema.js';
export { openLedger, type OpenLedgerOptions } from './ledger/open-ledger.js';
export { isPostgresUrl, shownDatabase } from './ledger/shown-database.js';
export { parseRate, formatRate, isUnlimited, UNLIMITED, type RateLimit } from './rate-limit/rate.js';
export {
  MemoryRateLimiter,
  rateLimitHeaders,
  type RateLimiter,
  type RateDecision,
  type WindowState,
} from './rate-limit/limiter.js';
export { RedisRateLimiter } from './rate-limit/redis-limiter.js';
export { checkHealth, type HealthReport } from './health.js';
export { MIGRATIONS, SCHEMA_VERSION, migrate, type Migration } from './keys/migrations.js';
export {
  SimulationPool,
  defaultPoolSize,
  type Simulator,
  type SimulationAnswer,
  type SimulationPoolOptions,
} from './simulation/pool.js';
export { OPERATIONS, type OperationSpec, type OperationId } from './operations.js';
export { buildOpenApiDocument, type OpenApiDocument } from './openapi.js';
export { CreditsSchema, HttpErrorBodySchema, ForbiddenBodySchema } from './schemas.js';
export {
  MissingDependencyError,
  SERVICE_PACKAGES,
  POSTGRES_PACKAGES,
  requireServiceDependencies,
} from './service-dependencies.js';
