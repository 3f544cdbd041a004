/** Tables and lines the bench prints (Markdown tables, pasted as they are into docs/performance.md). */
import type { LoadResult, WindowStats } from './load.js';

export interface ScenarioRow {
  name: string;
  label: string;
  expect: number;
  result: LoadResult;
  /** Server CPU from the start of the load until the service was quiet again (payout scenarios). */
  cpuWithFollowUpMs: number | null;
  ok: boolean;
}

const f = (n: number | null | undefined, digits = 1) => (n === null || n === undefined || Number.isNaN(n) ? '–' : n.toFixed(digits));

export function statusText(statuses: Record<string, number>): string {
  return Object.entries(statuses)
    .sort((a, b) => b[1] - a[1])
    .map(([s, n]) => `${s}×${n}`)
    .join(' ');
}

/** Share of responses with the expected status; a scenario under 99 % is not measuring what it says. */
export function expectedShare(r: LoadResult, expect: number): number {
  return r.completed === 0 ? 0 : (r.statuses[expect] ?? 0) / r.completed;
}

export function scenarioTable(rows: ScenarioRow[], withDb: boolean): string {
  const noop = rows.find((r) => r.name === 'noop')?.result.rps;
  const head = [
    'scenario',
    'req/s',
    '× no-op',
    'p50 ms',
    'p99 ms',
    'server CPU ms/req',
    '… incl. follow-up',
    ...(withDb ? ['PostgreSQL CPU ms/req'] : []),
    'load-gen CPU',
    'other CPU',
    'statuses',
  ];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map((h) => (/^(scenario|statuses)$/.test(h) ? '---' : '--:')).join('|')}|`];
  for (const r of rows) {
    const x = r.result;
    const cells = [
      r.ok ? r.label : `**${r.label} ✗**`,
      f(x.rps, 0),
      noop ? `${(x.rps / noop).toFixed(3)}×` : '–',
      f(x.p50, 2),
      f(x.p99, 2),
      f(x.serverCpuMs / x.completed, 3),
      r.cpuWithFollowUpMs === null ? '' : f(r.cpuWithFollowUpMs / x.completed, 3),
      ...(withDb ? [x.dbCpuMs === null ? '–' : `${f(x.dbCpuMs / x.completed, 3)}${x.dbBackendsChanged ? '*' : ''}`] : []),
      `${x.loadgenCpuPct.toFixed(0)} %`,
      `${x.otherCpuPct.toFixed(0)} %`,
      statusText(x.statuses) + (x.errors ? ` err×${x.errors}` : ''),
    ];
    lines.push(`| ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}

export function windowLine(w: WindowStats, expect: number): string {
  const bad = w.completed - (w.statuses[expect] ?? 0);
  return (
    `  window ${String(w.index + 1).padStart(3)}  t=${w.startedS.toFixed(0).padStart(4)} s  ${String(w.completed).padStart(7)} payouts` +
    `  ${w.rps.toFixed(0).padStart(6)}/s  p50 ${f(w.p50, 1).padStart(6)} ms  p99 ${f(w.p99, 1).padStart(6)} ms  max ${f(w.max, 0).padStart(5)} ms` +
    `  CPU ${(w.serverCpuMs / Math.max(1, w.completed)).toFixed(3)} ms/payout  other CPU ${w.otherCpuPct.toFixed(0).padStart(3)} %${bad ? `  not ${expect}: ${bad} (${statusText(w.statuses)})` : ''}` +
    (w.seconds < 29 ? '  (partial)' : '')
  );
}
