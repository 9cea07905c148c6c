/** A response as the tests look at it. */
export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** The body parsed as JSON (undefined when it is not JSON). */
  readonly json: any;
}

export interface CallOptions {
  readonly key?: string;
  /** Sent as JSON. */
  readonly body?: unknown;
  /** Sent as is, instead of `body`. */
  readonly raw?: string;
  readonly contentType?: string;
  /** More request headers. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** One request to the service over loopback HTTP. */
export async function call(base: string, method: string, path: string, options: CallOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key !== undefined) headers['x-api-key'] = options.key;
  let body: string | undefined;
  if (options.raw !== undefined) body = options.raw;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers['content-type'] = options.contentType ?? 'application/json';
  const response = await fetch(base + path, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}
