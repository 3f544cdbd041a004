/**
 * The README runs as written. Its ```sh blocks run in order, in ONE bash session (so `B`, `KEY`, `TOKEN` … carry
 * over), against a service started here on a fresh store, as a newcomer would paste them into a terminal:
 *
 * - `<!-- not-run: reason -->` right before a block skips it (few, each with its reason).
 * - `<!-- file: name -->` right before a block saves it as `name` in the session's directory, for a later block
 *   to run (`node webhook-receiver.mjs`, `npx tsx mcp-agent.ts`). Every other code block (sh, js, ts) runs;
 *   data blocks (json) are left alone.
 * - Every command must exit 0. A command that assigns a variable (`KEY=$(…)`) must leave it non-empty and not
 *   `null` (what `jq -r` prints for a missing field).
 * - `# → text`, after a command on its line or on the lines right below it, is what the command prints: its
 *   whole stdout must match, `…` standing for any text. A command without one must not print an error envelope.
 * - The documented addresses `127.0.0.1:3000` (the service) and `127.0.0.1:4000` (the webhook receiver) are
 *   replaced by free ports, so the test runs beside a service a developer already started.
 *
 * It needs bash, curl and jq (`.ci/run` installs jq); without them it is skipped locally and fails in CI.
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { parseConfig } from '../src/config.js';
import { createTestStore, TEST_JWT_SECRET, type TestStore } from './helpers.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');

const RUN_LANGS = new Set(['sh', 'bash', 'shell']);
const CODE_LANGS = new Set([...RUN_LANGS, 'js', 'mjs', 'javascript', 'ts', 'typescript']);
/** "Keep these few": a block the test cannot run is a block a newcomer cannot trust. */
const MAX_NOT_RUN = 4; // + the BIND rehearsal, which needs two long-running processes
const COMMAND_TIMEOUT_MS = 30_000;

interface Block {
  lang: string;
  text: string;
  /** 1-based line of the opening fence in README.md. */
  line: number;
  notRun?: string;
  file?: string;
}

interface Command {
  text: string;
  line: number;
  expect: string[];
  assigns?: string;
}

