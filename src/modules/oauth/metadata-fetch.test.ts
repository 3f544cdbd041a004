import type { LookupAddress } from 'node:dns';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selfSignedCertificate } from '../../../test/tls-cert.js';
import { checkedAddresses, pinnedFetch, pinnedLookup } from './metadata-fetch.js';

/** A DNS that answers from a script, one answer per question, and counts the questions. */
function scriptedDns(...answers: string[][]) {
  const dns = {
    asked: 0,
    resolve: async (): Promise<LookupAddress[]> => {
      const answer = answers[Math.min(dns.asked, answers.length - 1)]!;
      dns.asked++;
      return answer.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    },
  };
  return dns;
}

/** What the socket would get from the lookup, in both of Node's call forms. */
function ask(lookup: ReturnType<typeof pinnedLookup>, all: boolean): Promise<string[]> {
  return new Promise((resolve, reject) =>
    lookup('client.example', { all } as never, ((err: Error | null, address: string | LookupAddress[]) => {
      if (err) reject(err);
      else resolve(Array.isArray(address) ? address.map((a) => a.address) : [address]);
    }) as never),
  );
}

describe('the metadata fetch resolves once and connects to the address it checked (D44)', () => {
  it('a name that re-resolves to a private address after the check still reaches the public one', async () => {
    const dns = scriptedDns(['93.184.216.34'], ['10.0.0.7']);
    const lookup = pinnedLookup(await checkedAddresses('client.example', { allowPrivateNetworks: false, resolve: dns.resolve }));
    expect(await ask(lookup, true)).toEqual(['93.184.216.34']);
    expect(await ask(lookup, false)).toEqual(['93.184.216.34']);
    expect(await ask(lookup, true)).toEqual(['93.184.216.34']);
    expect(dns.asked).toBe(1);
  });

  it('refuses a name with any private, loopback or link-local address, and such an IP literal, before connecting', async () => {
    for (const answer of [['10.0.0.7'], ['93.184.216.34', '127.0.0.1'], ['169.254.169.254'], ['::1'], ['fe80::1'], ['::ffff:192.168.1.1']]) {
      await expect(checkedAddresses('client.example', { allowPrivateNetworks: false, resolve: scriptedDns(answer).resolve }), answer.join()).rejects.toThrow(/private/);
    }
    const dns = scriptedDns(['93.184.216.34']);
    await expect(checkedAddresses('[::1]', { allowPrivateNetworks: false, resolve: dns.resolve })).rejects.toThrow(/private/);
    await expect(checkedAddresses('127.0.0.1', { allowPrivateNetworks: false, resolve: dns.resolve })).rejects.toThrow(/private/);
    expect(dns.asked).toBe(0);
    // The development switch lets loopback through.
    expect(await checkedAddresses('127.0.0.1', { allowPrivateNetworks: true })).toEqual([{ address: '127.0.0.1', family: 4 }]);
  });

  describe('over TLS, on loopback', () => {
    const { key, cert } = selfSignedCertificate(['client.test']);
    const seen: { server: string; host: string | undefined; path: string | undefined }[] = [];
    const serve = (name: string) =>
      https.createServer({ key, cert }, (req, res) => {
        seen.push({ server: name, host: req.headers.host, path: req.url });
        if (req.url === '/moved') return void res.writeHead(302, { location: '/doc.json' }).end();
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ from: name }));
      });
    const real = serve('checked');
    const trap = serve('rebound');
    let port = 0;

    beforeAll(async () => {
      await new Promise<void>((r) => real.listen(0, '127.0.0.1', r));
      port = (real.address() as AddressInfo).port;
      // The rebound address: the same port on another loopback address, where a second lookup would lead.
      await new Promise<void>((r) => trap.listen(port, '127.0.0.2', r));
    });
    afterAll(async () => {
      await new Promise((r) => real.close(r));
      await new Promise((r) => trap.close(r));
    });

    it('connects to the first answer only, keeping the host name for TLS and Host', async () => {
      const dns = scriptedDns(['127.0.0.1'], ['127.0.0.2']);
      const get = pinnedFetch({ allowPrivateNetworks: true, ca: [cert], resolve: dns.resolve });
      const res = await get(`https://client.test:${port}/doc.json`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ from: 'checked' });
      expect(dns.asked).toBe(1);
      expect(seen).toEqual([{ server: 'checked', host: `client.test:${port}`, path: '/doc.json' }]);
    });

    it('refuses loopback without the switch, plain http, a certificate it does not trust; follows no redirect', async () => {
      seen.length = 0;
      const dns = scriptedDns(['127.0.0.1']);
      await expect(pinnedFetch({ allowPrivateNetworks: false, ca: [cert], resolve: dns.resolve })(`https://client.test:${port}/doc.json`)).rejects.toThrow(/private/);
      await expect(pinnedFetch({ allowPrivateNetworks: true, ca: [cert], resolve: dns.resolve })(`http://client.test:${port}/doc.json`)).rejects.toThrow(/https only/);
      expect(seen).toEqual([]);
      await expect(pinnedFetch({ allowPrivateNetworks: true, resolve: dns.resolve })(`https://client.test:${port}/doc.json`)).rejects.toThrow();
      const moved = await pinnedFetch({ allowPrivateNetworks: true, ca: [cert], resolve: dns.resolve })(`https://client.test:${port}/moved`);
      expect(moved.status).toBe(302);
      expect(seen.map((s) => s.path)).toEqual(['/moved']);
    });
  });
});
