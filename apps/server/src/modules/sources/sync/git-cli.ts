import { execFile } from 'node:child_process';

/** A git command that failed, with what it printed. */
export class GitCommandError extends Error {}

/**
 * Runs git with no hooks, no credential prompts (a repository that needs a password fails instead of
 * waiting), no system or user configuration, no `ext::` transport, none of the server's environment, and
 * a timeout. Answers stdout.
 */
export function runGit(
  args: readonly string[],
  options: { command: string; cwd?: string; timeoutMs: number; maxBuffer?: number },
): Promise<Buffer> {
  const safe = [
    '-c',
    'core.hooksPath=/dev/null',
    '-c',
    'protocol.ext.allow=never',
    '-c',
    'credential.helper=',
    '-c',
    'core.fsmonitor=false',
    ...args,
  ];
  return new Promise((resolve, reject) => {
    execFile(
      options.command,
      safe,
      {
        cwd: options.cwd,
        timeout: options.timeoutMs,
        killSignal: 'SIGKILL',
        maxBuffer: options.maxBuffer ?? 256 * 1024 * 1024,
        encoding: 'buffer',
        env: {
          // git finds its helpers (ssh, its own commands) here; its own place is SOURCE_GIT_COMMAND.
          PATH: '/usr/local/bin:/usr/bin:/bin',
          GIT_TERMINAL_PROMPT: '0',
          GIT_ASKPASS: 'echo',
          SSH_ASKPASS: 'echo',
          GIT_SSH_COMMAND: 'ssh -o BatchMode=yes -o StrictHostKeyChecking=accept-new',
          GIT_CONFIG_NOSYSTEM: '1',
          GIT_CONFIG_GLOBAL: '/dev/null',
          HOME: '/nonexistent',
          LC_ALL: 'C',
        },
      },
      (error, stdout, stderr) => {
        if (!error) return resolve(stdout);
        const killed = (error as { killed?: boolean }).killed;
        const what = `git ${args
          .filter((arg) => !arg.includes('://'))
          .slice(0, 2)
          .join(' ')}`;
        reject(
          new GitCommandError(
            killed
              ? `${what} did not finish within ${Math.round(options.timeoutMs / 1000)} s (SOURCE_GIT_TIMEOUT_SECONDS).`
              : `${what} failed: ${stderr.toString('utf8').trim().split('\n').slice(-3).join(' ') || error.message}`,
          ),
        );
      },
    );
  });
}
