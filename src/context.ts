import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import type { Store } from './db/database.js';
import type { Clock } from './shared/clock.js';

/**
 * What service functions need from the world: configuration, the store, the clock and the outside ports.
 * Built once in `buildApp`; REST routes and MCP tools hand the same object to the same service functions.
 */
export interface AppContext {
  config: Config;
  store: Store;
  clock: Clock;
  log: FastifyBaseLogger;
}
