// What `kct doctor --mark` sends: a short answer and the question it answers, the same every run.
// The question travels with the answer, so the model's rubric marks the sample on its own topic
// and the score is a plausible one, whichever model is named: it shows that marking works.

export const SAMPLE_QUESTION =
  'Should every school keep a library? Write a short argument of about 200 words: give your reasons, and answer the other side.';

export const SAMPLE_ANSWER = [
  'Every school should keep a library, because it gives every student books, quiet and help that many cannot find at home.',
  '',
  'First, a library gives every student the same chance to read. Not every family can buy books, and a school library lends them for free. For example, our library lent more than 3,000 books last year, many of them to students who own very few. This shows that the library reaches the students who need it most.',
  '',
  'Second, a library is a quiet place to study. At home, many students share a room or have no desk. In the library they can revise, do their homework and use a computer, which helps them keep up with their work.',
  '',
  'Some people argue that libraries are out of date, because everything is online. However, not everything online is reliable, and a librarian teaches students how to find good sources and judge them. A screen cannot replace that help.',
  '',
  'In conclusion, a school library is worth keeping. It gives every student books, a place to work and someone to guide their reading, so every school should keep one.',
].join('\n');
