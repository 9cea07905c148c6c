import type { FastifyPluginAsync } from 'fastify';
import { buildOpenApiDocument } from '../openapi.js';
import { OPERATIONS } from '../operations.js';

/** The routes that need no key and cost nothing: the OpenAPI 3.1 document and the health check. */
export const freeRoutes: FastifyPluginAsync = async (app) => {
  app.get('/health', async () => ({ status: 'ok' }));
  const openApi = buildOpenApiDocument(OPERATIONS);
  app.get('/v1/openapi.json', async () => openApi);
};
