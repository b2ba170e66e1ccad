import { DocumentLanguage } from './document-language';

/** The text fields of POST /documents (multipart), beside the files. */
export class UploadDocumentsDto {
  @DocumentLanguage()
  language?: string;
}
