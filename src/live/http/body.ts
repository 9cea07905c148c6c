import type { FastifyInstance } from 'fastify';
import { FeedRefusal } from '../errors.js';

/** The content types read as JSONL: one JSON value a line. */
export const JSONL_TYPES = [
  'application/x-ndjson',
  'application/jsonl',
  'application/x-jsonlines',
  'text/plain',
] as const;

/** A body as JSONL: its non-blank lines' values; a line that is not JSON refuses the body, naming it. */
export function parseJsonl(text: string): unknown[] {
  const values: unknown[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '') continue;
    try {
      values.push(JSON.parse(line));
    } catch (e) {
      throw new FeedRefusal('invalid_input', `line ${i + 1} of the body is not valid JSON: ${(e as Error).message}`, {
        item: values.length,
      });
    }
  }
  return values;
}

/**
 * The feed's bodies: JSON (`application/json`) and JSONL (the types of {@link JSONL_TYPES}),
 * read with the plain `JSON.parse` (the feed's hot path); a body that does not parse is an
 * `invalid_input` refusal. JSONL comes as an array of its lines' values.
 */
export function feedBodies(app: FastifyInstance, bodyLimit: number): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit }, (_request, text, done) => {
    try {
      done(null, text === '' ? undefined : JSON.parse(text as string));
    } catch (e) {
      done(new FeedRefusal('invalid_input', `the body is not valid JSON: ${(e as Error).message}`), undefined);
    }
  });
  app.addContentTypeParser([...JSONL_TYPES], { parseAs: 'string', bodyLimit }, (_request, text, done) => {
    try {
      done(null, parseJsonl(text as string));
    } catch (e) {
      done(e as Error, undefined);
    }
  });
}
