import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import type { Json } from './helpers/http';
import { ScriptedOpenAiServer } from '@lumina/testing-llm';
import { startTestApp } from './helpers/test-app';
import type { TestApp } from './helpers/test-app';
import { testEnv } from './helpers/test-env';
import { getJson, postJson, waitForStatus } from './fixtures/ingestion/ingestion-client';

const SUPER_BOWL_ZH =
  '第50届超级碗是一场美式橄榄球比赛，旨在决出2015赛季国家橄榄球联盟的冠军。美国橄榄球联会冠军丹佛野马队以24比10击败' +
  '国家橄榄球联会冠军卡罗莱纳黑豹队，赢得了第三个超级碗冠军。比赛于2016年2月7日在加利福尼亚州圣克拉拉的李维斯体育场举行。';
const RHINE_ZH =
  '莱茵河是一条欧洲河流，发源于瑞士阿尔卑斯山东南部的格劳宾登州，流经德国，最后在荷兰注入北海。莱茵河是欧洲最长的河流之一，' +
  '全长约1230公里。';
const FAILOVER_EN =
  'Failover runbook. Promote the standby replica when the primary database stops answering, then repoint ' +
  'the writers to the new primary and rebuild the old one as a standby.';
const SUPER_BOWL_EN =
  'Super Bowl 50 was an American football game to determine the champion of the National Football League ' +
  'for the 2015 season. The Denver Broncos defeated the Carolina Panthers 24 to 10.';
const DE_TEXT = 'Die Läufer liefen bei Regen durch den Park und erreichten das Ziel nach zwei Stunden.';

describe('search in the language of the documents (embedded PGlite, real Redis, local embedder)', () => {
  const uploadDir = mkdtempSync(join(tmpdir(), 'lumina-languages-'));
  let server: TestApp;
  const ids: Record<string, string> = {};

  const addText = async (title: string, text: string, language?: string): Promise<string> => {
    const { status, body } = await postJson(`${server.baseUrl}/documents/text`, { title, text, language });
    expect(status).toBe(202);
    await waitForStatus(server.baseUrl, body.id, ['indexed']);
    return body.id as string;
  };
  const search = (query: string, settings: Json = {}): Promise<{ status: number; body: Json }> =>
    postJson(`${server.baseUrl}/rag/search`, { query, settings });

  beforeAll(async () => {
    server = await startTestApp(testEnv({ UPLOAD_DIR: uploadDir }));
    ids.superBowl = await addText('超级碗', SUPER_BOWL_ZH);
    ids.rhine = await addText('莱茵河', RHINE_ZH);
    ids.failover = await addText('Failover', FAILOVER_EN);
    ids.laufen = await addText('Lauf', DE_TEXT, 'DE');
  });

  afterAll(async () => {
    await server.close();
    rmSync(uploadDir, { recursive: true, force: true });
  });

  it('detects each document language, or keeps the one given at upload', async () => {
    const languages = await Promise.all(
      [ids.superBowl, ids.rhine, ids.failover, ids.laufen].map(
        async (id) => (await getJson(`${server.baseUrl}/documents/${id}`)).body.language,
      ),
    );
    expect(languages).toEqual(['zh', 'zh', 'en', 'de']);
    const chunks: { text_config: string; lexical_text: string | null; tsv: string }[] = await server.app
      .get(DataSource)
      .query(`SELECT text_config::text, lexical_text, tsv::text FROM chunks WHERE document_id = $1`, [
        ids.superBowl,
      ]);
    expect(chunks.length).toBeGreaterThan(0);
    expect(chunks[0].text_config).toBe('simple');
    expect(chunks[0].lexical_text).toMatch(/超级 碗/);
    expect(chunks[0].tsv).toContain("'超级'");
    const [german] = await server.app
      .get(DataSource)
      .query(`SELECT text_config::text, tsv::text FROM chunks WHERE document_id = $1`, [ids.laufen]);
    expect(german.text_config).toBe('german');
    expect(german.tsv).toContain("'lauf'");
  });

  it('finds the Chinese passage for a Chinese question, in the question language', async () => {
    const { status, body } = await search('谁赢得了第50届超级碗？', { topK: 3 });
    expect(status).toBe(200);
    expect(body.language).toBe('zh');
    expect(body.results[0].documentId).toBe(ids.superBowl);
    expect(body.results[0].provenance[0]).toEqual(
      expect.objectContaining({ branch: 'original:bm25', rank: 1 }),
    );
    expect(body.warnings).toEqual([]);

    const rhine = await search('莱茵河有多长？', { topK: 3 });
    expect(rhine.body.results[0].documentId).toBe(ids.rhine);
  });

  it('finds the German document for a German question, and the English one for an inflected English question', async () => {
    const german = await search('Wann erreichte der Läufer das Ziel?', { topK: 1 });
    expect(german.body.results[0].documentId).toBe(ids.laufen);
    const english = await search('promoting replicas', { topK: 1 });
    expect(english.body.results[0].documentId).toBe(ids.failover);
  });

  it('says plainly that a question in a language no document is in needs a multilingual embedder', async () => {
    const { status, body } = await search('Кто выиграл Суперкубок в этом году?');
    expect(status).toBe(200);
    expect(body.language).toBe('ru');
    expect(body.warnings).toEqual([expect.stringMatching(/needs a multilingual embedder/)]);
  });

  it.each([
    ['an unknown language code', { language: 'xx' }],
    ['a language that is not a string', { language: 7 }],
  ])('answers 400 to %s at upload', async (_, extra) => {
    const { status, body } = await postJson(`${server.baseUrl}/documents/text`, {
      title: 'T',
      text: 'Some text.',
      ...extra,
    });
    expect(status).toBe(400);
    expect(JSON.stringify(body.message)).toMatch(/language must be an ISO 639-1 code/);
  });

  it('takes the language field of a multipart upload, and refuses an unknown one', async () => {
    const form = (language: string): FormData => {
      const data = new FormData();
      data.append('language', language);
      data.append(
        'files',
        new Blob([`${RHINE_ZH} ${language}`], { type: 'text/plain' }),
        `rhine-${language}.txt`,
      );
      return data;
    };
    // Local mode: a keyless multipart upload carries the client header, as the web app's do.
    const headers = { 'x-lumina-client': 'test' };
    const bad = await fetch(`${server.baseUrl}/documents`, {
      method: 'POST',
      headers,
      body: form('klingon'),
    });
    expect(bad.status).toBe(400);
    const good = await fetch(`${server.baseUrl}/documents`, { method: 'POST', headers, body: form('ja') });
    expect(good.status).toBe(202);
    const [document] = ((await good.json()) as Json).documents;
    const indexed = await waitForStatus(server.baseUrl, document.id, ['indexed']);
    expect(indexed.language).toBe('ja');
  });
});

