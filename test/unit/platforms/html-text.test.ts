import { describe, expect, test } from 'vitest';
import { feedbackAsHtml } from '../../../src/platforms/feedback-html.js';
import { onlineTextAsPlain } from '../../../src/platforms/online-text.js';

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
