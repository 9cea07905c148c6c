/**
 * `copysim/import`: real swap data turned into tapes, with a report of what was dropped and why
 * (docs/importers.md, docs/real-data.md). Each importer is an entry of one registry
 * (`io/import/registry.ts`), which `copysim import` is built from too.
 */
export * from './io/import/index.js';
