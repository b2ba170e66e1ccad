import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import type { WebsiteSourceConfig } from '@lumina/shared';
import { UPLOAD_FORMATS } from '../../ingestion/uploads/supported-formats';
import type { UploadFormat } from '../../ingestion/uploads/supported-formats';
import type { SourceItemRow } from '../repositories/source.repository';
import { RefusedRequestError, safeGet } from './safe-http';
import type { HttpAnswer } from './safe-http';
import type { ListedItem, SourceListing } from './source-listing';
import { SourceUnavailableError } from './source-listing';

export interface WebsiteReaderOptions {
  allowedHosts: readonly string[];
  pageTimeoutMs: number;
  crawlTimeoutMs: number;
  maxBytes: number;
}

const MAX_REDIRECTS = 5;
/** Formats a page may have, by the media type it is served with. */
const FORMAT_BY_TYPE = new Map<string, UploadFormat>(
  UPLOAD_FORMATS.filter((format) => !format.corpus).flatMap((format) =>
    format.mimeTypes.map((type) => [type, format] as const),
  ),
);

/**
 * Crawls a website breadth-first from its start page (or the pages its sitemap lists), taking only URLs
 * under the prefix that robots.txt allows, at most `maxPages` pages and `maxDepth` links deep, at most
 * `requestsPerSecond` requests a second. Each page is asked for with the ETag and Last-Modified the last
 * sync stored: a 304 costs nothing, and its links (stored too) keep the crawl going. Redirects are
 * followed one by one, each target checked against the prefix, robots.txt and the address rules again.
 * A page that answers 404 or 410, or is no longer reached, is removed; one that fails otherwise (5xx, a
 * timeout, a refused redirect) is reported and kept as it was.
 */
export async function listWebsite(
  config: WebsiteSourceConfig,
  items: ReadonlyMap<string, SourceItemRow>,
  options: WebsiteReaderOptions,
): Promise<SourceListing> {
  const start = new URL(config.startUrl);
  const prefix = config.prefix ?? new URL('.', start).href;
  const maxPages = config.maxPages ?? 200;
  const maxDepth = config.maxDepth ?? 5;
  const interval = 1000 / (config.requestsPerSecond ?? 2);
  const deadline = Date.now() + options.crawlTimeoutMs;
  let last = 0;
  const get = async (url: URL, headers: Record<string, string> = {}): Promise<HttpAnswer> => {
    if (Date.now() > deadline) {
      throw new SourceUnavailableError(
        `The crawl took longer than ${Math.round(options.crawlTimeoutMs / 1000)} s (SOURCE_CRAWL_TIMEOUT_SECONDS); nothing was changed.`,
      );
    }
    const wait = last + interval - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    last = Date.now();
    return safeGet(url, {
      allowedHosts: options.allowedHosts,
      timeoutMs: options.pageTimeoutMs,
      maxBytes: options.maxBytes,
      headers,
    });
  };

  const robots = await readRobots(new URL('/robots.txt', start), get);
  const takes = (url: URL) => url.href.startsWith(prefix) && robots(url.pathname + url.search);

  let frontier: string[] = [];
  if (/\.xml$/i.test(start.pathname)) {
    frontier = await readSitemap(start, get);
  } else {
    frontier = [start.href];
  }
  const seen = new Set<string>();
  const listed: ListedItem[] = [];
  const failures: { item: string; reason: string }[] = [];
  for (let depth = 0; depth <= maxDepth && frontier.length > 0; depth++) {
    const next: string[] = [];
    for (const raw of frontier) {
      if (listed.length + failures.length >= maxPages) break;
      const url = normalise(raw);
      if (!url || seen.has(url.href) || !takes(url)) continue;
      seen.add(url.href);
      try {
        const page = await fetchPage(url, items, get, takes, seen);
        if (page === null) continue; // gone (404, 410) or not a document
        listed.push(page);
        if (depth < maxDepth) next.push(...(page.links ?? []));
      } catch (error) {
        if (error instanceof SourceUnavailableError) throw error;
        failures.push({ item: url.href, reason: (error as Error).message });
      }
    }
    frontier = next;
  }
  return { cursor: null, mode: 'full', items: listed, deleted: [], renamed: [], failures };
}

