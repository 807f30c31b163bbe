// Micro-benchmark of streaming Markdown (issue 11, P8): a 20 kB answer in
// 2,000 chunks, lexed the way Markdown.svelte does (only the growing tail)
// against lexing the whole text on every chunk. Run with `npm run bench`;
// not part of `npm test`. The window's own figure (2,000 chunks a second
// rendered without falling behind) is measured by `make bench`.
import { bench, describe } from 'vitest';
import { markdownBlocks, MarkdownStream } from './markdown';

const answer = [
  '## Plan',
  '',
  'I will call **two tools**, then summarise. 我会先查询天气，然后总结。',
  '',
  '1. Look up the weather',
  '2. Read the [forecast](https://weather.example/beijing)',
  '',
  '```json',
  '{ "city": "北京", "days": 3 }',
  '```',
  '',
  '| Day | Sky |',
  '| --- | --- |',
  '| Mon | sun |',
  '',
  '> Note: <b>raw html</b> stays text, and ![chart](https://t.example/c.png) is not loaded.',
  '',
  '- [x] asked',
  '- [ ] answered',
  '',
].join('\n');

const text = answer.repeat(Math.ceil(20_000 / answer.length)).slice(0, 20_000);
const chunks = 2000;
const size = Math.ceil(text.length / chunks);

describe(`${chunks} chunks of a ${text.length}-character answer`, () => {
  bench(
    'MarkdownStream: only the growing tail is lexed again',
    () => {
      const stream = new MarkdownStream();
      for (let i = 1; i <= chunks; i++) stream.update(text.slice(0, i * size), true);
    },
    { iterations: 10, warmupIterations: 2 },
  );

  bench(
    'the whole text lexed on every chunk',
    () => {
      for (let i = 1; i <= chunks; i++) markdownBlocks(text.slice(0, i * size));
    },
    { iterations: 2, warmupIterations: 1 },
  );
});
