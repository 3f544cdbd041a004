// Builds the dashboard (web/ → dist/web) only when something it is built from changed since the last build, so
// `npm start` on a current checkout does not spend seconds re-bundling an unchanged app.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const built = path.join(root, 'dist/web/index.html');

function newest(p) {
  const s = statSync(p);
  if (!s.isDirectory()) return s.mtimeMs;
  let m = 0;
  for (const e of readdirSync(p)) if (e !== 'node_modules' && e !== 'dist') m = Math.max(m, newest(path.join(p, e)));
  return m;
}

const sources = [path.join(root, 'web'), path.join(root, 'package-lock.json')];
if (!process.argv.includes('--force') && existsSync(built) && statSync(built).mtimeMs >= Math.max(...sources.map(newest))) process.exit(0);
execFileSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'], {
  cwd: root,
  stdio: 'inherit',
});
