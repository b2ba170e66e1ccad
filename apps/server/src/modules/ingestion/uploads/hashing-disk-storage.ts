import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Request } from 'express';
import type { StorageEngine } from 'multer';
import { ByteInspector } from './byte-inspector';
import type { ByteFacts } from './byte-inspector';

/** An uploaded file as the storage engine leaves it: on disk, with what was learnt while it streamed. */
export interface StoredFile extends Express.Multer.File {
  facts: ByteFacts;
}

/**
 * A multer storage engine that streams each file to a fresh name in `dir`, hashing it and checking
 * its bytes on the way (nothing is held in memory). multer removes the files again if the request fails.
 */
export class HashingDiskStorage implements StorageEngine {
  constructor(private readonly dir: string) {}

  _handleFile(
    _request: Request,
    file: Express.Multer.File,
    callback: (error?: unknown, info?: Partial<StoredFile>) => void,
  ): void {
    const path = join(this.dir, randomUUID());
    const inspector = new ByteInspector();
    pipeline(
      file.stream,
      async function* inspect(source: AsyncIterable<Buffer>) {
        for await (const chunk of source) {
          inspector.update(chunk);
          yield chunk;
        }
      },
      createWriteStream(path, { flags: 'wx' }),
    ).then(
      () => {
        const facts = inspector.finish();
        callback(null, { path, size: facts.size, facts });
      },
      (error: unknown) => {
        rm(path, { force: true }).then(
          () => callback(error),
          () => callback(error),
        );
      },
    );
  }

  _removeFile(_request: Request, file: Express.Multer.File, callback: (error: Error | null) => void): void {
    rm(file.path, { force: true }).then(
      () => callback(null),
      (error: Error) => callback(error),
    );
  }
}
