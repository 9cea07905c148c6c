// The public /v1 API, called with the key the user entered. Every answer's credits are kept, so
// the page shows what is left after each call.

export class Api {
  constructor(key, onCredits) {
    this.key = key;
    this.onCredits = onCredits;
    // Calls under way, and the least credits any of them was answered with.
    this.calls = 0;
    this.least = Infinity;
  }

  /**
   * Calls an operation; resolves `{ status, body }`, the body parsed from JSON. Calls made at
   * once (a wallet's page makes four) may be answered in another order than they were charged:
   * while any is under way the page shows the least credits answered, which is what is left
   * after all of them.
   */
  async call(method, path, { query, body } = {}) {
    this.calls++;
    try {
      return await this.send(method, path, query, body);
    } finally {
      if (--this.calls === 0) this.least = Infinity;
    }
  }

  async send(method, path, query, body) {
    const url = query ? `${path}?${new URLSearchParams(query)}` : path;
    const headers = { 'x-api-key': this.key };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await response.text();
    let parsed;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = {
        code: 'not_json',
        detail: `the service answered ${response.status} with no JSON body: ${text.slice(0, 200)}`,
      };
    }
    // The simulator tells the credits in headers, the other operations in the body's envelope.
    const remaining = response.headers.get('x-credits-remaining') ?? parsed?.credits?.remaining;
    if (response.ok && remaining !== undefined && remaining !== null) {
      this.least = Math.min(this.least, Number(remaining));
      this.onCredits(this.least);
    }
    return { status: response.status, body: parsed };
  }
}

/** The OpenAPI document (free, no key): the request's schema for the settings form. */
export async function openApiDocument() {
  const response = await fetch('/v1/openapi.json');
  if (!response.ok) throw new Error(`GET /v1/openapi.json answered ${response.status}`);
  return response.json();
}

/** The days each served tape spans, by network (`GET /health`, free); empty when not told. */
export async function servedTapes() {
  const response = await fetch('/health');
  if (!response.ok) return {};
  return (await response.json()).tapes ?? {};
}

/** An error body of the API in one readable line per problem. */
export function problemText(status, body) {
  if (Array.isArray(body?.detail)) return body.detail.map((d) => `${d.path || '(request)'}: ${d.message}`).join('\n');
  return `${status} ${body?.code ?? 'error'}: ${typeof body?.detail === 'string' ? body.detail : JSON.stringify(body)}`;
}