export function parseBlocks(md: string): Block[] {
  const lines = md.split('\n');
  const blocks: Block[] = [];
  let marker: { notRun?: string; file?: string } = {};
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const m = /^<!--\s*(not-run|file):\s*(.*?)\s*-->$/.exec(line.trim());
    if (m) {
      marker = m[1] === 'not-run' ? { notRun: m[2] } : { file: m[2] };
      continue;
    }
    const fence = /^```(\S*)/.exec(line);
    if (!fence) {
      if (line.trim() !== '') marker = {};
      continue;
    }
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i]!); i++) body.push(lines[i]!);
    blocks.push({ lang: fence[1]!.toLowerCase(), text: body.join('\n'), line: start + 1, ...marker });
    marker = {};
  }
  return blocks;
}

/** bash decides where a command ends: lines are added until the text parses (and does not end in `\`). */
function isComplete(text: string): boolean {
  if (/\\\s*$/.test(text)) return false;
  return spawnSync('bash', ['-n'], { input: text, stdio: ['pipe', 'ignore', 'ignore'] }).status === 0;
}

export function splitCommands(block: Block): Command[] {
  const commands: Command[] = [];
  let acc: string[] = [];
  let accLine = 0;
  let last: Command | undefined; // the command that `# →` lines below it describe
  block.text.split('\n').forEach((line, idx) => {
    const lineNo = block.line + 1 + idx;
    if (acc.length === 0) {
      const trimmed = line.trim();
      if (trimmed === '') {
        last = undefined;
        return;
      }
      if (trimmed.startsWith('#')) {
        const exp = /^#\s*→\s?(.*)$/.exec(trimmed);
        if (!exp) last = undefined;
        else if (last) last.expect.push(exp[1]!);
        else throw new Error(`README.md:${lineNo}: a "# →" line that follows no command`);
        return;
      }
      accLine = lineNo;
    }
    acc.push(line);
    const text = acc.join('\n');
    if (!isComplete(text)) return;
    acc = [];
    const trailing = /\s#\s*→\s?(.*)$/.exec(line);
    // `X=$(…)` or `X=value` alone; not `X=value command`, which only sets X for that command.
    const assigns = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=(?:\$\(|\S*$)/.exec(text)?.[1];
    last = { text, line: accLine, expect: trailing ? [trailing[1]!] : [], assigns };
    commands.push(last);
  });
  if (acc.length > 0) throw new Error(`README.md:${accLine}: this command does not parse in bash:\n${acc.join('\n')}`);
  return commands;
}

/** `# →` text as a regular expression over the whole output: `…` is any text, everything else literal. */
const expectation = (lines: string[]) =>
  new RegExp(`^${lines.map((l) => l.trimEnd().split('…').map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[\\s\\S]*?')).join('\n')}$`);

/** Placeholders a reader would have to fill in by hand: a runnable block must capture these values instead. */
const PLACEHOLDER = /\b(?:svc|usr|key|wd|apr|evt|whk|whd|dep|trf|txn)_(?:…|\.\.\.)|<[a-z][a-z_-]*>/;
const withoutComments = (text: string) =>
  text
    .split('\n')
    .filter((l) => !l.trim().startsWith('#'))
    .map((l) => l.replace(/\s#\s.*$/, ''))
    .join('\n');

const blocks = parseBlocks(README);
const missingTools = ['bash', 'curl', 'jq'].filter((t) => spawnSync('sh', ['-c', `command -v ${t}`], { stdio: 'ignore' }).status !== 0);
const inCi = process.env.CI === 'true';

describe('README: every example is accounted for', () => {
  it('each code block runs, is saved for a later block, or says why it cannot run', () => {
    const problems: string[] = [];
    const later = (b: Block) => blocks.filter((o) => o.line > b.line && RUN_LANGS.has(o.lang) && !o.notRun).map((o) => o.text).join('\n');
    for (const b of blocks) {
      if (b.notRun !== undefined && b.notRun.length < 10) problems.push(`README.md:${b.line}: not-run needs a reason`);
      if (b.file !== undefined) {
        if (!/^[\w.-]+$/.test(b.file)) problems.push(`README.md:${b.line}: file name "${b.file}"`);
        else if (!later(b).includes(b.file)) problems.push(`README.md:${b.line}: no later block uses ${b.file}`);
      }
      if (CODE_LANGS.has(b.lang) && !RUN_LANGS.has(b.lang) && b.file === undefined && b.notRun === undefined) {
        problems.push(`README.md:${b.line}: a ${b.lang} block must be <!-- file: name --> (run by a later block) or <!-- not-run: why -->`);
      }
      if (RUN_LANGS.has(b.lang) && b.notRun === undefined) {
        const bad = PLACEHOLDER.exec(withoutComments(b.text));
        if (bad) problems.push(`README.md:${b.line}: placeholder ${bad[0]} in a runnable block; capture the value from an earlier answer`);
      }
    }
    expect(problems).toEqual([]);
    expect(blocks.filter((b) => b.notRun !== undefined).length).toBeLessThanOrEqual(MAX_NOT_RUN);
    if (missingTools.includes('bash')) return; // splitting needs bash; the run below fails in CI without it
    const runnable = blocks.filter((b) => RUN_LANGS.has(b.lang) && b.notRun === undefined);
    const commands = runnable.flatMap(splitCommands);
    expect(commands.length).toBeGreaterThan(20);
    expect(commands.filter((c) => c.expect.length > 0).length).toBeGreaterThan(10);
  });

  it('README.md and docs/ stand on their own: no links outside the repository, no decision numbers', () => {
    const docs = ['README.md', ...readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
    const problems: string[] = [];
    for (const doc of docs) {
      const text = readFileSync(path.join(ROOT, doc), 'utf8');
      const dir = path.dirname(path.join(ROOT, doc));
      for (const m of text.matchAll(/\]\(([^)\s]+)\)|\bsrc="([^"]+)"/g)) {
        const target = (m[1] ?? m[2]!).split('#')[0]!;
        if (target === '' || /^[a-z]+:/i.test(target)) continue;
        const abs = path.resolve(dir, target);
        if (!abs.startsWith(ROOT + path.sep) || !existsSync(abs)) problems.push(`${doc}: link to ${target}`);
      }
      if (/\.\.\/shared|shared\/spec/.test(text)) problems.push(`${doc}: points at the shared spec`);
      for (const m of text.matchAll(/\(D\d+\b[^)]*\)|\bD\d{1,2}\b(?=[,;)])/g)) problems.push(`${doc}: cites decision ${m[0]}; say it in words`);
    }
    expect(problems).toEqual([]);
  });
});


/** One long-lived bash; each command is followed by a marker on stdout and stderr that carries its exit status. */
class Session {
  private readonly proc: ChildProcessWithoutNullStreams;
  private out = '';
  private err = '';
  private exited: string | undefined;
  private wake: () => void = () => {};
  private readonly nonce = `__readme_${randomBytes(6).toString('hex')}__`;

