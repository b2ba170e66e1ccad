import { cleanHeadingText } from '@lumina/rag';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Characters of the Markdown and HTML a heading path should not hold (links, badges, tags, entities). */
const MARKUP = '[][<>!&]';
/** The same characters for JavaScript (where `[]` opening a class is an empty class). */
const HOLDS_MARKUP = /[[\]<>!&]/;

/**
 * A stored heading path cleaned as headings are now cleaned at ingestion. Only a part holding markup
 * characters is read (the others were cleaned once already); a part that would be empty is kept.
 */
function cleanPath(path: readonly string[]): string[] {
  return path.map((part) => (HOLDS_MARKUP.test(part) ? cleanHeadingText(part) || part : part));
}

const same = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((part, i) => part === b[i]);

/**
 * Heading paths stored before headings were cleaned like titles ("Prometheus client for node.js
 * ![Actions Status](…)", "YAML <a href=…><img …></a>", "pino-http&nbsp;&nbsp;…"): re-cleaned in the
 * chunks and in the citations messages keep, so sources, citation labels and the bank's source picker
 * read them as a person does. Anchors and index text stay as they were indexed. Not reversible (the raw
 * headings are not kept).
 */
export class CleanHeadingPaths1764500130000 implements MigrationInterface {
  name = 'CleanHeadingPaths1764500130000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const paths = (await queryRunner.query(
      `SELECT DISTINCT heading_path FROM chunks WHERE array_to_string(heading_path, ' ') ~ '${MARKUP}'`,
    )) as { heading_path: string[] }[];
    for (const { heading_path: path } of paths) {
      const cleaned = cleanPath(path);
      if (!same(cleaned, path)) {
        await queryRunner.query(`UPDATE chunks SET heading_path = $1 WHERE heading_path = $2`, [
          cleaned,
          path,
        ]);
      }
    }
    const messages = (await queryRunner.query(
      `SELECT id, citations FROM messages
       WHERE EXISTS (
         SELECT 1 FROM jsonb_array_elements(citations) AS c,
           jsonb_array_elements_text(
             CASE WHEN jsonb_typeof(c -> 'headingPath') = 'array' THEN c -> 'headingPath' ELSE '[]'::jsonb END
           ) AS part
         WHERE part ~ '${MARKUP}')`,
    )) as { id: string; citations: { headingPath?: unknown }[] }[];
    for (const message of messages) {
      let changed = false;
      const citations = message.citations.map((citation) => {
        const path = citation.headingPath;
        if (!Array.isArray(path) || !path.every((part) => typeof part === 'string')) return citation;
        const cleaned = cleanPath(path as string[]);
        if (same(cleaned, path as string[])) return citation;
        changed = true;
        return { ...citation, headingPath: cleaned };
      });
      if (changed) {
        await queryRunner.query(`UPDATE messages SET citations = $1::jsonb WHERE id = $2`, [
          JSON.stringify(citations),
          message.id,
        ]);
      }
    }
  }

  async down(): Promise<void> {
    // The raw headings are not kept: nothing to undo.
  }
}
