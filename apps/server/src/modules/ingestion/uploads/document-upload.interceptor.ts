import { HttpException, Injectable } from '@nestjs/common';
import type { CallHandler, ExecutionContext, NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import multer from 'multer';
import type { Observable } from 'rxjs';
import { catchError, from, mergeMap, throwError } from 'rxjs';
import { InjectConfig } from '../../../config/app-config';
import type { Env } from '../../../config/env.schema';
import {
  DomainError,
  InvalidRequestError,
  TooLargeError,
  UnsupportedError,
} from '../../../common/errors/domain-errors';
import { formatBytes } from './format-bytes';
import { HashingDiskStorage } from './hashing-disk-storage';
import type { StoredFile } from './hashing-disk-storage';
import { detectUploadFormat, unsupportedFormatMessage } from './supported-formats';
import { UploadStore } from './upload-store';

class UnsupportedFormatError extends Error {}

/**
 * Streams a multipart upload to UPLOAD_DIR/incoming (never whole in memory), enforcing the per-file size
 * limit (413), the file count (413) and the supported types (415) as the parts arrive; nothing is kept
 * from a refused request. Whatever the handler did not move into place is removed when it finishes.
 */
@Injectable()
export class DocumentUploadInterceptor implements NestInterceptor {
  private readonly storage: HashingDiskStorage;

  constructor(
    @InjectConfig() private readonly env: Env,
    private readonly store: UploadStore,
  ) {
    this.storage = new HashingDiskStorage(store.incomingDir);
  }

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const request = context.switchToHttp().getRequest<Request>();
    const response = context.switchToHttp().getResponse<Response>();
    if (!request.is('multipart/form-data')) {
      throw new UnsupportedError(
        'Send the documents as multipart/form-data, one or more parts named "files".',
      );
    }
    const encoding = String(request.headers['content-encoding'] ?? 'identity')
      .trim()
      .toLowerCase();
    if (encoding !== 'identity') {
      // The multipart reader does not decompress: a compressed (or mislabelled) body would be misread.
      throw new UnsupportedError(
        `Send uploads without a Content-Encoding (got "${encoding.slice(0, 40)}"): the files may be compressed, the request may not.`,
      );
    }
    await this.receive(request, response);
    const files = (request.files as StoredFile[] | undefined) ?? [];
    // Files the handler adopted were moved away; removing the incoming path is then a no-op. The
    // answer (a success or a refusal) leaves only once the rest are gone, so nothing outlives it.
    const discard = (): Promise<unknown> =>
      Promise.all(files.map((file) => this.store.discard(file.path))).catch(() => undefined);
    return next.handle().pipe(
      mergeMap(async (value: unknown) => {
        await discard();
        return value;
      }),
      catchError((error: unknown) => from(discard()).pipe(mergeMap(() => throwError(() => error)))),
    );
  }

  private receive(request: Request, response: Response): Promise<void> {
    const upload = multer({
      storage: this.storage,
      // Browsers and curl send a file name's UTF-8 bytes as they are (café.txt, not caf%C3%A9.txt).
      defParamCharset: 'utf8',
      limits: {
        fileSize: this.env.UPLOAD_MAX_BYTES,
        files: this.env.UPLOAD_MAX_FILES,
        fields: 50,
        fieldSize: 64 * 1024,
      },
      fileFilter: (_request, file, accept) => {
        if (detectUploadFormat(file.originalname, file.mimetype)) return accept(null, true);
        accept(new UnsupportedFormatError(unsupportedFormatMessage(file.originalname)));
      },
    }).any();
    return new Promise((resolve, reject) => {
      upload(request, response, (error?: unknown) => (error ? reject(this.translate(error)) : resolve()));
    });
  }

  private translate(error: unknown): DomainError | HttpException {
    if (error instanceof UnsupportedFormatError) return new UnsupportedError(error.message);
    if (error instanceof multer.MulterError) {
      const name = (error as multer.MulterError & { filename?: string }).filename;
      switch (error.code) {
        case 'LIMIT_FILE_SIZE':
          return new TooLargeError(
            `${name ? `"${name}"` : 'A file'} is larger than the upload limit of ` +
              `${formatBytes(this.env.UPLOAD_MAX_BYTES)} per file (UPLOAD_MAX_BYTES). Nothing was stored.`,
          );
        case 'LIMIT_FILE_COUNT':
          return new TooLargeError(
            `At most ${this.env.UPLOAD_MAX_FILES} files can be sent in one upload (UPLOAD_MAX_FILES). ` +
              'Nothing was stored.',
          );
        default:
          return new InvalidRequestError(`The upload could not be read: ${error.message}.`);
      }
    }
    if (error instanceof DomainError || error instanceof HttpException) return error;
    return new InvalidRequestError(
      `The upload was interrupted or is not valid multipart/form-data: ${(error as Error).message}.`,
    );
  }
}
