import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { recogniseDownload } from '../../../src/platforms/submissions.js';
import { PROPERTY_SETTINGS } from './fixtures.js';

const summary = (paths: string[]) => {
  const result = recogniseDownload(paths);
  return {
    platform: result.platform,
    students: result.students.map((s) => ({
      id: s.participantId,
      name: s.displayName,
      files: s.files.map((f) => `${f.kind}:${f.originalName}`),
      ...(s.late !== undefined ? { late: s.late } : {}),
    })),
    unmatched: result.unmatched.map((u) => u.path),
  };
};

describe('Moodle downloads', () => {
  test('folders on: one folder per student and plugin; nested files, online text and its images; an empty folder is a student with no files', () => {
    expect(
      summary([
        'Ada Lovelace_101_assignsubmission_file_/Essay final.docx',
        'Ada Lovelace_101_assignsubmission_file_/drafts/v1.docx',
        'Ada Lovelace_101_assignsubmission_onlinetext_/onlinetext.html',
        'Ada Lovelace_101_assignsubmission_onlinetext_/figure 1.png',
        "O'Brien, Seán Jack_102_assignsubmission_onlinetext_/onlinetext.html",
        'Empty Student_103_assignsubmission_file_/',
        '__MACOSX/Ada Lovelace_101_assignsubmission_file_/._Essay final.docx',
      ]),
    ).toEqual({
      platform: 'moodle',
      students: [
        {
          id: '101',
          name: 'Ada Lovelace',
          files: ['file:Essay final.docx', 'file:drafts/v1.docx', 'onlinetext:onlinetext.html', 'file:figure 1.png'],
        },
        { id: '102', name: "O'Brien, Seán Jack", files: ['onlinetext:onlinetext.html'] },
        { id: '103', name: 'Empty Student', files: [] },
      ],
      unmatched: ['__MACOSX/Ada Lovelace_101_assignsubmission_file_/._Essay final.docx'],
    });
  });

  test('folders off: flat files with the prefix, online text as <prefix>_assignsubmission_onlinetext_onlinetext.html', () => {
    expect(
      summary([
        'Ada Lovelace_101_assignsubmission_file_Essay_v2_3_assignsubmission_file_x.docx',
        'Ada Lovelace_101_assignsubmission_onlinetext_onlinetext.html',
        'Grace Hopper_7_assignsubmission_file_notes.txt',
      ]).students,
    ).toEqual([
      { id: '101', name: 'Ada Lovelace', files: ['file:Essay_v2_3_assignsubmission_file_x.docx', 'onlinetext:onlinetext.html'] },
      { id: '7', name: 'Grace Hopper', files: ['file:notes.txt'] },
    ]);
  });

  test('blind marking names every folder "Participant"; the id tells students apart; a wrapper folder is allowed', () => {
    const result = recogniseDownload([
      'submissions/',
      'submissions/Participant_9001_assignsubmission_file_/essay.pdf',
      'submissions/Participant_9002_assignsubmission_file_/essay.pdf',
    ]);
    expect(result.students.map((s) => [s.participantId, s.displayName, s.files[0].path])).toEqual([
      ['9001', 'Participant', 'submissions/Participant_9001_assignsubmission_file_/essay.pdf'],
      ['9002', 'Participant', 'submissions/Participant_9002_assignsubmission_file_/essay.pdf'],
    ]);
    expect(result.unmatched).toEqual([{ path: 'submissions/', reason: "a folder that is not a student's submission folder" }]);
  });
});

