export { htmlToMarkdown, inlineText } from './html-to-markdown';
export type { DomNode, MarkdownConversion, MarkdownHeadingAnchor } from './html-to-markdown';
export { layoutPdf } from './pdf-layout';
export type { PdfHeading, PdfLine, PdfText } from './pdf-layout';
export { protectLine } from './protect-line';
export { decodeXmlEntities, startTags, xmlDepth } from './xml-scan';
export type { XmlElement } from './xml-scan';
