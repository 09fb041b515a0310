import { extractText, closeExtractors } from './dist/sandbox/extract/index.js';
const [file, mime] = process.argv.slice(2);
const r = await extractText(file, mime);
console.log('--- TEXT ---\n' + r.text + '\n--- BODY ---\n' + r.body + '\n--- ' + r.method);
await closeExtractors();