  constructor(cwd: string) {
    const env = { ...process.env };
    for (const k of ['B', 'KEY', 'TOKEN', 'OWNER', 'BASH_ENV', 'ENV']) delete env[k];
    this.proc = spawn('bash', ['--noprofile', '--norc'], { cwd, env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    this.proc.stdout.setEncoding('utf8').on('data', (d: string) => {
      this.out += d;
      this.wake();
    });
    this.proc.stderr.setEncoding('utf8').on('data', (d: string) => {
      this.err += d;
      this.wake();
    });
    this.proc.on('exit', (code, signal) => {
      this.exited = `bash exited (${signal ?? code})`;
      this.wake();
    });
    this.proc.stdin.write('set -uo pipefail\n');
  }

  async run(cmd: Command): Promise<{ status: number; varOk: boolean; stdout: string; stderr: string }> {
    const check = cmd.assigns ? `[ -n "\${${cmd.assigns}-}" ] && [ "\${${cmd.assigns}-}" != null ]; __v=$?` : '__v=0';
    this.proc.stdin.write(
      `{\n${cmd.text}\n} </dev/null\n__rc=$?; ${check}; printf '\\n${this.nonce} %s %s\\n' "$__rc" "$__v"; printf '\\n${this.nonce}\\n' >&2\n`,
    );
    const outDone = new RegExp(`\\n${this.nonce} (\\d+) (\\d+)\\n`);
    const errDone = `\n${this.nonce}\n`;
    const deadline = Date.now() + COMMAND_TIMEOUT_MS;
    for (;;) {
      const o = outDone.exec(this.out);
      const e = this.err.indexOf(errDone);
      if (o && e >= 0) {
        const result = { status: Number(o[1]), varOk: o[2] === '0', stdout: this.out.slice(0, o.index), stderr: this.err.slice(0, e) };
        this.out = this.out.slice(o.index + o[0].length);
        this.err = this.err.slice(e + errDone.length);
        return result;
      }
      if (this.exited) throw new Error(`${this.exited}\nstdout: ${this.out}\nstderr: ${this.err}`);
      if (Date.now() > deadline) throw new Error(`no answer in ${COMMAND_TIMEOUT_MS / 1000} s\nstdout: ${this.out}\nstderr: ${this.err}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, 200);
        this.wake = () => {
          clearTimeout(t);
          resolve();
        };
      });
    }
  }

  /** The whole process group: bash and whatever the README started in the background (the webhook receiver). */
  close(): void {
    try {
      if (this.proc.pid) process.kill(-this.proc.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

describe('README: the examples run as written', () => {
  let app: FastifyInstance | undefined;
  let store: TestStore | undefined;
  let session: Session | undefined;
  let workDir: string | undefined;
  afterAll(async () => {
    session?.close();
    await app?.close();
    await store?.drop();
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  it.skipIf(missingTools.length > 0 && !inCi)(
    'every runnable block, in order, in one shell, against a started service',
    async () => {
      if (missingTools.length > 0) throw new Error(`CI must run the README examples; missing: ${missingTools.join(', ')}`);
      store = await createTestStore();
      const config = parseConfig({
        JWT_SECRET: TEST_JWT_SECRET,
        SECRETS_KEY: 'test-secrets-key-0123456789-abcdefghijkl',
        LOG_LEVEL: 'silent',
        // As the README says to start it for the webhook example (a receiver on this machine).
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
        // A person takes minutes over these examples; the test takes seconds.
        RATE_LIMIT_PER_MINUTE: '1000',
        // It listens on a port chosen at start: /mcp answers the localhost forms on that port (ALLOWED_HOSTS default).
        PORT: '0',
      });
      app = await buildApp({ ...config, ...store.config });
      await app.listen({ port: 0, host: '127.0.0.1' });
      const servicePort = (app.server.address() as { port: number }).port;
      const receiverPort = await freePort();
      const localize = (text: string) =>
        text.replaceAll('127.0.0.1:3000', `127.0.0.1:${servicePort}`).replaceAll('127.0.0.1:4000', `127.0.0.1:${receiverPort}`);

      // Inside the repository, so saved files resolve its node_modules (standardwebhooks, the MCP SDK, tsx).
      workDir = path.join(ROOT, '.tmp', `readme-${randomBytes(4).toString('hex')}`);
      mkdirSync(workDir, { recursive: true });
      session = new Session(workDir);

      let ran = 0;
      for (const block of blocks) {
        if (block.notRun !== undefined) continue;
        const b = { ...block, text: localize(block.text) };
        if (b.file !== undefined) {
          writeFileSync(path.join(workDir, b.file), b.text + '\n');
          continue;
        }
        if (!RUN_LANGS.has(b.lang)) continue;
        for (const cmd of splitCommands(b)) {
          const r = await session.run(cmd);
          ran++;
          const where = `README.md:${cmd.line}\n$ ${cmd.text}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`;
          if (r.status !== 0) throw new Error(`exited ${r.status}: ${where}`);
          if (!r.varOk) throw new Error(`left ${cmd.assigns} empty or null: ${where}`);
          const got = r.stdout.replace(/^\n+|\s+$/g, '');
          if (cmd.expect.length > 0) {
            if (!expectation(cmd.expect).test(got)) throw new Error(`printed something else than\n# → ${cmd.expect.join('\n# → ')}\n${where}`);
          } else if (/"error"\s*:/.test(got)) {
            throw new Error(`answered an error its comment does not show: ${where}`);
          }
        }
      }
      expect(ran).toBeGreaterThan(20);
    },
    240_000,
  );
});
