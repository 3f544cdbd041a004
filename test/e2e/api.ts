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

  /**
   * An owner as the browser tests start from: signed up, logged in and onboarded (a random CUIT), funded by a sandbox
   * deposit when `fund` is given (an amount, or the deposit's whole body). Returns the owner's session, the wallet's
   * CVU and the default agent key that sign-up creates.
   */
  async newOwner(opts: {
    email: string;
    password: string;
    name: string;
    legalName: string;
    cuitPrefix?: string;
    fund?: number | Record<string, unknown>;
  }): Promise<{ token: string; cvu: string; defaultKey: string }> {
    const user = await this.call('POST', '/v1/users', { body: { email: opts.email, password: opts.password, name: opts.name } });
    if (user.status !== 201) throw new Error(`sign-up: ${user.status} ${JSON.stringify(user.json)}`);
    const token = await this.ownerToken(opts.email, opts.password);
    const onboarded = await this.call('POST', '/v1/onboarding', { token, body: { legal_id: randomCuit(opts.cuitPrefix), legal_name: opts.legalName } });
    if (onboarded.status !== 200) throw new Error(`onboarding: ${onboarded.status} ${JSON.stringify(onboarded.json)}`);
    if (opts.fund !== undefined) {
      const body = typeof opts.fund === 'number' ? { amount_ars: opts.fund } : opts.fund;
      const deposit = await this.call('POST', '/v1/sandbox/deposits', { token, body });
      if (deposit.status !== 201) throw new Error(`deposit: ${deposit.status} ${JSON.stringify(deposit.json)}`);
    }
    return { token, cvu: onboarded.json.cvu as string, defaultKey: (user.json.default_api_key as { key: string }).key };
  }

  /** A new agent key of the owner's: its id and the raw key (shown once). */
  async newKey(ownerToken: string, name: string): Promise<{ id: string; key: string }> {
    const r = await this.call('POST', '/v1/api-keys', { token: ownerToken, body: { name } });
    if (r.status !== 201) throw new Error(`api key: ${r.status} ${JSON.stringify(r.json)}`);
    return { id: r.json.id as string, key: r.json.key as string };
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
