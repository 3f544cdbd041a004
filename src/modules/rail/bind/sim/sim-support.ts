import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { withCheckDigits } from '../../../../shared/ar-identifiers.js';
import { stringifyBindJson } from '../bind-wire.js';

/** The BIND simulator's plumbing: HTTP helpers and the identifiers it makes up. */

export interface SimAccount {
  cvu: string;
  clientId: string;
  cuit: string;
  name: string;
  alias: string | null;
  balance: number;
}

export function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  const text = stringifyBindJson(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name.toLowerCase()];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** BIND writes listing dates as Buenos Aires wall time, "2023-12-20 00:00" (Argentina keeps UTC-3 all year). */
export function parseBaTime(s: string | undefined): number | null {
  const m = s ? /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2}))?$/.exec(s) : null;
  if (!m) return null;
  return Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +(m[4] ?? 0), +(m[5] ?? 0)) + 3 * 3600 * 1000;
}

export const accountView = (a: SimAccount) => ({
  cuentaId: null,
  cbucvu: a.cvu,
  alias: a.alias,
  cuitCuil: a.cuit,
  nombre: a.name,
  bancoNombre: 'BANCO INDUSTRIAL S.A.',
  activo: true,
  moneda: 'ARS',
});

/** A CVU with valid check digits under a PSP code of its own (0053). */
export function newCvu(): string {
  const digits = [...randomBytes(13)].map((b) => String(b % 10)).join('');
  return withCheckDigits('0000531', digits);
}

/** Coelsa's ids are 22 upper-case letters and digits ("76V4MR2Z181EJZYNDEZOL1"). */
export function coelsaId(): string {
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  return [...randomBytes(22)].map((b) => alphabet[b % 36]).join('');
}

/** A made-up but valid CUIT for an account at another bank, stable per account. */
export function outsideCuit(account: string): string {
  const first10 = `30${account.slice(-8)}`;
  const weights = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
  const sum = [...first10].reduce((s, d, i) => s + Number(d) * weights[i]!, 0);
  const r = 11 - (sum % 11);
  return `${first10}${r === 11 ? 0 : r === 10 ? 9 : r}`;
}