describe('cross-lingual search through a multilingual embedder on the dense branch (scripted endpoint)', () => {
  const uploadDir = mkdtempSync(join(tmpdir(), 'lumina-crosslingual-'));
  let openai: ScriptedOpenAiServer;
  let server: TestApp;
  const ids: Record<string, string> = {};

  // A stand-in for a multilingual model: the same concept in any language gets the same vector.
  const concept = (text: string): number[] =>
    /超级碗|Super Bowl/i.test(text)
      ? [1, 0, 0, 0]
      : /故障|failover|replica/i.test(text)
        ? [0, 1, 0, 0]
        : [0, 0, 0, 1];

  beforeAll(async () => {
    openai = await ScriptedOpenAiServer.start();
    openai.on((request) => {
      if (!request.path.endsWith('/embeddings')) return null;
      const input = request.body.input;
      const texts = (Array.isArray(input) ? input : [input]).map(String);
      return {
        json: {
          object: 'list',
          model: request.body.model,
          data: texts.map((text, index) => ({ object: 'embedding', index, embedding: concept(text) })),
          usage: { prompt_tokens: 1, total_tokens: 1 },
        },
      };
    });
    server = await startTestApp(
      testEnv({
        UPLOAD_DIR: uploadDir,
        EMBEDDINGS_PROVIDER: 'openai',
        EMBEDDINGS_BASE_URL: openai.baseUrl,
        EMBEDDINGS_MODEL: 'scripted-multilingual',
        EMBEDDINGS_DIMENSIONS: '4',
      }),
    );
    for (const [key, title, text] of [
      ['superBowl', 'Super Bowl 50', SUPER_BOWL_EN],
      ['failover', 'Failover', FAILOVER_EN],
    ] as const) {
      const { body } = await postJson(`${server.baseUrl}/documents/text`, { title, text });
      await waitForStatus(server.baseUrl, body.id, ['indexed']);
      ids[key] = body.id as string;
    }
  });

  afterAll(async () => {
    await server.close();
    await openai.close();
    rmSync(uploadDir, { recursive: true, force: true });
  });

  it('finds the English passage for a Chinese question through the dense branch', async () => {
    const { status, body } = await postJson(`${server.baseUrl}/rag/search`, {
      query: '谁赢得了超级碗？',
      settings: { ranker: 'hybrid', topK: 2 },
    });
    expect(status).toBe(200);
    expect(body.language).toBe('zh');
    expect(body.results[0].documentId).toBe(ids.superBowl);
    const branches = body.results[0].provenance.map((p: Json) => p.branch);
    expect(branches).toEqual(['original:dense']);
    expect(body.warnings).toEqual([]);
    const embedded = openai.requests.filter((r) => r.path.endsWith('/embeddings'));
    expect(embedded.some((r) => JSON.stringify(r.body.input).includes('谁赢得了超级碗'))).toBe(true);
  });

  it('warns that BM25 alone cannot cross languages', async () => {
    const { body } = await postJson(`${server.baseUrl}/rag/search`, {
      query: '谁赢得了超级碗？',
      settings: { ranker: 'bm25' },
    });
    expect(body.results).toEqual([]);
    expect(body.warnings).toEqual([expect.stringMatching(/needs a multilingual embedder/)]);
  });
});
