import type { SuiteProgress } from '../modules/evaluation/suites/suite-progress';

/** A progress line on stderr: redrawn in place on a terminal, every 10% otherwise (CI logs). */
export function progressReporter(label: string): (done: number, total: number) => void {
  const tty = process.stderr.isTTY;
  let lastDecile = -1;
  const started = Date.now();
  return (done, total) => {
    const fraction = total === 0 ? 1 : done / total;
    const elapsed = (Date.now() - started) / 1000;
    const rate = elapsed > 0 ? done / elapsed : 0;
    const line = `${label} ${bar(fraction)} ${done}/${total} (${rate.toFixed(1)}/s)`;
    if (tty) {
      process.stderr.write(`\r${line}${done === total ? '\n' : ''}`);
    } else {
      const decile = Math.floor(fraction * 10);
      if (decile !== lastDecile) {
        lastDecile = decile;
        process.stderr.write(`${line}\n`);
      }
    }
  };
}

function bar(fraction: number, width = 24): string {
  const filled = Math.round(fraction * width);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}]`;
}

/** A suite's progress on stderr: a bar per stage, and its notes as lines. */
export const STDERR_PROGRESS: SuiteProgress = {
  stage: progressReporter,
  note: (line) => console.error(line),
};
