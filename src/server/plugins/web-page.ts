/**
 * The service's web page at `/`: plain ES modules from the package's `web/` folder and uPlot's
 * browser build, served as files by @fastify/static. The page is a client like any other: it
 * calls the public `/v1` operations with the key its user enters, and spends its credits.
 */
import type { FastifyPluginAsync } from 'fastify';
import { webDir, uplotFiles } from '../../report/html/assets.js';
import { loadFastifyStatic } from '../service-dependencies.js';

export const webPagePlugin: FastifyPluginAsync = async (app) => {
  const fastifyStatic = loadFastifyStatic();
  // index.html at `/`, the page's modules under /app/ and the report's under /report/. A route a
  // file (no catch-all `/*`), so that any other path stays the service's: its 404, 405 and 414.
  app.register(fastifyStatic, {
    root: webDir(),
    prefix: '/',
    index: 'index.html',
    cacheControl: false,
    etag: true,
    wildcard: false,
  });
  // uPlot, from the installed package (read once: it is 53 kB).
  const uplot = uplotFiles();
  app.get('/vendor/uPlot.iife.min.js', async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').send(uplot.script),
  );
  app.get('/vendor/uPlot.min.css', async (_request, reply) => reply.type('text/css; charset=utf-8').send(uplot.css));
};
