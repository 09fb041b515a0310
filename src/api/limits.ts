// Limits and accepted file types of spec sections 4 and 8, shared by the client's local checks
// and the sandbox's enforcement so the two can never disagree.

export const MAX_FILE_BYTES = 20 * 1024 * 1024;
export const MAX_FILES_PER_REQUEST = 10;
export const MAX_BATCH_ITEMS = 100;

export const POLL_START_MS = 3_000;
export const POLL_MAX_MS = 15_000;

export const MIME = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  rtf: 'application/rtf',
  rtfText: 'text/rtf',
  txt: 'text/plain',
} as const;

/** Answer, question and rubric files of evaluations (4.7, 4.8 rule 3) and uploads (4.14). */
export const ANSWER_MIME_TYPES: readonly string[] = [
  MIME.pdf,
  MIME.png,
  MIME.jpeg,
  MIME.webp,
  MIME.gif,
  MIME.docx,
  MIME.rtf,
  MIME.rtfText,
  MIME.txt,
];
/** @alias Uploads (4.14) take the same files as answers. */
export const UPLOAD_MIME_TYPES = ANSWER_MIME_TYPES;

/**
 * Preview endpoints (4.4, 4.5) list only PDF and images. The sandbox also takes DOCX, RTF and
 * TXT there (the one-pass rules accept them for questions and rubrics); see docs/sandbox.md.
 * @alias
 */
export const PREVIEW_MIME_TYPES = ANSWER_MIME_TYPES;

export const IMAGE_MIME_TYPES: readonly string[] = [MIME.png, MIME.jpeg, MIME.webp, MIME.gif];
