// Recognise a Moodle or Canvas "download all submissions" by its entry names, and group each
// student's files into one answer. Works on relative paths ('/' separated, directories ending in
// '/'), so a zip's entry list and a folder's listing are read the same way.
//
// Moodle (moodle/moodle, mod/assign/locallib.php, download_submissions):
//   prefix = clean_filename(str_replace('_', ' ', groupname . fullname) . '_' . uniqueid)
//   (fullname is get_string('participant') when marking is blind), then per submission plugin:
//   folders on:  <prefix>_assignsubmission_<type>_/<path in the submission>
//   folders off: <prefix>_assignsubmission_<type>_<file name>
//   Underscores in names become spaces, so the first `_<digits>_assignsubmission_` is the anchor.
//   Online text is the plugin's `onlinetext.html` (lang string onlinetextfilename), with its images.
// Canvas (instructure/canvas-lms, lib/content_zipper.rb):
//   name = [sortable name lowercased, stripped to word characters, "LATE" when late, user id]
//          joined by '_' (`anon_<anonymous id>` instead of name and id when grading is anonymous;
//          older Canvas wrote "late" after the name)
//   upload:      <name>_<attachment id>_<original file name>
//   text entry:  <name>_text.html          URL entry: <name>_link.html
//   sanitize_user_name removes `_<digits>_` from names, so the first `_<digits>_` after the name
//   is the user id. The second number is the file's attachment id, not a submission id.

export type Platform = 'moodle' | 'canvas';

/** file: a file the student handed in; onlinetext: text typed into the platform (HTML); link: a URL submission (a redirect page). */
type SubmissionFileKind = 'file' | 'onlinetext' | 'link';

interface SubmissionFile {
  /** The entry's path, as given. */
  path: string;
  /** The name the student gave the file (with its folders inside the submission, for Moodle). */
  originalName: string;
  kind: SubmissionFileKind;
  /** Moodle: the submission plugin (file, onlinetext, ...). */
  plugin?: string;
  /** Canvas: the file's attachment id. */
  attachmentId?: string;
}

export interface StudentSubmission {
  platform: Platform;
  /** Moodle: the participant's unique id for the assignment; Canvas: the user id (or `anon_…`). */
  participantId: string;
  /** Moodle: the full name (or "Participant" when blind); Canvas: the name as the file gives it ("doejane"). */
  displayName: string;
  /** Canvas: the submission was late. */
  late?: boolean;
  /** Canvas: anonymous grading hides who the student is. */
  anonymous?: boolean;
  /** The student's files, in the order given; empty for a Moodle folder with nothing in it. */
  files: SubmissionFile[];
  /** Every input path that belongs to this student (files and folders). */
  entries: string[];
}

interface UnmatchedEntry {
  path: string;
  reason: string;
}

export interface RecognisedDownload {
  /** null when no platform's names account for more than half of the files. */
  platform: Platform | null;
  students: StudentSubmission[];
  /** Every path not in a student's `entries`, with why. */
  unmatched: UnmatchedEntry[];
  /** Files matching each platform's names, of `considered` files (system files and folders not counted). */
  counts: { moodle: number; canvas: number; considered: number };
}

interface Parsed {
  participantId: string;
  displayName: string;
  late?: boolean;
  anonymous?: boolean;
  /** undefined for the student's own folder. */
  file?: Omit<SubmissionFile, 'path'>;
}

const MOODLE_FOLDER = /^(.*)_(\d+)_assignsubmission_([a-z][a-z0-9_]*)_$/;
const MOODLE_FLAT = /^(.*?)_(\d+)_assignsubmission_([a-z][a-z0-9]*)_(.+)$/;
const CANVAS_ANON = /^(?:(late)_)?(anon_[a-z0-9]+)_(?:(\d+)_(.+)|(text|link)\.html)$/i;
const CANVAS_NAMED = /^([\p{L}\p{M}\p{N}\p{Pc}]+?)_(?:(late)_)?(\d+)_(?:(\d+)_(.+)|(text|link)\.html)$/iu;
const SYSTEM_FILE = /(^|\/)(__MACOSX\/|\.DS_Store$|Thumbs\.db$|desktop\.ini$)/i;

