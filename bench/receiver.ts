/**
 * The webhook receiver of `--webhooks`: a plain node:http server in its own process that answers every
 * delivery 200 at once and counts what arrived (by event type, distinct event ids), and for each
 * `payout.confirmed` how long the payout took from creation to confirmation (`resolved_at - created_at`, both
 * the service's own clock, in the event's data). For every distinct payout event it keeps when the event was
 * created (its `created_at`) and when it arrived, so GET /window?from=&to= can say how many events were created
 * in that span and how many of those had arrived by its end: whether delivery kept pace with what the load
 * produced. bench/run.ts reads the counts with GET /stats.
 * Child of bench/run.ts: listens on 127.0.0.1:<argv[2]> and exits when the parent goes away.
 */
import http from 'node:http';

const port = Number(process.argv[2]);

let deliveries = 0;
let byType: Record<string, number> = {};
let eventIds = new Set<string>();
let confirmMs: number[] = [];
/** Distinct payout events: created (service clock) and arrived (this machine's clock; the same clock here). */
let created: number[] = [];
let arrived: number[] = [];
let firstAt = 0;
let lastAt = 0;

function record(body: string): void {
  const now = Date.now();
  deliveries++;
  if (!firstAt) firstAt = now;
  lastAt = now;
  let event: { id?: string; type?: string; data?: { created_at?: string; resolved_at?: string | null } };
  try {
    event = JSON.parse(body);
  } catch {
    byType['(unparsable)'] = (byType['(unparsable)'] ?? 0) + 1;
    return;
  }
  const type = event.type ?? '(none)';
  if (event.id) {
    if (eventIds.has(event.id)) {
      byType['(duplicate)'] = (byType['(duplicate)'] ?? 0) + 1;
      return;
    }
    eventIds.add(event.id);
  }
  byType[type] = (byType[type] ?? 0) + 1;
  const at = Date.parse((event as { created_at?: string }).created_at ?? '');
  if (type.startsWith('payout.') && Number.isFinite(at)) {
    created.push(at);
    arrived.push(now);
  }
  if (type === 'payout.confirmed' && event.data?.created_at && event.data.resolved_at) {
    confirmMs.push(Date.parse(event.data.resolved_at) - Date.parse(event.data.created_at));
  }
}

/** Events created in [from, to], and how many of them had arrived by `to`; delivery lag of those that arrived. */
function window(from: number, to: number) {
  let produced = 0;
  let deliveredBy = 0;
  const lags: number[] = [];
  for (let i = 0; i < created.length; i++) {
    if (created[i]! < from || created[i]! > to) continue;
    produced++;
    if (arrived[i]! <= to) deliveredBy++;
    lags.push(arrived[i]! - created[i]!);
  }
  return { produced, deliveredBy, lag: spread(lags) };
}

/** p50, p99 and max of some milliseconds (null when there are none). */
function spread(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const pct = (p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]! : null);
  return { p50: pct(0.5), p99: pct(0.99), max: sorted.length ? sorted[sorted.length - 1]! : null };
}

function stats() {
  return { deliveries, distinct: eventIds.size, byType, firstAt, lastAt, confirm: { count: confirmMs.length, ...spread(confirmMs) } };
}

const server = http.createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/stats') {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(stats()));
    return;
  }
  if (req.method === 'GET' && req.url?.startsWith('/window?')) {
    const q = new URL(req.url, 'http://x').searchParams;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(window(Number(q.get('from')), Number(q.get('to')))));
    return;
  }
  if (req.method === 'POST' && req.url === '/reset') {
    deliveries = 0;
    byType = {};
    eventIds = new Set();
    confirmMs = [];
    created = [];
    arrived = [];
    firstAt = 0;
    lastAt = 0;
    res.end('{}');
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    record(Buffer.concat(chunks).toString('utf8'));
    res.statusCode = 200;
    res.end('ok');
  });
});
server.keepAliveTimeout = 60_000;
server.listen(port, '127.0.0.1', () => process.send?.({ ready: port }));
process.on('disconnect', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
