import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';
import { DataSource } from 'typeorm';
import { startTestApp } from './helpers/test-app';
import type { TestApp } from './helpers/test-app';
import { testEnv } from './helpers/test-env';

/** Debian's Chromium, the browser every browser test here drives. */
const CHROMIUM = '/usr/bin/chromium';
const WEB_ORIGIN = 'http://127.0.0.1:3001';

interface RawAnswer {
  status: number;
  body: string;
  json: { statusCode?: number; message?: string } | null;
}

/**
 * One request with exactly these headers (fetch would refuse to set Host): what `curl -H` sends.
 */
function raw(
  baseUrl: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string | Buffer,
): Promise<RawAnswer> {
  const target = new URL(path, baseUrl);
  return new Promise((resolve, reject) => {
    const sent = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method,
        path: target.pathname + target.search,
        headers: { ...(body === undefined ? {} : { 'content-length': Buffer.byteLength(body) }), ...headers },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: RawAnswer['json'] = null;
          try {
            json = JSON.parse(text);
          } catch {
            // not JSON
          }
          resolve({ status: response.statusCode ?? 0, body: text, json });
        });
      },
    );
    sent.on('error', reject);
    sent.end(body);
  });
}

function multipartBody(fileName: string, content: string): { type: string; body: Buffer } {
  const boundary = '----localmode' + Math.random().toString(36).slice(2);
  return {
    type: `multipart/form-data; boundary=${boundary}`,
    body: Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${fileName}"\r\n` +
        `Content-Type: text/plain\r\n\r\n${content}\r\n--${boundary}--\r\n`,
      'utf8',
    ),
  };
}

