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
  /**
   * The same for the next message whose bytes contain `text` (a statement's SQL, say). With `meanwhile`, the message
   * is held until it resolves, then cut: what a test does there happens while that statement waits for its answer.
   */
  cutNextContaining(text: string, when: 'after' | 'before', meanwhile?: () => Promise<unknown>): Promise<void>;
  /**
   * A network partition: from now on nothing passes either way, on open connections and new ones alike, and no
   * socket is closed (no FIN, no RST), as when a server vanishes without a word.
   */
  partition(): void;
  close(): Promise<void>;
}

export async function startPgProxy(target: { host: string; port: number }): Promise<PgProxy> {
  const pairs = new Set<{ client: net.Socket; upstream: net.Socket }>();
  let cut: { when: 'after' | 'before'; match: Buffer; done: () => void; meanwhile?: () => Promise<unknown> } | null = null;
  let partitioned = false;
  const held = new Set<net.Socket>();
  const server = net.createServer((client) => {
    if (partitioned) {
      held.add(client);
      client.on('error', () => undefined);
      client.resume();
      return;
    }
    const upstream = net.connect(target.port, target.host);
    const pair = { client, upstream };
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    // Partitioned, the server's side going away is never seen by the client: its socket is held open.
    const upstreamEnd = () => {
      if (!partitioned) return end();
      pairs.delete(pair);
      held.add(client);
      upstream.destroy();
    };
    client.on('error', end);
    upstream.on('error', upstreamEnd);
    client.on('close', () => pairs.delete(pair));
    upstream.on('data', (chunk) => {
      if (partitioned) return;
      if (!client.destroyed) client.write(chunk);
    });
    upstream.on('end', upstreamEnd);
    client.on('data', (chunk) => {
      if (partitioned) return;
      if (cut && chunk.includes(cut.match)) {
        const { when, done, meanwhile } = cut;
        cut = null;
        pairs.delete(pair);
        const cutNow = () => {
          client.destroy();
          if (when === 'after') {
            upstream.write(chunk);
            // The server commits and answers into the void; then it sees its client go.
            setTimeout(() => upstream.destroy(), 200);
          } else {
            upstream.destroy();
          }
          done();
        };
        if (meanwhile) void meanwhile().finally(cutNow);
        else cutNow();
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
    cutNextCommit: (when) => new Promise<void>((resolve) => (cut = { when, match: COMMIT, done: resolve })),
    cutNextContaining: (text, when, meanwhile) => new Promise<void>((resolve) => (cut = { when, match: Buffer.from(text), done: resolve, meanwhile })),
    partition: () => {
      partitioned = true;
    },
    close: async () => {
      for (const c of held) c.destroy();
      for (const p of pairs) {
        p.client.destroy();
        p.upstream.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
