import { validationError } from '../request-checks.js';
import { sharedPlugin } from './shared-plugin.js';

export interface JsonBodyOptions {
  readonly bodyLimit: number;
}

/**
 * Bodies in JSON only (any other type is a 415); an empty body is `undefined`, so that
 * `POST /v1/wallets` may be sent bare, and bad JSON a 400 `validation_error` on path `""`.
 */
export const jsonBodyPlugin = sharedPlugin<JsonBodyOptions>('copysim-json-body', async (app, { bodyLimit }) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit }, (_request, text, done) => {
    if (text === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text as string));
    } catch (e) {
      done(validationError('', `the body is not valid JSON: ${(e as Error).message}`), undefined);
    }
  });
});