describe('local mode (no ADMIN_API_KEY) is safe from other websites', () => {
  let server: TestApp;
  let dataSource: DataSource;
  let uploadRoot: string;
  let host: string;

  const count = async (table: 'api_keys' | 'documents') =>
    Number((await dataSource.query(`SELECT count(*)::int AS n FROM ${table}`))[0].n);
  const keyNamed = async (name: string) =>
    Number((await dataSource.query(`SELECT count(*)::int AS n FROM api_keys WHERE name = $1`, [name]))[0].n);
  const documentTitled = async (title: string) =>
    Number(
      (
        await dataSource.query(
          `SELECT count(*)::int AS n FROM documents WHERE title = $1 OR source_name = $1`,
          [title],
        )
      )[0].n,
    );

  beforeAll(async () => {
    uploadRoot = mkdtempSync(join(tmpdir(), 'lumina-local-mode-'));
    server = await startTestApp(testEnv({ UPLOAD_DIR: join(uploadRoot, 'uploads'), WEB_ORIGIN }));
    dataSource = server.app.get(DataSource);
    host = new URL(server.baseUrl).host;
  });

  afterAll(async () => {
    await server?.close();
    rmSync(uploadRoot, { recursive: true, force: true });
  });

  describe('with plain HTTP (the curl cases)', () => {
    it('refuses a form post from a foreign Origin (403 with a message) and creates no key', async () => {
      const before = await count('api_keys');
      const answer = await raw(
        server.baseUrl,
        'POST',
        '/auth/keys',
        { origin: 'http://evil.example', 'content-type': 'application/x-www-form-urlencoded' },
        'name=x&role=admin',
      );
      expect(answer.status).toBe(403);
      expect(answer.json?.message).toMatch(/http:\/\/evil\.example.*WEB_ORIGIN/);
      expect(await count('api_keys')).toBe(before);
    });

    it('refuses a foreign Host (DNS rebinding): the key list is not shown', async () => {
      const answer = await raw(server.baseUrl, 'GET', '/auth/keys', { host: 'rebind.evil.example:3000' });
      expect(answer.status).toBe(403);
      expect(answer.json?.message).toMatch(/rebind\.evil\.example:3000.*DNS rebinding/);
      expect(answer.body).not.toMatch(/lum_|prefix/);
      // The same request with a loopback Host is the local admin's: the guard is what refused it.
      for (const loopback of [host, `localhost:${new URL(server.baseUrl).port}`]) {
        const allowed = await raw(server.baseUrl, 'GET', '/auth/keys', { host: loopback });
        expect({ loopback, status: allowed.status }).toEqual({ loopback, status: 200 });
      }
    });

    it('refuses keyless form bodies without the client header, even with no Origin', async () => {
      const before = await count('api_keys');
      for (const type of ['application/x-www-form-urlencoded', 'text/plain']) {
        const answer = await raw(
          server.baseUrl,
          'POST',
          '/auth/keys',
          { 'content-type': type },
          'name=x&role=admin',
        );
        expect({ type, status: answer.status }).toEqual({ type, status: 403 });
        expect(answer.json?.message).toMatch(/x-lumina-client/);
      }
      const upload = multipartBody('planted-by-form.txt', 'Planted without the client header.');
      const refused = await raw(
        server.baseUrl,
        'POST',
        '/documents',
        { 'content-type': upload.type },
        upload.body,
      );
      expect(refused.status).toBe(403);
      expect(refused.json?.message).toMatch(/x-lumina-client/);
      expect(await count('api_keys')).toBe(before);
      expect(await documentTitled('planted-by-form.txt')).toBe(0);
    });

    it('accepts the same upload with the client header (what the web app and the README curl send)', async () => {
      const upload = multipartBody('with-header.txt', 'Uploaded by a local script that says who it is.');
      const answer = await raw(
        server.baseUrl,
        'POST',
        '/documents',
        { 'content-type': upload.type, 'x-lumina-client': 'cli' },
        upload.body,
      );
      expect(answer.status).toBe(202);
      expect(await documentTitled('with-header.txt')).toBe(1);
    });

    it('accepts JSON from the web app origin and from a plain client; refuses Origin null and a foreign preflight', async () => {
      const fromWeb = await raw(
        server.baseUrl,
        'POST',
        '/auth/keys',
        { origin: WEB_ORIGIN, 'content-type': 'application/json' },
        JSON.stringify({ name: 'from-web-app', role: 'user' }),
      );
      expect(fromWeb.status).toBe(201);
      const plain = await raw(
        server.baseUrl,
        'POST',
        '/auth/keys',
        { 'content-type': 'application/json' },
        JSON.stringify({ name: 'from-curl', role: 'user' }),
      );
      expect(plain.status).toBe(201);
      const sandboxed = await raw(
        server.baseUrl,
        'POST',
        '/auth/keys',
        { origin: 'null', 'content-type': 'application/json' },
        JSON.stringify({ name: 'from-null-origin', role: 'admin' }),
      );
      expect(sandboxed.status).toBe(403);
      const preflight = await raw(server.baseUrl, 'OPTIONS', '/auth/keys', {
        origin: 'http://evil.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,x-lumina-client',
      });
      expect(preflight.status).toBe(403);
      expect(await keyNamed('from-null-origin')).toBe(0);
    });
  });

  describe('in a real browser (Chromium), from a page on another origin', () => {
    let browser: Browser;
    let attacker: Server;
    let attackerUrl: string;

    beforeAll(async () => {
      expect(existsSync(CHROMIUM)).toBe(true);
      attacker = createServer((_request, response) => {
        response.setHeader('content-type', 'text/html; charset=utf-8');
        response.end(attackPage(server.baseUrl));
      });
      await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.2', resolve));
      const address = attacker.address();
      attackerUrl = `http://127.0.0.2:${typeof address === 'object' && address ? address.port : 0}/`;
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-background-networking',
          '--disable-dev-shm-usage',
          // DNS rebinding without a DNS server: the attacker's name resolves to this machine.
          '--host-resolver-rules=MAP rebind.evil.example 127.0.0.1',
        ],
      });
    });

    afterAll(async () => {
      await browser?.close();
      await new Promise((resolve) => attacker?.close(resolve));
    });

    it('auto-submitted forms (urlencoded key, multipart upload) and no-cors fetches create nothing', async () => {
      const keysBefore = await count('api_keys');
      const documentsBefore = await count('documents');
      const context = await browser.newContext();
      const page = await context.newPage();
      // What the API answered, seen from its own HTTP server: proof each attack arrived and was refused.
      const answered: string[] = [];
      const httpServer = server.app.getHttpServer() as Server;
      const record = (request: IncomingMessage, response: ServerResponse) =>
        response.on('finish', () => answered.push(`${request.method} ${request.url} ${response.statusCode}`));
      httpServer.on('request', record);
      await page.goto(attackerUrl);
      // Each attack reports when the API answered it (the frame loaded, the fetch settled).
      await page.waitForFunction('window.finished === 4', undefined, { timeout: 20_000 });
      httpServer.off('request', record);
      expect(answered.sort()).toEqual([
        'POST /auth/keys 403',
        'POST /auth/keys 403',
        'POST /documents 403',
        'POST /documents 403',
      ]);
      expect(await count('api_keys')).toBe(keysBefore);
      expect(await keyNamed('planted-admin')).toBe(0);
      expect(await count('documents')).toBe(documentsBefore);
      expect(await documentTitled('planted.txt')).toBe(0);
      await context.close();
    });

    it('a page rebound to 127.0.0.1 (foreign Host) can neither read the keys nor create one', async () => {
      const keysBefore = await count('api_keys');
      const context = await browser.newContext();
      const page = await context.newPage();
      const port = new URL(server.baseUrl).port;
      const landing = await page.goto(`http://rebind.evil.example:${port}/auth/keys`);
      expect(landing?.status()).toBe(403);
      expect(await page.textContent('body')).toMatch(/DNS rebinding/);
      // Same-origin for the rebound page, so it could read answers: the API must refuse them.
      const attempts = await page.evaluate(async () => {
        const list = await fetch('/auth/keys');
        const create = await fetch('/auth/keys', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-lumina-client': 'web' },
          body: JSON.stringify({ name: 'rebound-admin', role: 'admin' }),
        });
        return { list: list.status, listBody: await list.text(), create: create.status };
      });
      expect(attempts.list).toBe(403);
      expect(attempts.listBody).not.toMatch(/lum_|prefix/);
      expect(attempts.create).toBe(403);
      expect(await keyNamed('rebound-admin')).toBe(0);
      expect(await count('api_keys')).toBe(keysBefore);
      await context.close();
    });
  });
});

