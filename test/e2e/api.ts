import { randomBytes } from 'node:crypto';

/** What an agent does over REST (and what the test checks directly), outside the browser. */
export class Rest {
  constructor(readonly base: string) {}

  async call(method: string, path: string, opts: { token?: string; body?: unknown; headers?: Record<string, string> } = {}) {
    const res = await fetch(`${this.base}${path}`, {
      method,
      headers: {
        ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
        ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...opts.headers,
      },
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    });
    const text = await res.text();
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = text;
    }
    return { status: res.status, headers: res.headers, json: json as Record<string, unknown> & { error?: string } };
  }

  /** An agent's REST session: its API key exchanged for a JWT (contract, Authentication 3). */
  async agentToken(apiKey: string): Promise<string> {
    const r = await this.call('POST', '/v1/auth/token', { body: { api_key: apiKey } });
    if (r.status !== 200) throw new Error(`token: ${r.status} ${JSON.stringify(r.json)}`);
    return r.json.token as string;
  }

  async ownerToken(email: string, password: string): Promise<string> {
    const r = await this.call('POST', '/v1/login', { body: { email, password } });
    if (r.status !== 200) throw new Error(`login: ${r.status} ${JSON.stringify(r.json)}`);
    return r.json.token as string;
  }

  /** An MCP tool call with the raw key as bearer (stateless Streamable HTTP, JSON answers). */
  async mcp(apiKey: string, name: string, args: Record<string, unknown>) {
    const r = await this.call('POST', '/mcp', {
      token: apiKey,
      headers: { accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } },
    });
    if (r.status !== 200) throw new Error(`mcp ${name}: ${r.status} ${JSON.stringify(r.json)}`);
    return r.json.result as { isError?: boolean; structuredContent?: Record<string, unknown> };
  }

  withdraw(token: string, body: Record<string, unknown>, key = `e2e-${randomBytes(6).toString('hex')}`) {
    return this.call('POST', '/v1/withdraws', { token, body, headers: { 'idempotency-key': key } });
  }
}

export const EXTERNAL_CBU = '2850590940090418135201';
export const OTHER_CBU = '0170099220000067797370';

/** A valid CUIT with a random DNI part (never the sandbox's KYC-pending 99999999). */
export function randomCuit(prefix = '20'): string {
  const dni = String(10_000_000 + Math.floor(Math.random() * 89_999_999));
  const first10 = `${prefix}${dni}`;
  const w = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
  const sum = [...first10].reduce((s, d, i) => s + Number(d) * w[i]!, 0);
  const r = 11 - (sum % 11);
  return `${first10}${r === 11 ? 0 : r === 10 ? 9 : r}`;
}

export const uniqueEmail = (tag: string) => `${tag}.${Date.now()}.${randomBytes(3).toString('hex')}@example.com`;
