/** How the `postgres` package is to reach a database: a URL it parses, and a Unix socket if the URL names one. */
export interface PostgresTarget {
  readonly url: string;
  /** The socket's path (`DIR/.s.PGSQL.PORT`); undefined for TCP. */
  readonly socket: string | undefined;
}

const URL_PARTS = /^(postgres(?:ql)?:\/\/)([^@/?#]*@)?([^/?#]*)([^?#]*)(?:\?([^#]*))?/i;

/**
 * Reads a Unix socket in a PostgreSQL URL as libpq does, which the `postgres` package does not:
 * a host that is a directory, in the `host` parameter (`postgres://copysim@/copysim?host=/run/postgresql`)
 * or percent-encoded (`postgres://copysim@%2Frun%2Fpostgresql/copysim`). The socket is
 * `DIR/.s.PGSQL.PORT`, PORT the URL's port or its `port` parameter (default 5432). Any other URL
 * is returned as it is.
 *
 * @example
 * postgresTarget('postgres://copysim@/copysim?host=/tmp&port=5433');
 * // { url: 'postgres://copysim@localhost/copysim', socket: '/tmp/.s.PGSQL.5433' }
 */
export function postgresTarget(url: string): PostgresTarget {
  const parts = URL_PARTS.exec(url);
  if (parts === null) return { url, socket: undefined };
  const [, scheme, user = '', authority = '', path = '', query = ''] = parts;
  const params = new URLSearchParams(query);
  const portAt = authority.lastIndexOf(':');
  const [host, port] = portAt < 0 ? [authority, ''] : [authority.slice(0, portAt), authority.slice(portAt + 1)];
  const dir = params.get('host') ?? safeDecode(host);
  if (!dir.startsWith('/')) return { url, socket: undefined };
  const socket = `${dir.replace(/\/+$/, '')}/.s.PGSQL.${params.get('port') ?? (port || '5432')}`;
  params.delete('host');
  params.delete('port');
  const rest = params.toString();
  return { url: `${scheme}${user}localhost${path}${rest === '' ? '' : `?${rest}`}`, socket };
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
