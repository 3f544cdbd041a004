import { BlockList, isIP } from 'node:net';

/**
 * SSRF protection: webhook targets may not be loopback, private, link-local, multicast or reserved addresses,
 * in IPv4 or IPv6 (IPv4-mapped and NAT64 forms included).
 */
// Two lists: a BlockList matches IPv4 addresses against IPv6 rules as IPv4-mapped, so ::ffff:0:0/96 in one
// list would block every IPv4 address.
const blocked4 = new BlockList();
const blocked6 = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked4.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['::ffff:0:0', 96],
  ['::', 96],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  blocked6.addSubnet(net, prefix, 'ipv6');
}

export function isBlockedAddress(address: string): boolean {
  const a = address.replace(/^\[|\]$/g, '').split('%')[0]!;
  const v = isIP(a);
  if (v === 4) return blocked4.check(a, 'ipv4');
  if (v === 6) return blocked6.check(a, 'ipv6');
  return true; // not an address at all: refuse rather than guess
}

export type UrlProblem = 'MISSING_URL' | 'INVALID_URL';

/** Syntax check of a webhook URL: http or https, a host, no credentials. */
export function checkUrlSyntax(raw: string | undefined): { ok: true; url: URL } | { ok: false; code: UrlProblem; message: string } {
  if (raw === undefined || raw.trim() === '') return { ok: false, code: 'MISSING_URL', message: 'url is required' };
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { ok: false, code: 'INVALID_URL', message: 'url is not a valid URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, code: 'INVALID_URL', message: 'url must be http or https' };
  }
  if (!url.hostname) return { ok: false, code: 'INVALID_URL', message: 'url needs a host' };
  if (url.username || url.password) return { ok: false, code: 'INVALID_URL', message: 'url must not carry credentials' };
  return { ok: true, url };
}