/**
 * Groups `paths` into students. How the platform is decided: system files (`__MACOSX/`,
 * `.DS_Store`, `Thumbs.db`, `desktop.ini`) and folders other than Moodle student folders are set
 * aside; of the rest (`counts.considered`), if Moodle's names match strictly more than half, it is
 * a Moodle download, else if Canvas's do, a Canvas one, else it is neither (platform null) and
 * every path is unmatched. Paths that do not follow the chosen platform's names are kept in
 * `unmatched` with the reason: nothing is dropped.
 */
export function recogniseDownload(paths: readonly string[]): RecognisedDownload {
  const considered = paths.filter((p) => !SYSTEM_FILE.test(p) && (!p.endsWith('/') || isMoodleStudentFolder(p)));
  const notCanvas = notCanvasNames(considered);
  const canvasOf = (path: string) => (notCanvas.has(path) ? undefined : parseCanvas(path));
  const counts = {
    moodle: considered.filter((p) => parseMoodle(p) !== undefined).length,
    canvas: considered.filter((p) => canvasOf(p) !== undefined).length,
    considered: considered.length,
  };
  const platform: Platform | null =
    counts.moodle * 2 > counts.considered ? 'moodle' : counts.canvas * 2 > counts.considered ? 'canvas' : null;
  const students = new Map<string, StudentSubmission>();
  const unmatched: UnmatchedEntry[] = [];
  for (const path of paths) {
    const system = SYSTEM_FILE.test(path);
    const parse = platform === 'moodle' ? parseMoodle : platform === 'canvas' ? canvasOf : undefined;
    // a system file is no answer, but its folder names a student (a zip may hold no entry for the folder itself)
    const parsed = system && path.includes('__MACOSX/') ? undefined : parse?.(path);
    if (!parsed || system) unmatched.push({ path, reason: unmatchedReason(path, platform) });
    if (!parsed) continue;
    let student = students.get(parsed.participantId);
    if (!student) {
      student = {
        platform: platform!,
        participantId: parsed.participantId,
        displayName: parsed.displayName,
        ...(parsed.late !== undefined ? { late: parsed.late } : {}),
        ...(parsed.anonymous ? { anonymous: true } : {}),
        files: [],
        entries: [],
      };
      students.set(parsed.participantId, student);
    }
    if (parsed.late) student.late = true;
    if (system) continue;
    student.entries.push(path);
    if (parsed.file) student.files.push({ path, ...parsed.file });
  }
  return { platform, students: [...students.values()], unmatched, counts };
}

/** An id the platform gives a student (Moodle's participant number; Canvas's user id, or `anon_…`): a name from a file is none. */
export function isPlatformId(platform: Platform, id: string): boolean {
  return /^\d+$/.test(id) || (platform === 'canvas' && /^anon_[a-z0-9]+$/i.test(id));
}

/**
 * The one student of a Canvas reading that has several files: names such as `essay_2024_1_ana.txt`
 * and `essay_2024_2_ben.txt` read as one user's uploads, yet a download of a single student is
 * rarely what a folder of several files is; read by its names alone it is doubtful (a zip, or
 * --group-by student, still reads it so).
 */
export function loneCanvasStudent(read: RecognisedDownload): StudentSubmission | undefined {
  if (read.platform !== 'canvas' || read.students.length !== 1) return undefined;
  const [student] = read.students;
  return student.files.length > 1 ? student : undefined;
}

/**
 * Paths named as Canvas names a file, but not as Canvas would name them: Canvas gives every file
 * its own id and every user one name, so a student and file id under two file names, or a user id
 * under two names, are a date or a number in names of another kind (`essay_2024_11_ana.txt` and
 * `essay_2024_11_ben.txt`; `alice_2024_03_15.txt` and `bob_2024_03_15.txt`), which read as Canvas's
 * would merge students.
 */
function notCanvasNames(paths: readonly string[]): Set<string> {
  const files = new Map<string, { name: string; paths: string[] }>();
  const users = new Map<string, { name: string; paths: string[] }>();
  const not = new Set<string>();
  // a key seen with two values: every path of it is no Canvas name
  const note = (seen: Map<string, { name: string; paths: string[] }>, key: string, value: string, path: string) => {
    const known = seen.get(key);
    if (known === undefined) seen.set(key, { name: value, paths: [path] });
    else {
      known.paths.push(path);
      if (known.name !== value) for (const each of known.paths) not.add(each);
    }
  };
  for (const path of paths) {
    const parsed = parseCanvas(path);
    if (parsed === undefined) continue;
    note(users, parsed.participantId, parsed.displayName, path);
    if (parsed.file?.attachmentId !== undefined)
      note(files, `${parsed.participantId}\u0000${parsed.file.attachmentId}`, parsed.file.originalName, path);
  }
  return not;
}

