import { mkdirSync } from 'node:fs';
import { copyFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Injectable } from '@nestjs/common';
import { InjectConfig } from '../../../config/app-config';
import type { Env } from '../../../config/env.schema';
import type { SourceFormat } from './supported-formats';

/**
 * The files waiting for a worker, under UPLOAD_DIR (a folder every worker process can read):
 * `incoming/` while a request streams in, then `documents/<document id>.<format>` until the document is
 * indexed (or fails, or is deleted). A job's payload names the document, never the file's contents.
 */
@Injectable()
export class UploadStore {
  readonly root: string;
  readonly incomingDir: string;
  private readonly documentsDir: string;

  constructor(@InjectConfig() env: Env) {
    this.root = resolve(env.UPLOAD_DIR);
    this.incomingDir = join(this.root, 'incoming');
    this.documentsDir = join(this.root, 'documents');
    mkdirSync(this.incomingDir, { recursive: true });
    mkdirSync(this.documentsDir, { recursive: true });
  }

  documentPath(documentId: string, format: SourceFormat): string {
    return join(this.documentsDir, `${documentId}.${format}`);
  }

  /** Move a streamed upload into place as the document's file (replacing an older copy). */
  async adopt(incomingPath: string, documentId: string, format: SourceFormat): Promise<void> {
    const target = this.documentPath(documentId, format);
    try {
      await rename(incomingPath, target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
      await copyFile(incomingPath, target);
      await rm(incomingPath, { force: true });
    }
  }

  async write(documentId: string, format: SourceFormat, content: string | Buffer): Promise<void> {
    await writeFile(this.documentPath(documentId, format), content);
  }

  async exists(documentId: string, format: SourceFormat): Promise<boolean> {
    try {
      return (await stat(this.documentPath(documentId, format))).isFile();
    } catch {
      return false;
    }
  }

  /** Remove a document's file; a file already gone is fine. */
  async remove(documentId: string, format: SourceFormat): Promise<void> {
    await rm(this.documentPath(documentId, format), { force: true });
  }

  async discard(incomingPath: string): Promise<void> {
    await rm(incomingPath, { force: true });
  }
}
