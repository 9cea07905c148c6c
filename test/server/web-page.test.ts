/**
 * The web page's files as `copysim serve` serves them (the browser test drives the page itself):
 * free, no key needed, with their content types; an unknown file is the service's JSON 404.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuild } from './support/build.js';
import { call } from './support/http.js';
import { serve, workspace, type ServeProcess, type Workspace } from './support/serve.js';
import { PROJECT_ROOT } from '../support/paths.js';

let ws: Workspace;
let server: ServeProcess;

beforeAll(async () => {
  ws = workspace();
  server = await serve(await ensureBuild(), ws);
});

afterAll(async () => {
  expect(await server?.stop()).toBe(0);
  ws?.remove();
});

describe('the web page at /', () => {
  it.each([
    ['/', 'text/html', join('web', 'index.html')],
    ['/app/app.js', 'javascript', join('web', 'app', 'app.js')],
    ['/report/report.js', 'javascript', join('web', 'report', 'report.js')],
    ['/report/report.css', 'text/css', join('web', 'report', 'report.css')],
    ['/vendor/uPlot.iife.min.js', 'javascript', join('node_modules', 'uplot', 'dist', 'uPlot.iife.min.js')],
  ])('serves %s without a key, as the file is', async (path, type, file) => {
    const answer = await call(server.url, 'GET', path);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toContain(type);
    expect(answer.text).toBe(readFileSync(join(PROJECT_ROOT, file), 'utf8'));
  });

  it("answers an unknown file with the service's 404 body", async () => {
    const answer = await call(server.url, 'GET', '/app/nope.js');
    expect(answer.status).toBe(404);
    expect(answer.json).toEqual({
      code: 'not_found',
      detail: 'no route GET /app/nope.js; the routes are listed at /v1/openapi.json',
    });
  });
});