/** A folder named as a Moodle student's submission folder (it counts as that student even when empty). */
function isMoodleStudentFolder(path: string): boolean {
  return moodleStudentFolder(path.slice(0, -1).split('/').pop() ?? '') !== undefined;
}

/** The student a folder's own name gives as Moodle names a submission folder (`<name>_<id>_assignsubmission_<plugin>_`), or none. */
export function moodleStudentFolder(name: string): { displayName: string; participantId: string; plugin: string } | undefined {
  const match = MOODLE_FOLDER.exec(name);
  return match ? { displayName: match[1], participantId: match[2], plugin: match[3] } : undefined;
}

function parseMoodle(path: string): Parsed | undefined {
  const segments = path.split('/');
  const isDirectory = path.endsWith('/');
  if (isDirectory) segments.pop();
  for (const [index, segment] of segments.entries()) {
    const last = index === segments.length - 1;
    const folder = MOODLE_FOLDER.exec(segment);
    if (folder && (!last || isDirectory)) {
      const [, displayName, participantId, plugin] = folder;
      const inner = segments.slice(index + 1).join('/');
      if (isDirectory) return { participantId, displayName };
      return { participantId, displayName, file: moodleFile(plugin, inner, !inner.includes('/')) };
    }
    const flat = last && !isDirectory ? MOODLE_FLAT.exec(segment) : null;
    if (flat) {
      const [, displayName, participantId, plugin, originalName] = flat;
      return { participantId, displayName, file: moodleFile(plugin, originalName, true) };
    }
  }
  return undefined;
}

/** Online text is the plugin's own HTML page at the top of its area; its images are files. */
function moodleFile(plugin: string, originalName: string, topLevel: boolean): Omit<SubmissionFile, 'path'> {
  const text = plugin === 'onlinetext' && topLevel && /\.html?$/i.test(originalName);
  return { originalName, kind: text ? 'onlinetext' : 'file', plugin };
}

function parseCanvas(path: string): Parsed | undefined {
  if (path.endsWith('/')) return undefined;
  const name = path.slice(path.lastIndexOf('/') + 1);
  const anon = CANVAS_ANON.exec(name);
  if (anon) {
    const [, late, participantId, attachmentId, originalName, page] = anon;
    return {
      participantId,
      displayName: participantId,
      late: late !== undefined,
      anonymous: true,
      file: canvasFile(attachmentId, originalName, page),
    };
  }
  const named = CANVAS_NAMED.exec(name);
  if (named) {
    const [, displayName, late, participantId, attachmentId, originalName, page] = named;
    return { participantId, displayName, late: late !== undefined, file: canvasFile(attachmentId, originalName, page) };
  }
  return undefined;
}

function canvasFile(
  attachmentId: string | undefined,
  originalName: string | undefined,
  page: string | undefined,
): Omit<SubmissionFile, 'path'> {
  if (page) return { originalName: `${page.toLowerCase()}.html`, kind: page.toLowerCase() === 'text' ? 'onlinetext' : 'link' };
  return { originalName: originalName!, kind: 'file', attachmentId: attachmentId! };
}

function unmatchedReason(path: string, platform: Platform | null): string {
  if (SYSTEM_FILE.test(path)) return 'a system file (macOS or Windows folder metadata), not a submission';
  if (path.endsWith('/')) return "a folder that is not a student's submission folder";
  if (platform === null) return 'not named as in a Moodle or Canvas download';
  const other = platform === 'moodle' ? parseCanvas(path) : parseMoodle(path);
  if (other)
    return `named as in a ${platform === 'moodle' ? 'Canvas' : 'Moodle'} download, but this is a ${platform === 'moodle' ? 'Moodle' : 'Canvas'} one`;
  return `not named as in a ${platform === 'moodle' ? 'Moodle' : 'Canvas'} download`;
}
