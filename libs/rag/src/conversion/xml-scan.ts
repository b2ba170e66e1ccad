/**
 * Linear scans over OOXML parts, with indexOf instead of backtracking patterns: each step moves the
 * cursor forward, so a hostile part costs time in proportion to its length.
 */

export interface XmlElement {
  /** Qualified name, e.g. `w:style`. */
  name: string;
  attributes: Map<string, string>;
  /** Offset just after the start tag. */
  end: number;
  selfClosing: boolean;
}

/** The deepest element nesting of an XML part (comments, CDATA and declarations skipped). */
export function xmlDepth(xml: string, limit: number): number {
  let depth = 0;
  let deepest = 0;
  let at = xml.indexOf('<');
  while (at !== -1) {
    const next = xml[at + 1];
    let close: number;
    if (xml.startsWith('<!--', at)) close = endOf(xml, '-->', at);
    else if (xml.startsWith('<![CDATA[', at)) close = endOf(xml, ']]>', at);
    else if (next === '?' || next === '!') close = endOf(xml, '>', at);
    else {
      close = endOf(xml, '>', at);
      if (close === -1) break;
      if (next === '/') depth--;
      else if (xml[close - 2] !== '/') {
        depth++;
        if (depth > deepest) deepest = depth;
        if (deepest > limit) return deepest;
      }
    }
    if (close === -1) break;
    at = xml.indexOf('<', close);
  }
  return deepest;
}

function endOf(xml: string, token: string, from: number): number {
  const found = xml.indexOf(token, from + 1);
  return found === -1 ? -1 : found + token.length;
}

/** Start tags named `name`, in order. */
export function* startTags(xml: string, name: string): Generator<XmlElement> {
  const open = `<${name}`;
  let at = xml.indexOf(open);
  while (at !== -1) {
    const after = xml[at + open.length];
    const close = xml.indexOf('>', at);
    if (close === -1) return;
    if (
      after === ' ' ||
      after === '>' ||
      after === '/' ||
      after === '\t' ||
      after === '\n' ||
      after === '\r'
    ) {
      const body = xml.slice(at + open.length, xml[close - 1] === '/' ? close - 1 : close);
      yield { name, attributes: parseAttributes(body), end: close + 1, selfClosing: xml[close - 1] === '/' };
    }
    at = xml.indexOf(open, close + 1);
  }
}

/** `a="1" b='2'` → Map; entities decoded. */
function parseAttributes(body: string): Map<string, string> {
  const attributes = new Map<string, string>();
  let at = 0;
  while (at < body.length) {
    const equals = body.indexOf('=', at);
    if (equals === -1) break;
    const key = body.slice(at, equals).trim();
    const quote = body[equals + 1];
    if (quote !== '"' && quote !== "'") break;
    const end = body.indexOf(quote, equals + 2);
    if (end === -1) break;
    attributes.set(key, decodeXmlEntities(body.slice(equals + 2, end)));
    at = end + 1;
  }
  return attributes;
}

/** The text between `<name …>` and `</name>` of the first such element, entities decoded; null when absent. */
export function elementText(xml: string, name: string): string | null {
  for (const element of startTags(xml, name)) {
    if (element.selfClosing) return '';
    const end = xml.indexOf(`</${name}>`, element.end);
    if (end === -1) return null;
    return decodeXmlEntities(xml.slice(element.end, end).replace(/<[^>]{0,1000}>/g, ''));
  }
  return null;
}

export function decodeXmlEntities(text: string): string {
  return text.replace(
    /&(?:#x([0-9a-f]{1,6})|#(\d{1,7})|(amp|lt|gt|quot|apos));/gi,
    (match, hex, dec, named) => {
      if (hex) return safeCodePoint(parseInt(hex, 16), match);
      if (dec) return safeCodePoint(parseInt(dec, 10), match);
      return { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }[(named as string).toLowerCase()] ?? match;
    },
  );
}

function safeCodePoint(code: number, fallback: string): string {
  return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : fallback;
}
