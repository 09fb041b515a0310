// Where the quotations and the asides in brackets of a piece of feedback are, for the feedback
// rewrite (feedback-rewrite.ts): a quotation is the answer's or the rubric's words, never reworded nor
// cut, and stays with the finding it was offered for; an aside is a finding's detail.

/**
 * The outermost quotations (“…”, "…") and, unless `quotesOnly`, asides in brackets of a text, as
 * [start, end) spans: a quotation may hold quotation marks and brackets of its own (the answer's
 * words), and an aside quotations and asides.
 */
function groups(s: string, quotesOnly: boolean): [number, number][] {
  const out: [number, number][] = [];
  const open: string[] = [];
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    const top = open[open.length - 1];
    let opens = false;
    if (top === '“' || top === '"') {
      if (top === '“' && c === '“') open.push(c);
      else if ((top === '“' && c === '”') || (top === '"' && c === '"')) open.pop();
      else continue;
    } else if (c === '“' || c === '"' || (c === '(' && !quotesOnly)) {
      open.push(c);
      opens = true;
    } else if (c === ')' && top === '(') open.pop();
    else continue;
    if (opens && open.length === 1) start = i;
    else if (open.length === 0) out.push([start, i + 1]);
  }
  return out;
}

/**
 * Hides asides in brackets and quotations behind placeholders, so splitting at punctuation never
 * cuts through "(sandbox grader: ...; ...)" or a quoted “for example, this”; with `quotesOnly`, the
 * quotations alone (words never to be reworded).
 */
export function protect(s: string, quotesOnly = false): { text: string; restore: (x: string) => string; saved: string[] } {
  const saved: string[] = [];
  let text = '';
  let from = 0;
  for (const [a, b] of groups(s, quotesOnly)) {
    // a quotation's mark (one in brackets too) is \u0001, an aside's \u0003: a quotation is never cut from its finding
    const group = s.slice(a, b);
    text += `${s.slice(from, a)}${/^\((?!\s*“[\s\S]*”\s*\)$)/.test(group) ? '\u0003' : '\u0001'}${saved.push(group) - 1}\u0002`;
    from = b;
  }
  text += s.slice(from);
  return { text, restore: (x) => x.replace(/[\u0001\u0003](\d+)\u0002/g, (_m, i: string) => saved[Number(i)]), saved };
}

/** A text without its asides in brackets (nested ones too, and a quotation in brackets); quotations stay whole. */
export function withoutAsides(s: string): string {
  const { text, restore } = protect(s);
  return restore(text.replace(/\s*\u0003\d+\u0002/g, ''));
}
