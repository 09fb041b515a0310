// Moodle stores imported feedback comments as HTML (assign_feedback_comments::set_editor_text
// inserts them with FORMAT_HTML), so plain feedback is escaped and its line breaks made visible.

/** Plain text as HTML paragraphs: blank lines split paragraphs, single line breaks become <br>. */
export function feedbackAsHtml(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== '')
    .map((paragraph) => `<p>${escapeHtml(paragraph).replace(/[ \t]*\n[ \t]*/g, '<br>')}</p>`)
    .join('');
}

function escapeHtml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
}
