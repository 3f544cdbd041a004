import type { File, Reporter, Task } from 'vitest';

/** Prints one plain closing line, `tests: N passed, N failed, N skipped`, that CI tooling reads. */
export default class SummaryReporter implements Reporter {
  onFinished(files: File[] = []): void {
    const counts = { pass: 0, fail: 0, skip: 0 };
    const walk = (t: Task) => {
      if (t.type === 'suite') return t.tasks.forEach(walk);
      const s = t.result?.state;
      if (s === 'pass') counts.pass++;
      else if (s === 'fail') counts.fail++;
      else counts.skip++;
    };
    files.forEach((f) => {
      if (f.result?.state === 'fail' && f.tasks.length === 0) counts.fail++;
      f.tasks.forEach(walk);
    });
    console.log(`\ntests: ${counts.pass} passed, ${counts.fail} failed, ${counts.skip} skipped`);
  }
}
