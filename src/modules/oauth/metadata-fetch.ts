import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, fetch, Response } from 'undici';
import { isBlockedAddress } from '../webhooks/address-guard.js';

/**
 * D44: the one outside boundary of the authorization server, the documents it fetches from the internet (a
 * client ID metadata document at its `https://` client_id; the library would also fetch a client's `jwks_uri`).
 * The library calls it as `fetch(url, init)`.
 */
export type MetadataFetch = (url: string, init?: { method?: string; headers?: HeadersInit; signal?: AbortSignal; redirect?: RequestRedirect }) => Promise<Response>;

export interface PinnedFetchOptions {
  /** WEBHOOK_ALLOW_PRIVATE_NETWORKS: loopback and private addresses allowed (development, tests). */
  allowPrivateNetworks: boolean;
  /** Certificates to trust instead of the system's (tests' own CA); unset in production. */
  ca?: string[];
  /** The DNS; tests script it. */
  resolve?: (hostname: string) => Promise<LookupAddress[]>;
}

/** Larger than any document the library accepts (5 KiB for a metadata document); past it the answer is refused. */
const MAX_BODY = 64 * 1024;

const systemDns = (hostname: string) => dnsLookup(hostname, { all: true, verbatim: true });

/**
 * The addresses a host may be reached at, resolved once and checked: every one of them public (unless private
 * networks are allowed), or the fetch is refused. An IP literal is checked as it is.
 */
export async function checkedAddresses(hostname: string, opts: Pick<PinnedFetchOptions, 'allowPrivateNetworks' | 'resolve'>): Promise<LookupAddress[]> {
  const host = hostname.replace(/^\[|\]$/g, '');
  const family = isIP(host);
  const addresses = family ? [{ address: host, family }] : await (opts.resolve ?? systemDns)(host);
  if (addresses.length === 0) throw new Error(`${host} has no address`);
  if (!opts.allowPrivateNetworks && addresses.some((a) => isBlockedAddress(a.address))) {
    throw new Error(`${host} resolves to a private, loopback or reserved address`);
  }
  return addresses;
}

/**
 * A `lookup` for the socket that answers only the addresses already checked and never asks the DNS again, so a
 * name that re-resolves elsewhere between the check and the connection (DNS rebinding) still reaches the checked
 * address. The URL keeps its hostname, so TLS's SNI and certificate check and the Host header are the host's.
 */
export function pinnedLookup(addresses: LookupAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
    callback(null, addresses[0]!.address, addresses[0]!.family);
  };
}

/**
 * The production fetch: https only, the host resolved once and checked (checkedAddresses), the connection made to
 * those addresses only (pinnedLookup), redirects not followed, the body read here (bounded) so the connection is
 * closed before the answer goes back.
 */
export function pinnedFetch(opts: PinnedFetchOptions): MetadataFetch {
  return async (url, init = {}) => {
    const target = new URL(url);
    if (target.protocol !== 'https:') throw new Error('documents are fetched over https only');
    const addresses = await checkedAddresses(target.hostname, opts);
    const agent = new Agent({ connect: { lookup: pinnedLookup(addresses), ...(opts.ca ? { ca: opts.ca } : {}) } });
    try {
      const res = await fetch(target, {
        method: init.method ?? 'GET',
        headers: init.headers ? Object.fromEntries(new Headers(init.headers)) : undefined,
        signal: init.signal,
        redirect: 'manual',
        dispatcher: agent,
      });
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body ?? []) {
        size += (chunk as Uint8Array).length;
        if (size > MAX_BODY) throw new Error('document too large');
        chunks.push(Buffer.from(chunk as Uint8Array));
      }
      const bodyless = res.status === 204 || res.status === 205 || res.status === 304;
      return new Response(bodyless ? null : Buffer.concat(chunks), { status: res.status, statusText: res.statusText, headers: res.headers });
    } finally {
      await agent.destroy();
    }
  };
}
