import { parseArgs } from 'node:util';
import type { ParseArgsConfig } from 'node:util';
import { RANKERS } from '@lumina/shared';
import type { Ranker } from '@lumina/shared';

/** A command-line mistake: the command prints the message and its usage, and exits with 2. */
export class UsageError extends Error {}

type Flags = NonNullable<ParseArgsConfig['options']>;

/** The names in a space-separated list: 'a b c' → 'a' | 'b' | 'c'. */
type Names<L extends string> = L extends `${infer Head} ${infer Tail}` ? Head | Names<Tail> : L;
type StringFlags<S extends string> = { [K in Names<S>]: { type: 'string' } };
type SwitchFlags<B extends string> = { [K in Names<B>]: { type: 'boolean'; default: boolean } };
type DefaultedFlags<D extends Record<string, string>> = {
  [K in keyof D]: { type: 'string'; default: string };
};

/**
 * A command's flags, declared by kind: `string` flags (undefined when absent) and `boolean` switches
 * (false when absent), each a space-separated list, and string flags with `defaults`. A command that
 * prints its usage lists 'help' among its switches.
 */
export function flags<
  const S extends string = never,
  const B extends string = never,
  const D extends Record<string, string> = Record<never, string>,
>(spec: { string?: S; boolean?: B; defaults?: D }): StringFlags<S> & SwitchFlags<B> & DefaultedFlags<D> {
  const options: Flags = {};
  const names = (list: string | undefined) => (list ? list.split(' ') : []);
  for (const name of names(spec.string)) options[name] = { type: 'string' };
  for (const name of names(spec.boolean)) options[name] = { type: 'boolean', default: false };
  for (const [name, value] of Object.entries(spec.defaults ?? {}))
    options[name] = { type: 'string', default: value };
  return options as StringFlags<S> & SwitchFlags<B> & DefaultedFlags<D>;
}

/** A command line parsed against the command's flags (strictly: an unknown flag is an error). */
export function parseFlags<const F extends Flags, const P extends boolean = false>(
  argv: readonly string[],
  flags: F,
  allowPositionals?: P,
) {
  return parseArgs({ args: argv, options: flags, allowPositionals });
}

/** The value of --ranker, one of the search's rankers. */
export function rankerOf(value: string): Ranker {
  if (!RANKERS.includes(value as Ranker))
    throw new UsageError(`--ranker must be one of ${RANKERS.join(', ')}`);
  return value as Ranker;
}

export function positiveInt(value: string, flag: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1) {
    throw new UsageError(`${flag} must be a positive integer, got "${value}"`);
  }
  return parsed;
}

export function nonNegativeInt(value: string, flag: string): number {
  return integerAtLeast(value, flag, 0);
}

export function integerAtLeast(value: string, flag: string, min: number): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < min) {
    throw new UsageError(`${flag} must be an integer ≥ ${min}, got "${value}"`);
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

export function fraction(value: string, flag: string): number {
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed < 0 || parsed > 1) {
    throw new UsageError(`${flag} must be a number in [0, 1], got "${value}"`);
  }
  return parsed;
}

/** `--suite <name>` (or `--suite=<name>`) taken out of the arguments; 'retrieval' when absent. */
export function splitSuite(argv: readonly string[]): { suite: string; rest: string[] } {
  const rest: string[] = [];
  let suite = 'retrieval';
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--suite') suite = argv[++i] ?? '';
    else if (argv[i].startsWith('--suite=')) suite = argv[i].slice('--suite='.length);
    else rest.push(argv[i]);
  }
  return { suite, rest };
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
