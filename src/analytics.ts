/**
 * `copysim/analytics`: the wallet analytics reads (interface 4.2 to 4.6) over a tape
 * (docs/analytics.md).
 */
export * from './analytics/index.js';
