import { InputError } from '../../model/errors.js';
import type { LiveRun } from '../live-run.js';
import { createFollowServer, type FollowServerOptions } from './app.js';

/** A listening `copysim follow` service. */
export interface FollowServer {
  /** `http://host:port`. */
  readonly url: string;
  /** Stops accepting and finishes the requests in flight (the run stays open). */
  close(): Promise<void>;
}

/**
 * Serves `run` on `host:port` (port 0: a free one). An address in use or not ours to take is an
 * {@link InputError} naming it.
 */
export async function listenFollowServer(
  run: LiveRun,
  where: { host: string; port: number },
  options: FollowServerOptions = {},
): Promise<FollowServer> {
  const app = createFollowServer(run, options);
  const { host, port } = where;
  try {
    await app.listen({ host, port });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const place = `${host}:${port}`;
    if (code === 'EADDRINUSE')
      throw new InputError(`${place} is already in use: choose another --listen (port 0 picks a free one)`, {
        source: place,
      });
    if (code === 'EACCES')
      throw new InputError(`no permission to listen on ${place}: choose a port above 1023`, { source: place });
    if (code === 'EADDRNOTAVAIL')
      throw new InputError(`${host} is not an address of this machine: choose another --listen`, { source: place });
    throw e;
  }
  const address = app.server.address();
  const bound = typeof address === 'object' && address !== null ? address.port : port;
  return { url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}`, close: () => app.close() };
}
