import net from 'node:net';

/** A simple-query message carrying `commit` (what Kysely sends to end a transaction): 'Q', length, text, NUL. */
const COMMIT = Buffer.concat([Buffer.from('Q'), Buffer.from([0, 0, 0, 11]), Buffer.from('commit\0')]);

/**
 * A TCP proxy in front of PostgreSQL for fault tests: the service connects through it, and a test can cut the
 * connection that sends the next COMMIT, either after the COMMIT reached the server (its answer is lost) or
 * before (the server never sees it), or cut every connection at once.
 */
export interface PgProxy {
  /** `url` with its host and port replaced by the proxy's. */
  url(url: string): string;
  /** The next COMMIT through the proxy: forwarded and its answer lost (`after`), or never forwarded (`before`). */
  cutNextCommit(when: 'after' | 'before'): Promise<void>;
  close(): Promise<void>;
}

export async function startPgProxy(target: { host: string; port: number }): Promise<PgProxy> {
  const pairs = new Set<{ client: net.Socket; upstream: net.Socket }>();
  let cut: { when: 'after' | 'before'; done: () => void } | null = null;
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    const pair = { client, upstream };
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end);
    upstream.on('error', end);
    client.on('close', () => pairs.delete(pair));
    upstream.on('data', (chunk) => {
      if (!client.destroyed) client.write(chunk);
    });
    upstream.on('end', end);
    client.on('data', (chunk) => {
      if (cut && chunk.includes(COMMIT)) {
        const { when, done } = cut;
        cut = null;
        pairs.delete(pair);
        client.destroy();
        if (when === 'after') {
          upstream.write(chunk);
          // The server commits and answers into the void; then it sees its client go.
          setTimeout(() => upstream.destroy(), 200);
        } else {
          upstream.destroy();
        }
        done();
        return;
      }
      upstream.write(chunk);
    });
    client.on('end', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: (url) => {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    cutNextCommit: (when) => new Promise<void>((resolve) => (cut = { when, done: resolve })),
    close: async () => {
      for (const p of pairs) {
        p.client.destroy();
        p.upstream.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