/** The other website: two forms posted into frames on load, and two no-cors fetches. */
function attackPage(api: string): string {
  return `<!doctype html><html><body>
<iframe name="keyframe"></iframe><iframe name="uploadframe"></iframe>
<form id="key" method="POST" action="${api}/auth/keys" target="keyframe">
  <input name="name" value="planted-admin"><input name="role" value="admin">
</form>
<form id="upload" method="POST" action="${api}/documents" enctype="multipart/form-data" target="uploadframe">
  <input type="file" name="files" id="file">
</form>
<script>
  window.finished = 0;
  const done = () => { window.finished += 1; };
  document.querySelector('iframe[name=keyframe]').addEventListener('load', done, { once: true });
  document.querySelector('iframe[name=uploadframe]').addEventListener('load', done, { once: true });
  const transfer = new DataTransfer();
  transfer.items.add(new File(['Planted by another website.'], 'planted.txt', { type: 'text/plain' }));
  document.getElementById('file').files = transfer.files;
  document.getElementById('key').submit();
  document.getElementById('upload').submit();
  const form = new FormData();
  form.append('files', new File(['Planted by a fetch.'], 'planted.txt', { type: 'text/plain' }));
  fetch('${api}/documents', { method: 'POST', mode: 'no-cors', body: form }).finally(done);
  fetch('${api}/auth/keys', { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' },
    body: JSON.stringify({ name: 'planted-admin', role: 'admin' }) }).finally(done);
</script></body></html>`;
}
