// Streaming Markdown layout benchmark (issue 12). Run after `npm run build`:
//   node bench/markdown-stream.mjs
// A realistic 20 000-character assistant message (paragraphs, lists, a table, code blocks) grows by
// one ~20-character delta at a time. Per append it measures the incremental path (a stream's
// `lines()`, which re-splits and re-lays-out only the last block) and, on the same text, a full
// re-layout (caches cleared). Prints one JSON object per figure: {"name","median","p95","unit",
// "floor","ratio","target","met"}; the full re-layout is the floor, so `ratio` is incremental / full.
// Target: the incremental path ≤ 1 ms per append.
// The second figure takes the path a view takes: `layoutEntry` of a streaming assistant entry (a new
// entry object per delta, as the fold makes them), against `layoutEntry` of the same text as a
// settled entry with every cache cleared (a full re-layout through the same path).
import {layoutEntry} from '../dist/src/layout/entries/layout-entry.js';
import {clearMarkdownCache, layoutMarkdown} from '../dist/src/layout/markdown/markdown-layout.js';
import {createMarkdownStream} from '../dist/src/layout/markdown/markdown-stream.js';
import {colorTheme} from '../dist/src/layout/text/theme.js';
import {figure} from './lib/stats.mjs';

const options = {width: 100, theme: colorTheme};

/** A message of about `chars` characters made of the constructs a model writes. */
function message(chars) {
	const parts = [];
	for (let index = 0; parts.join('\n\n').length < chars; index++) {
		switch (index % 5) {
			case 0: {
				parts.push(`## Step ${index}\n\nThe function \`step${index}\` reads the **configuration**, checks it against the *schema* and writes the result to [the log](https://example.com/log/${index}); it fails early when a field is missing.`);
				break;
			}

			case 1: {
				parts.push(`- first point about item ${index}\n- second point, with \`code\`\n  - a nested detail\n- [x] a finished task`);
				break;
			}

			case 2: {
				parts.push(`\`\`\`ts\nexport function step${index}(value: number): number {\n\tconst doubled = value * 2;\n\treturn doubled + ${index};\n}\n\`\`\``);
				break;
			}

			case 3: {
				parts.push(`| Name | Value | Notes |\n|:--|--:|:--|\n| alpha | ${index} | short |\n| beta | ${index * 2} | a longer note |`);
				break;
			}

			default: {
				parts.push(`> A quoted remark about step ${index}, long enough to wrap at a hundred columns when the terminal is narrow enough to matter.`);
			}
		}
	}

	return parts.join('\n\n');
}

const full = message(20_000);
// A paragraph being streamed after the 20 000 characters: deltas of ~20 characters.
const tail = '\n\nNow the model keeps writing a paragraph, word after word, as the deltas arrive from the stream, until it ends. '.repeat(4);
const deltas = tail.match(/[\s\S]{1,20}/g);

const incremental = [];
const fullLayout = [];
const rounds = 5;
for (let round = 0; round < rounds; round++) {
	clearMarkdownCache();
	const stream = createMarkdownStream(full);
	stream.lines(options);
	for (const delta of deltas) {
		stream.append(delta);
		let start = performance.now();
		stream.lines(options);
		incremental.push(performance.now() - start);
		// The floor: the same text laid out from nothing (no block or message cached).
		clearMarkdownCache();
		start = performance.now();
		layoutMarkdown(stream.text, options);
		fullLayout.push(performance.now() - start);
		// Put the stream's blocks back in the cache, as they would be without the floor's clearing.
		clearMarkdownCache();
		layoutMarkdown(stream.text, options);
	}
}

/** A streaming assistant entry as the fold makes one per delta. */
const entryOf = (text, streaming, revision) => ({entry: 'assistant', seq: 7, time: 0, turn: 1, step: 1, text, reasoning: '', interrupted: false, streaming, preparing: [], revision});
const entryOptions = {...options, expansion: 'full'};
const entryIncremental = [];
const entryFull = [];
for (let round = 0; round < rounds; round++) {
	clearMarkdownCache();
	let text = full;
	let revision = 0;
	layoutEntry(entryOf(text, true, revision), entryOptions);
	for (const delta of deltas) {
		text += delta;
		revision++;
		const entry = entryOf(text, true, revision);
		let start = performance.now();
		layoutEntry(entry, entryOptions);
		entryIncremental.push(performance.now() - start);
		clearMarkdownCache();
		const settled = entryOf(text, false, revision);
		start = performance.now();
		layoutEntry(settled, entryOptions);
		entryFull.push(performance.now() - start);
		// Put the blocks back in the shared cache, as they would be without the floor's clearing.
		clearMarkdownCache();
		layoutMarkdown(text, options);
	}
}

// The first round warms up the JIT and the highlighter.
const warm = (samples) => samples.slice(samples.length / rounds);
const result = figure('markdown stream append (20 000 chars + 20-char delta)', warm(incremental), {floor: warm(fullLayout), target: '≤ 1 ms', met: (value) => value.median <= 1});
process.stdout.write(`${JSON.stringify(result)}\n`);
process.stdout.write(`${JSON.stringify(figure('markdown full re-layout (same text)', warm(fullLayout), {target: null, met: null}))}\n`);
process.stdout.write(`${JSON.stringify(figure('layoutEntry of a streaming assistant entry, one delta appended (20 000 chars + 20-char delta)', warm(entryIncremental), {floor: warm(entryFull), target: '≤ 1 ms', met: (value) => value.median <= 1}))}\n`);
process.stdout.write(`message ${full.length} chars, ${deltas.length} appends × ${rounds - 1} rounds\n`);
