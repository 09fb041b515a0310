import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Worker } from 'tesseract.js';
import { ExtractionError, reason } from './errors.js';
import { tidy } from './tidy.js';

// One worker for the whole process: starting one costs ~1 s and ~100 MB, recognising a page ~0.5 s.
let workerPromise: Promise<Worker> | undefined;
// Jobs go one at a time so a burst of scanned files cannot pile several page images into memory.
let queue: Promise<unknown> = Promise.resolve();

function langPath(): string {
  // The data package's own `langPath` points at the larger 4.0.0 model; best_int is faster.
  const pkg = createRequire(import.meta.url).resolve('@tesseract.js-data/eng/package.json');
  return join(dirname(pkg), '4.0.0_best_int');
}

async function startWorker(): Promise<Worker> {
  const { createWorker } = await import('tesseract.js');
  return createWorker('eng', 1, {
    langPath: langPath(),
    gzip: true,
    // The default writes eng.traineddata into the cwd.
    cacheMethod: 'none',
    // Without a handler a failed job throws inside tesseract's message listener and kills the
    // process; the job's own promise still rejects, which is where we handle it.
    errorHandler: () => {},
  });
}

function worker(): Promise<Worker> {
  workerPromise ??= startWorker().catch((err: unknown) => {
    workerPromise = undefined;
    // kct's single-file executable leaves tesseract.js out (scripts/build-exe.js): say what works instead
    const notEmbedded = (err as { code?: unknown } | null)?.code === 'KCT_NOT_IN_EXE';
    throw new ExtractionError(
      notEmbedded
        ? 'The single-file executable of kct has no OCR engine, so text in images and scanned pages cannot be read: send the answer as a PDF with text, DOCX, RTF or TXT, or run kct sandbox from the npm package, which reads them.'
        : `The OCR engine could not start (${reason(err)}).`,
      { cause: err },
    );
  });
  return workerPromise;
}

/** Time spent on one file's OCR, added to by every job run for it (time waiting in the queue excluded). */
export interface OcrClock {
  spentMs: number;
}

/**
 * Text of an encoded image (PNG, JPEG, WebP, GIF, BMP): tesseract's Leptonica decodes them all.
 * The job's own time, not its wait behind other files' jobs, is added to `clock`.
 */
export function ocrImage(image: Buffer | Uint8Array, clock?: OcrClock): Promise<string> {
  const job = queue.then(async () => {
    const started = performance.now();
    try {
      const w = await worker();
      const { data } = await w.recognize(Buffer.from(image.buffer, image.byteOffset, image.byteLength));
      return tidy(data.text);
    } catch (err) {
      if (err instanceof ExtractionError) throw err;
      throw new ExtractionError(`The image could not be read by OCR (${reason(err)}); is it a valid image file?`, { cause: err });
    } finally {
      if (clock) clock.spentMs += performance.now() - started;
    }
  });
  queue = job.catch(() => undefined);
  return job;
}

export async function closeOcr(): Promise<void> {
  const pending = workerPromise;
  workerPromise = undefined;
  if (!pending) return;
  const w = await pending.catch(() => undefined);
  await w?.terminate();
}