/** One page, redirects followed and re-checked; null when it is gone or not a document. */
async function fetchPage(
  requested: URL,
  items: ReadonlyMap<string, SourceItemRow>,
  get: (url: URL, headers?: Record<string, string>) => Promise<HttpAnswer>,
  takes: (url: URL) => boolean,
  seen: Set<string>,
): Promise<ListedItem | null> {
  let url = requested;
  const chain = new Set([requested.href]);
  for (let hop = 0; ; hop++) {
    const known = items.get(url.href);
    const headers: Record<string, string> = {};
    if (known?.content_hash && known.etag) headers['if-none-match'] = known.etag;
    if (known?.content_hash && known.last_modified) headers['if-modified-since'] = known.last_modified;
    const answer = await get(url, headers);
    if (answer.status >= 300 && answer.status < 400 && answer.status !== 304) {
      const location = answer.headers.location;
      if (!location) throw new Error(`answered ${answer.status} without a Location`);
      const target = normalise(new URL(location, url).href);
      if (!target || !takes(target)) {
        throw new RefusedRequestError(
          `redirects to ${location}, outside the source's prefix or robots.txt rules`,
        );
      }
      if (chain.has(target.href)) throw new Error(`redirects in a loop (back to ${target.href})`);
      if (hop >= MAX_REDIRECTS) throw new Error(`more than ${MAX_REDIRECTS} redirects`);
      if (seen.has(target.href)) return null; // the page was reached another way
      chain.add(target.href);
      seen.add(target.href);
      url = target;
      continue;
    }
    if (answer.status === 304 && known) {
      return {
        key: url.href,
        fingerprint: known.fingerprint ?? '',
        size: null,
        read: () => Promise.reject(new Error('a 304 page has no body to read')),
        commit: null,
        link: url.href,
        links: known.links ?? [],
        etag: known.etag,
        lastModified: known.last_modified,
      };
    }
    if (answer.status === 404 || answer.status === 410) return null;
    if (answer.status !== 200) throw new Error(`answered ${answer.status}`);
    const type = String(answer.headers['content-type'] ?? '')
      .split(';')[0]!
      .trim()
      .toLowerCase();
    const format = FORMAT_BY_TYPE.get(type);
    if (!format) return null;
    const etag = header(answer, 'etag');
    const lastModified = header(answer, 'last-modified');
    const body = answer.body;
    const digest = createHash('sha256').update(body).digest('hex');
    return {
      key: url.href,
      // The body's hash, so a server without validators still costs no parse when nothing changed.
      fingerprint: digest,
      size: body.length,
      read: () => Promise.resolve(body),
      commit: null,
      link: url.href,
      format,
      name: pageName(url),
      links: format.kind === 'html' ? linksOf(body.toString('utf8'), url) : [],
      etag,
      lastModified,
    };
  }
}

function header(answer: HttpAnswer, name: string): string | null {
  const value = answer.headers[name];
  return typeof value === 'string' && value ? value : null;
}

/** The URL without its fragment; null when it is not http(s). */
function normalise(raw: string): URL | null {
  try {
    const url = new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    url.hash = '';
    return url;
  } catch {
    return null;
  }
}

/** A page's file-like name: its last path segment, or the host for the root. */
function pageName(url: URL): string {
  return decodeURIComponent(posix.basename(url.pathname)) || url.hostname;
}

/** The absolute URLs of a page's links (`<a href>`). */
function linksOf(html: string, base: URL): string[] {
  const links = new Set<string>();
  for (const match of html.matchAll(/<a\s[^>]*?href\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi)) {
    const href = (match[1] ?? match[2] ?? match[3] ?? '').replace(/&amp;/g, '&').trim();
    if (!href || href.startsWith('#') || /^(mailto|javascript|tel):/i.test(href)) continue;
    const url = normalise(new URL(href, base).href);
    if (url) links.add(url.href);
  }
  return [...links];
}

/**
 * robots.txt's rules for this crawler (the group of user-agent "lumina", else "*"): the longest matching
 * Allow or Disallow wins, `*` matches anything and `$` ends a rule. No robots.txt (404): everything.
 */
async function readRobots(
  url: URL,
  get: (url: URL) => Promise<HttpAnswer>,
): Promise<(path: string) => boolean> {
  let text = '';
  try {
    const answer = await get(url);
    if (answer.status === 200) text = answer.body.toString('utf8');
  } catch (error) {
    if (error instanceof RefusedRequestError)
      throw new SourceUnavailableError(`robots.txt: ${error.message}`);
    throw new SourceUnavailableError(`robots.txt could not be read: ${(error as Error).message}`);
  }
  const groups = new Map<string, { allow: boolean; rule: string }[]>();
  let agents: string[] = [];
  let inRules = false;
  for (const line of text.split(/\r?\n/)) {
    const [field, ...rest] = line.replace(/#.*/, '').split(':');
    const key = field!.trim().toLowerCase();
    const value = rest.join(':').trim();
    if (key === 'user-agent') {
      if (inRules) agents = [];
      inRules = false;
      agents.push(value.toLowerCase());
      for (const agent of agents) if (!groups.has(agent)) groups.set(agent, []);
    } else if (key === 'allow' || key === 'disallow') {
      inRules = true;
      for (const agent of agents) groups.get(agent)!.push({ allow: key === 'allow', rule: value });
    }
  }
  const rules = (groups.get('lumina') ?? groups.get('*') ?? []).filter((r) => r.rule !== '');
  const compiled = rules.map((r) => ({
    ...r,
    re: new RegExp(
      `^${r.rule
        .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
        .replace(/\*/g, '.*')
        .replace(/\\\$$/, '$')}`,
    ),
  }));
  return (path) => {
    let best: { allow: boolean; rule: string } | null = null;
    for (const rule of compiled) {
      if (rule.re.test(path) && (!best || rule.rule.length > best.rule.length)) best = rule;
    }
    return best?.allow ?? true;
  };
}

/** The page URLs of a sitemap, or of the sitemaps a sitemap index lists (one level). */
async function readSitemap(url: URL, get: (url: URL) => Promise<HttpAnswer>): Promise<string[]> {
  const read = async (at: URL): Promise<string> => {
    const answer = await get(at).catch((error: Error) => {
      throw new SourceUnavailableError(`The sitemap ${at.href} could not be read: ${error.message}`);
    });
    if (answer.status !== 200) {
      throw new SourceUnavailableError(`The sitemap ${at.href} answered ${answer.status}.`);
    }
    return answer.body.toString('utf8');
  };
  const locations = (xml: string) =>
    [...xml.matchAll(/<loc>\s*([^<]+?)\s*<\/loc>/gi)].map((m) => m[1]!.replace(/&amp;/g, '&'));
  const xml = await read(url);
  if (!/<sitemapindex/i.test(xml)) return locations(xml);
  const pages: string[] = [];
  for (const child of locations(xml)) pages.push(...locations(await read(new URL(child))));
  return pages;
}
