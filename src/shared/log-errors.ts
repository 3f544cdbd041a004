/** At most this many characters of a stack in a log line. */
const STACK_MAX = 2_000;

/**
 * The logger's error serializer: type, message, code, a bounded stack and the same of its cause, never the
 * error's other own fields. A driver's error can carry whole objects (a client, its statement cache, a row): one
 * lost database connection once wrote kilobytes per line.
 */
export function compactError(err: unknown, depth = 0): Record<string, unknown> {
  if (!(err instanceof Error)) return { message: String(err).slice(0, 500) };
  const e = err as Error & { code?: unknown; cause?: unknown };
  const out: Record<string, unknown> = { type: e.name, message: e.message.slice(0, 1_000) };
  if (typeof e.code === 'string' || typeof e.code === 'number') out.code = e.code;
  if (e.stack) out.stack = e.stack.slice(0, STACK_MAX);
  if (e.cause !== undefined && depth < 2) out.cause = compactError(e.cause, depth + 1);
  return out;
}