describe('Canvas downloads', () => {
  test('<name>_<user id>_<attachment id>_<file>, LATE (or late), text and link entries, anonymous ids', () => {
    const result = recogniseDownload([
      'doejane_301_9001_Essay final_v2.docx',
      'doejane_301_9002_appendix.pdf',
      'ngbo_LATE_302_9003_essay.docx',
      'smith_late_303_9004_essay.docx',
      'okafor_304_text.html',
      'li_305_link.html',
      'LATE_anon_x1y2z_9005_essay.pdf',
      'notes.txt',
    ]);
    expect(result.platform).toBe('canvas');
    expect(
      result.students.map((s) => [
        s.participantId,
        s.displayName,
        s.late,
        s.anonymous ?? false,
        s.files.map((f) => `${f.kind}:${f.originalName}:${f.attachmentId ?? ''}`),
      ]),
    ).toEqual([
      ['301', 'doejane', false, false, ['file:Essay final_v2.docx:9001', 'file:appendix.pdf:9002']],
      ['302', 'ngbo', true, false, ['file:essay.docx:9003']],
      ['303', 'smith', true, false, ['file:essay.docx:9004']],
      ['304', 'okafor', false, false, ['onlinetext:text.html:']],
      ['305', 'li', false, false, ['link:link.html:']],
      ['anon_x1y2z', 'anon_x1y2z', true, true, ['file:essay.pdf:9005']],
    ]);
    expect(result.unmatched).toEqual([{ path: 'notes.txt', reason: 'not named as in a Canvas download' }]);
  });
});

describe('deciding the platform', () => {
  test('neither, when no platform names more than half of the files; every path is then unmatched', () => {
    const result = recogniseDownload(['a.docx', 'b.docx', 'doejane_301_9001_x.docx']);
    expect(result.platform).toBeNull();
    expect(result.counts).toEqual({ moodle: 0, canvas: 1, considered: 3 });
    expect(result.unmatched.map((u) => u.reason)).toEqual(Array(3).fill('not named as in a Moodle or Canvas download'));
  });

  test('a stray file of the other platform is kept, with the reason', () => {
    const result = recogniseDownload([
      'A_1_assignsubmission_file_/x.pdf',
      'B_2_assignsubmission_file_/y.pdf',
      'doejane_301_9001_x.docx',
      '.DS_Store',
    ]);
    expect(result.platform).toBe('moodle');
    expect(result.unmatched).toEqual([
      { path: 'doejane_301_9001_x.docx', reason: 'named as in a Canvas download, but this is a Moodle one' },
      { path: '.DS_Store', reason: 'a system file (macOS or Windows folder metadata), not a submission' },
    ]);
  });

  test("a student folder the zip names only through a system file in it is still that student's, with nothing handed in", () => {
    const result = recogniseDownload([
      'Ann Lee_106_assignsubmission_file_/essay.txt',
      'Tom Lee_107_assignsubmission_file_/Thumbs.db',
      '__MACOSX/Ann Lee_106_assignsubmission_file_/._essay.txt',
    ]);
    expect(result.students.map((s) => [s.participantId, s.files.length])).toEqual([
      ['106', 1],
      ['107', 0],
    ]);
    expect(result.unmatched.map((u) => u.path)).toEqual([
      'Tom Lee_107_assignsubmission_file_/Thumbs.db',
      '__MACOSX/Ann Lee_106_assignsubmission_file_/._essay.txt',
    ]);
  });

  test('an empty download, or one of system files only, is neither', () => {
    expect(recogniseDownload([]).platform).toBeNull();
    expect(recogniseDownload(['__MACOSX/', 'Thumbs.db']).platform).toBeNull();
  });
});

const moodleName = fc.string({ unit: fc.constantFrom('a', 'B', ' ', 'é', "'", ',', '-', '.'), minLength: 1, maxLength: 12 });
const fileName = fc.string({ unit: fc.constantFrom('a', '_', '1', ' ', '.', 'é', '-'), minLength: 1, maxLength: 12 });

