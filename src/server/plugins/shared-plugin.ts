import type { FastifyPluginAsync, FastifyPluginOptions } from 'fastify';

/**
 * Marks `plugin` as extending the whole service rather than a scope of its own, so that its body
 * parser, error handlers and decorators reach the routes registered after it. It is what the
 * fastify-plugin package does, through Fastify's `skip-override` property: the service needs no
 * package beyond Fastify itself.
 */
export function sharedPlugin<Options extends FastifyPluginOptions>(
  name: string,
  plugin: FastifyPluginAsync<Options>,
): FastifyPluginAsync<Options> {
  return Object.assign(plugin, { [Symbol.for('skip-override')]: true, [Symbol.for('fastify.display-name')]: name });
}
