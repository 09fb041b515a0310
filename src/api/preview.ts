// The two ingest previews (spec 4.4 questions, 4.5 rubrics), named once for the CLI's preview
// files and the sandbox's parser.

export type PreviewKind = 'questions' | 'rubrics';
