// The HTTP service: the interface's six operations with API keys and credits. Its packages
// (Fastify, better-sqlite3) are optional dependencies of copysim: importing this entry point
// without them fails at once with a message that says what to install.
import { requireServiceDependencies } from './service-dependencies.js';

requireServiceDependencies();

export { createServer, DEFAULT_BODY_LIMIT, type ServiceOptions } from './app.js';
export { startServer, type StartOptions, type RunningServer } from './start.js';
export { loadTapes, bundledDataDir, type ServedTape, type DataFolder } from './data.js';
export { HttpError, type HttpErrorBody } from './http-error.js';
export { CreditMeter, CreditHold, type CreditsSpent } from './credits.js';
export {
  KeyStore,
  type ApiKeyRecord,
  type ApiKeyListing,
  type LedgerRow,
  type Charge,
  type ChargeOutcome,
  type KeyStoreOptions,
} from './keys/key-store.js';
export { MIGRATIONS, SCHEMA_VERSION, migrate, type Migration } from './keys/migrations.js';
export { SimulationPool, defaultPoolSize, type Simulator, type SimulationPoolOptions } from './simulation/pool.js';
export { OPERATIONS, type OperationSpec, type OperationId } from './operations.js';
export { buildOpenApiDocument, type OpenApiDocument } from './openapi.js';
export { CreditsSchema, HttpErrorBodySchema, ForbiddenBodySchema } from './schemas.js';
export { MissingDependencyError, SERVICE_PACKAGES, requireServiceDependencies } from './service-dependencies.js';
