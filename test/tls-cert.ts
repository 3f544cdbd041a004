import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { isIP } from 'node:net';

/**
 * A self-signed TLS certificate made in the test process (node:crypto has no X.509 writer, so its DER is written
 * here): an ECDSA P-256 key and a certificate for the given DNS names and IP addresses, valid for a day. Tests
 * trust it as their only CA, so an https server on loopback can stand in for a host on the internet.
 */
export function selfSignedCertificate(names: string[]): { key: string; cert: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const ecdsaWithSha256 = seq(oid('1.2.840.10045.4.3.2'));
  const name = seq(set(seq(oid('2.5.4.3'), tlv(0x0c, Buffer.from('wallet test')))));
  const now = Date.now();
  const altNames = names.map((n) => (isIP(n) === 4 ? tlv(0x87, Buffer.from(n.split('.').map(Number))) : tlv(0x82, Buffer.from(n, 'ascii'))));
  const extensions = seq(
    seq(oid('2.5.29.19'), tlv(0x01, Buffer.from([0xff])), tlv(0x04, seq(tlv(0x01, Buffer.from([0xff]))))), // basicConstraints: CA, critical
    seq(oid('2.5.29.17'), tlv(0x04, seq(...altNames))), // subjectAltName
  );
  const tbs = seq(
    tlv(0xa0, tlv(0x02, Buffer.from([2]))), // v3
    tlv(0x02, Buffer.concat([Buffer.from([0x01]), randomBytes(8)])), // a positive serial
    ecdsaWithSha256,
    name,
    seq(utcTime(new Date(now - 60_000)), utcTime(new Date(now + 86_400_000))),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
    tlv(0xa3, extensions),
  );
  const signature = sign('sha256', tbs, privateKey); // DER ECDSA-Sig-Value, as X.509 wants it
  const der = seq(tbs, ecdsaWithSha256, tlv(0x03, Buffer.concat([Buffer.from([0]), signature])));
  const pem = `-----BEGIN CERTIFICATE-----\n${der.toString('base64').replace(/.{64}/g, '$&\n')}\n-----END CERTIFICATE-----\n`;
  return { key: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string, cert: pem.replace('\n\n', '\n') };
}

function tlv(tag: number, value: Buffer): Buffer {
  const n = value.length;
  const length = n < 0x80 ? Buffer.from([n]) : n < 0x100 ? Buffer.from([0x81, n]) : Buffer.from([0x82, n >> 8, n & 0xff]);
  return Buffer.concat([Buffer.from([tag]), length, value]);
}
const seq = (...items: Buffer[]) => tlv(0x30, Buffer.concat(items));
const set = (...items: Buffer[]) => tlv(0x31, Buffer.concat(items));

function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split('.').map(Number) as [number, number, ...number[]];
  const bytes = [40 * a + b];
  for (const v of rest) {
    const part = [v & 0x7f];
    for (let x = v >> 7; x > 0; x >>= 7) part.unshift((x & 0x7f) | 0x80);
    bytes.push(...part);
  }
  return tlv(0x06, Buffer.from(bytes));
}

/** UTCTime YYMMDDHHMMSSZ (dates before 2050). */
const utcTime = (d: Date) => tlv(0x17, Buffer.from(d.toISOString().replace(/[-:T]/g, '').slice(2, 14) + 'Z', 'ascii'));
