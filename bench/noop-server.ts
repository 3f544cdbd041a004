/**
 * The baseline: a bare Fastify 5 server (same version as the service, no logger, no plugins) whose one route
 * answers a small JSON body. Whatever the service does beyond this is the service's cost.
 * Run as a child of bench/run.ts: listens on 127.0.0.1:<argv[2]> and exits when the parent goes away.
 */
import Fastify from 'fastify';

const port = Number(process.argv[2]);
const app = Fastify({ logger: false });
app.get('/', async () => ({ ok: true }));

await app.listen({ port, host: '127.0.0.1' });
process.send?.({ ready: port });
process.on('disconnect', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
