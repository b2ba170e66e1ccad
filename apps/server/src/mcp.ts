import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { flags, parseFlags, runCommand, UsageError } from './cli/cli-args';
import { loadMcpClientEnv } from './config/load-env';
import { HttpLumina } from './modules/mcp/http-lumina';
import { createLuminaMcpServer } from './modules/mcp/lumina-tools';

const USAGE =
  'usage: node dist/apps/server/apps/server/src/mcp.js --url http://127.0.0.1:3000 [--key <API key>]\n' +
  '  --url  the Lumina API (or LUMINA_URL)\n' +
  '  --key  an API key (or LUMINA_API_KEY); without one, only an API in local mode on this machine answers';

/**
 * Lumina's MCP server over stdio, for assistants and editors that start it as a command: the same tools
 * as POST /mcp, answered by the REST API at --url with the key --key. stdout carries the protocol and
 * nothing else; everything this command says goes to stderr.
 */
async function main(argv: string[]): Promise<void> {
  const { values } = commandLine(argv);
  if (values.help) {
    console.error(USAGE);
    return;
  }
  const env = loadMcpClientEnv();
  const url = apiUrl(values.url ?? env.url);
  const key = values.key?.trim() || env.key;
  const lumina = new HttpLumina(url, key);
  const server = createLuminaMcpServer(lumina, {
    baseUrl: url,
    onUnexpected: (error) => console.error('lumina mcp: a tool failed:', error),
  });
  await server.connect(new StdioServerTransport());
  console.error(`lumina mcp: serving the tools on stdio for the API at ${url}`);
  void checkKey(url, key);
}

function commandLine(argv: string[]) {
  try {
    return parseFlags(argv, flags({ string: 'url key', boolean: 'help' }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** The API's address: an http(s) URL, without a trailing slash. */
function apiUrl(value: string | undefined): string {
  if (!value?.trim()) {
    throw new UsageError('--url (or LUMINA_URL) is required: the address of the Lumina API');
  }
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new UsageError(
      `--url must be the address of the Lumina API, e.g. http://127.0.0.1:3000 (got "${value}")`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`--url must be an http:// or https:// address (got "${value}")`);
  }
  if (url.search || url.hash) {
    throw new UsageError(`--url must be the API's address without a query or fragment (got "${value}")`);
  }
  return url.href.replace(/\/+$/, '');
}

/** Says on stderr, once, whether the API answers and takes the key: the tools would only say so when called. */
async function checkKey(url: string, key: string | undefined): Promise<void> {
  try {
    const response = await fetch(`${url}/auth/me`, {
      headers: key ? { 'x-api-key': key } : {},
      signal: AbortSignal.timeout(10_000),
    });
    const body = (await response.json().catch(() => ({}))) as {
      name?: string;
      role?: string;
      message?: unknown;
    };
    if (response.ok) console.error(`lumina mcp: the API answers; acting as "${body.name}" (${body.role})`);
    else {
      const what = response.status === 401 ? 'refused the key' : `answered ${response.status}`;
      console.error(`lumina mcp: the API ${what}: ${String(body.message ?? '')}`);
    }
  } catch (error) {
    const cause = (error as Error & { cause?: Error }).cause?.message ?? (error as Error).message;
    console.error(`lumina mcp: the API at ${url} does not answer (yet): ${cause}`);
  }
}

runCommand(main, USAGE);
