import { describe, expect, it } from 'vitest';
import { checkUrlSyntax, isBlockedAddress } from './address-guard.js';

describe('address guard', () => {
  it.each([
    '127.0.0.1', '10.0.0.1', '172.31.255.255', '192.168.0.10', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.251',
    '255.255.255.255', '198.18.0.1', '::1', '::', '::ffff:10.0.0.1', '::ffff:127.0.0.1', 'fe80::1', 'fd12:3456::1', 'ff02::1',
    '64:ff9b::a00:1', '2001:db8::1', 'not-an-ip',
  ])('blocks %s', (a) => expect(isBlockedAddress(a)).toBe(true));

  it.each(['93.184.216.34', '8.8.8.8', '200.45.1.1', '2606:4700:4700::1111', '2800:3f0:4002:80a::200e'])('allows %s', (a) =>
    expect(isBlockedAddress(a)).toBe(false),
  );

  it('checks URL syntax', () => {
    expect(checkUrlSyntax(undefined)).toMatchObject({ ok: false, code: 'MISSING_URL' });
    expect(checkUrlSyntax('  ')).toMatchObject({ ok: false, code: 'MISSING_URL' });
    expect(checkUrlSyntax('gopher://x')).toMatchObject({ ok: false, code: 'INVALID_URL' });
    expect(checkUrlSyntax('https://example.com/hook')).toMatchObject({ ok: true });
  });
});
