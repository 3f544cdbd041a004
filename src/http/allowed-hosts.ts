/**
 * D41: the hosts `/mcp` answers to (DNS-rebinding guard). An entry is a host name or address, with an optional
 * port: `wallet.example.com` allows that name on any port, `wallet.example.com:8443` on that port only. IPv6
 * addresses are written in brackets (`[::1]:3000`).
 */
export interface HostEntry {
  name: string;
  /** null: any port. */
  port: string | null;
}

/** `host`, `host:port`, `[v6]` or `[v6]:port` → name and port, lower-cased; null when it is none of those. */
export function splitHost(value: string): HostEntry | null {
  const s = value.trim().toLowerCase();
  const m = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?$/.exec(s);
  if (!m || (m[2] !== undefined && Number(m[2]) > 65535)) return null;
  return { name: m[1]!, port: m[2] ?? null };
}

/**
 * The `ALLOWED_HOSTS` entries, or by default the listen address and the localhost forms with the listen port
 * (any port when the port is 0, chosen at start). Throws a message naming the bad entry.
 */
export function parseAllowedHosts(value: string, listenHost: string, listenPort: number): HostEntry[] {
  const given = value
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  if (given.length > 0) {
    return given.map((entry) => {
      const parsed = splitHost(entry);
      if (!parsed) throw new Error(`"${entry}" is not a host or host:port (IPv6 in brackets)`);
      return parsed;
    });
  }
  const port = listenPort === 0 ? null : String(listenPort);
  const listen = listenHost.includes(':') && !listenHost.startsWith('[') ? `[${listenHost}]` : listenHost;
  const names = [...new Set([listen.toLowerCase(), '127.0.0.1', 'localhost', '[::1]'])];
  return names.map((name) => ({ name, port }));
}

/** Whether a `Host` (or an Origin's host) names an allowed host. */
export function isAllowedHost(allowed: readonly HostEntry[], host: string | undefined): boolean {
  const h = host === undefined ? null : splitHost(host);
  if (!h) return false;
  return allowed.some((a) => a.name === h.name && (a.port === null || a.port === h.port));
}
