// The package's entry points as the server tests use them: `copysim`, `copysim/analytics` and `copysim/server`.
export * from '../../../src/index.js';
export * from '../../../src/analytics.js';
export * from '../../../src/server/index.js';
