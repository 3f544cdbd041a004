/**
 * CPU time of other processes, read from /proc (Linux only): what a server spent, whoever sent the load.
 * utime + stime are in clock ticks (`getconf CLK_TCK`, normally 100, so 10 ms resolution).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

let ticksPerSecond: number | null = null;

function clockTicks(): number {
  if (ticksPerSecond === null) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** utime + stime of one process in ms, or null when it is gone. */
export function processCpuMs(pid: number): number | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The command name (field 2) may hold spaces and parentheses: fields are counted after its last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return ((utime + stime) * 1000) / clockTicks();
}

/** Like processCpuMs but throws: the server we measure must be alive. */
export function requireCpuMs(pid: number): number {
  const ms = processCpuMs(pid);
  if (ms === null) throw new Error(`process ${pid} is gone`);
  return ms;
}

/**
 * PostgreSQL backends serving one database (their command line reads `postgres: … <user> <db> <addr> …`):
 * the database server's share of the work, which the service's own CPU time does not include. A backend that
 * exits between two readings takes its time with it, so the pool keeping its connections open matters.
 */
export function postgresBackendsCpuMs(database: string): { ms: number; pids: number[] } {
  let ms = 0;
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let cmd: string;
    try {
      cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (!cmd.startsWith('postgres:') || !cmd.includes(` ${database} `)) continue;
    const cpu = processCpuMs(Number(name));
    if (cpu === null) continue;
    ms += cpu;
    pids.push(Number(name));
  }
  return { ms, pids: pids.sort((a, b) => a - b) };
}

/** CPU time the whole machine spent busy (all cores, every process: /proc/stat less idle and iowait), in ms. */
export function machineBusyMs(): number {
  const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!;
  const [user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number) as number[];
  return (((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0)) * 1000) / clockTicks();
}
