import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { feedbackAsHtml } from '../../../src/platforms/feedback-html.js';
import { onlineTextAsPlain } from '../../../src/platforms/online-text.js';
import { propertyRuns, propertySeed } from '../property-runs.js';
import { canvasTextPage } from './generated-downloads.js';

describe('feedbackAsHtml', () => {
  test('escapes, makes paragraphs of blank-line blocks and <br> of single line breaks', () => {
    expect(feedbackAsHtml('Good <thesis> & "sources".\r\n\r\nNext time:\n  cite pages')).toBe(
      '<p>Good &lt;thesis&gt; &amp; &quot;sources&quot;.</p><p>Next time:<br>cite pages</p>',
    );
    expect(feedbackAsHtml('  \n\n ')).toBe('');
  });
});

describe('onlineTextAsPlain', () => {
  test("reads Moodle's onlinetext.html as the text the student typed", () => {
    const html =
      '<!DOCTYPE html><html><head><meta charset="UTF-8"></head><body><p dir="ltr">Uniforms &amp; equity:&nbsp;a case.</p><p>Second&#160;para<br>with a break &#x2014; and &lt;tags&gt;.</p><ul><li>one</li><li>two</li></ul><!-- editor --></body></html>';
    expect(onlineTextAsPlain(html)).toBe('Uniforms & equity: a case.\n\nSecond para\nwith a break — and <tags>.\n\n- one\n\n- two');
  });

  test('an empty online text is empty, and scripts and styles are not text', () => {
    expect(onlineTextAsPlain('<!DOCTYPE html><html><head><meta charset="UTF-8"></head><body></body></html>')).toBe('');
    expect(
      onlineTextAsPlain('<html><head><title>T</title><style>p{}</style></head><body><script>x()</script>Hi &bogus; &#0;</body></html>'),
    ).toBe('Hi &bogus; &#0;');
  });
});

describe("Canvas's text entry page", () => {
  test('property: the text is what the student typed, without the heading that names the assignment and the student; a blank entry is empty', () => {
    const words = fc.array(fc.stringMatching(/^[A-Za-z\u00c0-\u017f'’-]{1,12}$/), { minLength: 1, maxLength: 6 }).map((w) => w.join(' '));
    fc.assert(
      fc.property(words, words, fc.array(words, { maxLength: 3 }), (assignment, name, paragraphs) => {
        const page = canvasTextPage(assignment, name, paragraphs.map((p) => `<p>${p}</p>`).join(''));
        const text = onlineTextAsPlain(page);
        expect(text).toBe(paragraphs.map((p) => p.replace(/\s+/g, ' ').trim()).join('\n\n'));
        if (!paragraphs.some((p) => p.includes(name))) expect(text).not.toContain(`${assignment}: ${name}`);
      }),
      { numRuns: propertyRuns(200), seed: propertySeed(34) },
    );
  });

  test("a student's own first heading stays: only the one that repeats the page's title is Canvas's", () => {
    const page = canvasTextPage('Uniforms', 'Eve Kim', '<h1>My case</h1><p>Uniforms cost too much.</p>');
    expect(onlineTextAsPlain(page)).toBe('My case\n\nUniforms cost too much.');
  });
});
