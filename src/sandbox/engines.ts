// The text-extraction and grading engines the sandbox consumes, imported in one place so the
// rest of the sandbox depends on this contract rather than on where the engines live.
export { extractText, closeExtractors, ExtractionError } from './extract/index.js';
export { grade, creditCost, rubricsFromText } from './grader.js';
export type { GradeRubric, GradeInput, GradeOutput } from './grader.js';
