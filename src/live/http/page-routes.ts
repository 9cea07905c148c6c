import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { uplotFiles, webDir } from '../../report/html/assets.js';

const TYPES: Readonly<Record<string, string>> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
};
/** A file the page may ask for: a plain name, a script or a style sheet. */
const FILE = /^[\w-]+\.(js|css)$/;

/**
 * The live page at `/` (web/live/): open positions, PnL and equity over time, recent trades and
 * skipped copies, kept up to date by the server-sent events of `/events`. It draws with the
 * report's modules (web/report/, under `/report/`) and uPlot (`/vendor/`).
 */
export function pageRoutes(app: FastifyInstance): void {
  const web = webDir();
  const uplot = uplotFiles();
  const file = (folder: string, name: string): { type: string; text: string } | null => {
    const match = FILE.exec(name);
    const path = join(web, folder, name);
    return match === null || !existsSync(path) ? null : { type: TYPES[match[1]!]!, text: readFileSync(path, 'utf8') };
  };
  app.get('/', async (_request, reply) =>
    reply.type('text/html; charset=utf-8').send(readFileSync(join(web, 'live', 'index.html'), 'utf8')),
  );
  for (const folder of ['live', 'report']) {
    app.get<{ Params: { name: string } }>(`/${folder}/:name`, async (request, reply) => {
      const found = file(folder, request.params.name);
      if (found === null)
        return reply.code(404).send({ code: 'not_found', detail: `no file ${folder}/${request.params.name}` });
      return reply.type(found.type).send(found.text);
    });
  }
  app.get('/vendor/uPlot.iife.min.js', async (_request, reply) => reply.type(TYPES.js!).send(uplot.script));
  app.get('/vendor/uPlot.min.css', async (_request, reply) => reply.type(TYPES.css!).send(uplot.css));
}
