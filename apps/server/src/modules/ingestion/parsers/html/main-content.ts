import { Readability } from '@mozilla/readability';
import { inlineText } from '@lumina/rag';
import type { DomNode } from '@lumina/rag';
import { parseHTML } from 'linkedom';
import { READABILITY_MAX_DEPTH, READABILITY_MAX_ELEMENTS } from './html-nesting';
import type { HtmlShape } from './html-nesting';

/** Blocks that are never a page's content, whatever their text says. */
const BOILERPLATE_SELECTOR = [
  'nav',
  'aside',
  'footer',
  '[role="navigation"]',
  '[role="complementary"]',
  '[role="contentinfo"]',
  '[role="search"]',
  '[aria-label="breadcrumb" i]',
  '[aria-modal="true"]',
].join(',');

/** Cookie and consent banners, by the ids and classes the common consent tools and themes give them. */
const CONSENT =
  /(?:^|[\s_-])(?:cookies?|consent|gdpr|cookiebanner|cookie-banner|cc-banner|cc-window|onetrust|truste|cmp|privacy-banner)(?:$|[\s_-])/i;

/** Menus, toolbars, search boxes, help pop-ups and sidebars, by the ids and classes themes give them. */
const CHROME =
  /(?:^|[\s_-])(?:nav|navbar|navigation|menu|menu-bar|menubar|toolbar|sidebar|breadcrumbs?|search|searchbar|help|popup|modal|skip-link|skiplink)(?:$|[\s_-])/i;

function inChrome(element: Element): boolean {
  for (let node: Element | null = element.parentElement; node; node = node.parentElement) {
    if (['NAV', 'ASIDE', 'FOOTER', 'HEADER'].includes(node.tagName) && !node.closest('article, main'))
      return true;
    if (CHROME.test(`${node.getAttribute('id') ?? ''} ${node.getAttribute('class') ?? ''}`)) return true;
  }
  return false;
}

/** An element that wraps the article itself (or most of the page's text) is a layout box, not chrome. */
function holdsContent(element: Element, bodyText: number): boolean {
  if (
    element.matches('main, article, [role="main"]') ||
    element.querySelector('main, article, [role="main"]')
  ) {
    return true;
  }
  return (element.textContent ?? '').length > bodyText * 0.4;
}

export interface MainContent {
  /** The element whose children are the page's content. */
  root: DomNode;
  /** `<title>`, whitespace collapsed; '' without one. */
  title: string;
  /** The text of the first `<h1>`; '' without one. */
  firstH1: string;
  /** Where the first `<h1>` pointed (its id), so it can be put back when the extractor took it as the title. */
  firstH1Id: string | null;
  /** Whether the readability extractor chose the content (false: the whole body minus boilerplate). */
  readability: boolean;
}

type Element = ReturnType<typeof parseHTML>['document']['documentElement'];

/**
 * The page's main content: navigation, sidebars, footers and consent banners removed first, then
 * Mozilla's readability extractor picks the article (the same one Firefox's reader view uses) unless the
 * page is too large or too deep for it (READABILITY_MAX_ELEMENTS, READABILITY_MAX_DEPTH). Heading
 * levels and ids are pinned on data attributes beforehand, because the extractor renames h1 to h2 and
 * may fold the section an id sat on.
 */
export function extractMainContent(html: string, shape: HtmlShape): MainContent {
  // linkedom makes a fragment's first element the document element: give a fragment a page around it.
  const page = /<html[\s>]/i.test(html) ? html : `<!doctype html><html><body>${html}</body></html>`;
  const { document } = parseHTML(page);
  const title = (document.querySelector('title')?.textContent ?? '').replace(/\s+/g, ' ').trim();
  // The page's own first <h1>, not a site name in a menu bar.
  const h1 = [...document.querySelectorAll('h1')].find((heading) => !inChrome(heading)) ?? null;
  const firstH1 = h1 ? inlineText(childNodes(h1), true).replace(/\s+/g, ' ').trim() : '';

  for (const heading of document.querySelectorAll('h1, h2, h3, h4, h5, h6')) {
    heading.setAttribute('data-lumina-level', heading.tagName.slice(1));
    const id = anchorOf(heading);
    if (id) heading.setAttribute('data-lumina-id', id);
  }
  // The extractor drops classes, and with them the language of a code block.
  for (const pre of document.querySelectorAll('pre')) {
    const classes = `${pre.getAttribute('class') ?? ''} ${pre.querySelector('code')?.getAttribute('class') ?? ''}`;
    const language = /(?:^|\s)(?:language|lang|highlight-source|highlight)-([\w+#.-]+)/.exec(classes)?.[1];
    if (language) pre.setAttribute('data-lumina-language', language);
  }
  const firstH1Id = h1?.getAttribute('data-lumina-id') ?? null;

  for (const element of document.querySelectorAll(BOILERPLATE_SELECTOR)) element.remove();
  const bodyText = (document.body?.textContent ?? '').length;
  for (const element of document.querySelectorAll('[id], [class]')) {
    if (element.tagName === 'BODY' || element.tagName === 'HTML' || !element.isConnected) continue;
    const marks = `${element.getAttribute('id') ?? ''} ${element.getAttribute('class') ?? ''}`;
    if (CONSENT.test(marks)) element.remove();
    else if (CHROME.test(marks) && !holdsContent(element, bodyText)) element.remove();
  }
  // A site header (logo, menu) outside the article goes; an article's own header holds its title.
  for (const header of document.querySelectorAll('header, [role="banner"]')) {
    if (!header.closest('article, main, [role="main"]') && !header.querySelector('h1')) header.remove();
  }

  const body = (document.body ?? document.documentElement) as unknown as DomNode;
  if (shape.elements <= READABILITY_MAX_ELEMENTS && shape.depth <= READABILITY_MAX_DEPTH) {
    const article = new Readability<DomNode>(
      document as unknown as ConstructorParameters<typeof Readability>[0],
      { charThreshold: 200, serializer: (node) => node as unknown as DomNode },
    ).parse();
    const content = article?.content;
    if (content && (content.textContent ?? '').trim()) {
      return { root: content, title, firstH1, firstH1Id, readability: true };
    }
  }
  return { root: body, title, firstH1, firstH1Id, readability: false };
}

function childNodes(element: Element): DomNode[] {
  return Array.from(element.childNodes) as unknown as DomNode[];
}

/** The id a link to this heading would use: its own, an anchor inside it, or the section it opens. */
function anchorOf(heading: Element): string | null {
  const own = heading.getAttribute('id');
  if (own) return own;
  const inner = heading.querySelector('a[id], a[name]');
  const named = inner?.getAttribute('id') ?? inner?.getAttribute('name');
  if (named) return named;
  const parent = heading.parentElement;
  if (
    parent &&
    (parent.tagName === 'SECTION' || parent.tagName === 'ARTICLE') &&
    parent.firstElementChild === heading
  ) {
    return parent.getAttribute('id');
  }
  return null;
}
