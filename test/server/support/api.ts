// The package's two entry points as the server tests use them: `copysim` and `copysim/server`.
export * from '../../../src/index.js';
export * from '../../../src/server/index.js';