describe('properties', () => {
  test('(d) every entry lands in exactly one student or in the unmatched list', () => {
    const anyPath = fc.oneof(
      fc
        .tuple(moodleName, fc.nat(999), fc.constantFrom('file', 'onlinetext'), fileName, fc.boolean())
        .map(([n, id, plugin, f, folder]) =>
          folder ? `${n}_${id}_assignsubmission_${plugin}_/${f}` : `${n}_${id}_assignsubmission_${plugin}_${f}`,
        ),
      fc.tuple(moodleName, fc.nat(999)).map(([n, id]) => `${n}_${id}_assignsubmission_file_/`),
      fc
        .tuple(fc.stringMatching(/^[a-z]{1,8}$/), fc.boolean(), fc.nat(999), fc.nat(9999), fileName)
        .map(([n, late, id, att, f]) => `${n}_${late ? 'LATE_' : ''}${id}_${att}_${f}`),
      fc.constantFrom('__MACOSX/x', '.DS_Store', 'folder/', 'readme.txt'),
      fc.string({ unit: fc.constantFrom('a', '_', '/', '1', '.', ' '), maxLength: 20 }),
    );
    fc.assert(
      fc.property(fc.uniqueArray(anyPath, { maxLength: 30 }), (paths) => {
        const result = recogniseDownload(paths);
        const placed = [...result.students.flatMap((s) => s.entries), ...result.unmatched.map((u) => u.path)];
        expect(placed.sort()).toEqual([...paths].sort());
        for (const s of result.students) for (const f of s.files) expect(s.entries).toContain(f.path);
      }),
      PROPERTY_SETTINGS,
    );
  });

  test("a generated Moodle download gives back each student's id, name and files", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(
          fc.record({
            id: fc.integer({ min: 1, max: 99_999 }),
            name: moodleName,
            files: fc.uniqueArray(fileName, { maxLength: 3 }),
            folders: fc.boolean(),
          }),
          { selector: (s) => s.id, minLength: 1, maxLength: 8 },
        ),
        (students) => {
          const paths = students.flatMap((s) => {
            const name = s.name.replaceAll('_', ' ');
            if (s.files.length === 0) return [`${name}_${s.id}_assignsubmission_file_/`];
            return s.files.map((f) =>
              s.folders ? `${name}_${s.id}_assignsubmission_file_/${f}` : `${name}_${s.id}_assignsubmission_file_${f}`,
            );
          });
          const result = recogniseDownload(paths);
          expect(result.platform).toBe('moodle');
          expect(result.unmatched).toEqual([]);
          expect(result.students.map((s) => [s.participantId, s.displayName, s.files.map((f) => f.originalName)])).toEqual(
            students.map((s) => [String(s.id), s.name, s.files]),
          );
        },
      ),
      PROPERTY_SETTINGS,
    );
  });
});

describe('names that only look like Canvas names', () => {
  test('names with a date in them are never read as Canvas names (every file its own id, every user one name): no students merged', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('essay', 'report', 'homework'),
        fc.integer({ min: 2020, max: 2030 }),
        fc.integer({ min: 1, max: 12 }),
        fc.uniqueArray(fc.stringMatching(/^[a-z]{2,8}$/), { minLength: 2, maxLength: 6 }),
        fc.boolean(),
        (word, year, month, students, dateLast) => {
          // a date after a word, before each student's name; or each student's name, then a date
          const paths = students.map((student) =>
            dateLast ? `${student}_${year}_${month}_15.txt` : `${word}_${year}_${month}_${student}.txt`,
          );
          const read = recogniseDownload(paths);
          // not a download, so the folder rules make each file an answer of its own
          expect(read.platform).toBeNull();
          expect(read.unmatched.map((entry) => entry.path).sort()).toEqual([...paths].sort());
        },
      ),
      PROPERTY_SETTINGS,
    );
  });

  test('a Canvas download whose students share a file (a group submission: one file id, one name) is still one', () => {
    const read = recogniseDownload(['doejane_301_9001_essay.docx', 'ngbo_302_9001_essay.docx']);
    expect(read.platform).toBe('canvas');
    expect(read.students.map((s) => s.participantId)).toEqual(['301', '302']);
  });
});
