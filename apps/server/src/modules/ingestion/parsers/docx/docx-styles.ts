import { decodeXmlEntities, startTags } from '@lumina/rag';

/**
 * Names that mean "heading n" in the languages Word ships in: a custom style named "Titre 2" or
 * "Überschrift 3" is a heading as much as the built-in "Heading 2".
 */
const HEADING_NAME =
  /^(?:heading|titre|t[íi]tulo|titolo|[üu]berschrift|kop|rubrik|overskrift|otsikko|nag[łl][óo]wek|nadpis|c[íi]msor|заголовок|标题|標題|見出し|제목)\s*([1-9])$/iu;

export interface HeadingStyle {
  styleId: string;
  level: number;
}

/**
 * The paragraph styles of word/styles.xml that are headings: by name (any language above) or by the
 * outline level Word's navigation pane uses (`w:outlineLvl` 0–5). "Title" becomes a level-1 heading.
 */
export function headingStyles(stylesXml: string): HeadingStyle[] {
  const found: HeadingStyle[] = [];
  for (const style of startTags(stylesXml, 'w:style')) {
    if (style.attributes.get('w:type') !== 'paragraph' || style.selfClosing) continue;
    const styleId = style.attributes.get('w:styleId');
    if (!styleId) continue;
    const end = stylesXml.indexOf('</w:style>', style.end);
    const body = stylesXml.slice(style.end, end === -1 ? stylesXml.length : end);
    const name = firstValue(body, 'w:name')?.trim() ?? '';
    const outline = Number(firstValue(body, 'w:outlineLvl'));
    const byName = HEADING_NAME.exec(name);
    let level: number | null = null;
    if (byName) level = Number(byName[1]);
    else if (/^title$/i.test(name)) level = 1;
    else if (Number.isInteger(outline) && outline >= 0 && outline <= 5) level = outline + 1;
    if (level !== null) found.push({ styleId, level: Math.min(level, 6) });
  }
  return found;
}

function firstValue(xml: string, name: string): string | undefined {
  for (const element of startTags(xml, name)) return element.attributes.get('w:val');
  return undefined;
}

/** mammoth's style map lines for those styles (ids that need quoting are left to mammoth's defaults). */
export function headingStyleMap(styles: HeadingStyle[]): string[] {
  return styles
    .filter(({ styleId }) => /^[A-Za-z0-9_-]+$/.test(styleId))
    .map(({ styleId, level }) => `p.${styleId} => h${level}:fresh`);
}

/** dc:title of docProps/core.xml, whitespace collapsed; '' without one. */
export function coreTitle(coreXml: string): string {
  const open = coreXml.indexOf('<dc:title');
  if (open === -1) return '';
  const start = coreXml.indexOf('>', open);
  if (start === -1 || coreXml[start - 1] === '/') return '';
  const end = coreXml.indexOf('</dc:title>', start);
  if (end === -1) return '';
  return decodeXmlEntities(coreXml.slice(start + 1, end))
    .replace(/\s+/g, ' ')
    .trim();
}
