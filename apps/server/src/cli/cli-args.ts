/** A command-line mistake: the command prints the message and its usage, and exits with 2. */
export class UsageError extends Error {}

export function positiveInt(value: string, flag: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1) {
    throw new UsageError(`${flag} must be a positive integer, got "${value}"`);
  }
  return parsed;
}

export function nonNegativeInt(value: string, flag: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) {
    throw new UsageError(`${flag} must be an integer ≥ 0, got "${value}"`);
  }
  return parsed;
}

export function nonNegativeNumber(value: string, flag: string): number {
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed < 0) {
    throw new UsageError(`${flag} must be a number ≥ 0, got "${value}"`);
  }
  return parsed;
}

export function positiveNumber(value: string, flag: string): number {
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed <= 0) {
    throw new UsageError(`${flag} must be a number > 0, got "${value}"`);
  }
  return parsed;
}

/** Run a command's main: a UsageError prints the usage and exits 2, any other error its message and exits 1. */
export function runCommand(main: (argv: string[]) => Promise<void>, usage: string): void {
  main(process.argv.slice(2)).catch((error: unknown) => {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n\n${usage}`);
      process.exit(2);
    }
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
