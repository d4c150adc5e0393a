import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {
	defaultSearchCaps,
	globPresentationMeta,
	grepPresentationMeta,
	parseGlobArgs,
	parseGrepArgs,
	presentGlobCall,
	presentGlobResult,
	presentGrepCall,
	presentGrepResult,
	previewLine,
	renderGlob,
	renderGrep,
	retainMatches,
	type GrepMatch,
} from '../../../src/builtin/search/search-card.js';
import {ToolArgsError} from '../../../src/tools/errors.js';

const caps = defaultSearchCaps;

/** The spec's grep worked example (§E2.6), restated. */
const exampleMatches: GrepMatch[] = [
	{path: 'src/config.ts', lineNumber: 2, line: '  DEBUG: false,'},
	{path: 'src/log.ts', lineNumber: 10, line: 'if (config.DEBUG) console.debug(msg)'},
];
const exampleMeta = {
	shape: 'matches',
	files: [
		{path: 'src/config.ts', matches: [{lineNumber: 2, line: '  DEBUG: false,'}]},
		{path: 'src/log.ts', matches: [{lineNumber: 10, line: 'if (config.DEBUG) console.debug(msg)'}]},
	],
	truncated: false,
	total: 2,
};

describe('grep projections', () => {
	it('renders the worked example text and meta exactly', () => {
		expect(renderGrep({matches: exampleMatches}, caps)).toEqual([
			{type: 'text', text: 'Found 2 matches\n\nsrc/config.ts\nLine 2:   DEBUG: false,\n\nsrc/log.ts\nLine 10: if (config.DEBUG) console.debug(msg)'},
		]);
		expect(grepPresentationMeta({matches: exampleMatches}, caps)).toEqual(exampleMeta);
	});

	it('says so when nothing matched and uses the singular for one match', () => {
		expect(renderGrep({matches: []}, caps)).toEqual([{type: 'text', text: 'No matches found'}]);
		expect(grepPresentationMeta({matches: []}, caps)).toEqual({shape: 'matches', files: [], truncated: false, total: 0});
		expect(renderGrep({matches: [exampleMatches[0]!]}, caps)[0]).toEqual({type: 'text', text: 'Found 1 match\n\nsrc/config.ts\nLine 2:   DEBUG: false,'});
	});

	it('caps matches in text and meta alike and tells the model to narrow the search', () => {
		const many = Array.from({length: 5}, (_, index): GrepMatch => ({path: index < 3 ? 'a.ts' : 'b.ts', lineNumber: index + 1, line: `hit ${index}`}));
		const small = {...caps, maxMatches: 3};
		expect(renderGrep({matches: many}, small)[0]).toEqual({
			type: 'text',
			text: 'Found 3 of 5 matches\n\na.ts\nLine 1: hit 0\nLine 2: hit 1\nLine 3: hit 2\n\n(Narrow pattern, path, or include to see more.)',
		});
		expect(grepPresentationMeta({matches: many}, small)).toEqual({
			shape: 'matches',
			files: [
				{
					path: 'a.ts',
					matches: [
						{lineNumber: 1, line: 'hit 0'},
						{lineNumber: 2, line: 'hit 1'},
						{lineNumber: 3, line: 'hit 2'},
					],
				},
			],
			truncated: true,
			total: 5,
		});
	});

	it('previews long lines on a UTF-8 boundary with the spec suffix', () => {
		expect(previewLine('abcdef', 4)).toBe('abcd (line truncated)');
		expect(previewLine('aé€', 4)).toBe('aé (line truncated)');
		expect(previewLine('short', 2000)).toBe('short');
		expect(retainMatches([{path: 'a', lineNumber: 1, line: 'x'.repeat(2001)}], caps).matches[0]!.line).toBe(`${'x'.repeat(2000)} (line truncated)`);
	});

	it('bounds meta to its byte cap by dropping trailing groups, then trailing matches of the first', () => {
		const wide = Array.from({length: 40}, (_, index): GrepMatch => ({path: `f${index % 4}.ts`, lineNumber: index + 1, line: 'y'.repeat(1900)}));
		const meta = grepPresentationMeta({matches: wide}, {...caps, maxMetaBytes: 10_000}) as {files: {path: string; matches: unknown[]}[]; truncated: boolean; total: number};
		expect(meta.files.map((file) => file.path)).toEqual(['f0.ts']);
		expect([meta.files[0]!.matches.length, meta.truncated, meta.total]).toEqual([5, true, 40]);
		expect(Buffer.byteLength(JSON.stringify(meta))).toBeLessThanOrEqual(10_000);
	});

	it('presents the worked example call and result', () => {
		expect(presentGrepCall({pattern: 'DEBUG', include: '*.ts'})).toEqual({card: 'generic', title: 'Grep DEBUG (*.ts)', kind: 'search', rawInput: 'DEBUG'});
		expect(presentGrepCall({pattern: 'x', path: 'src'}).title).toBe('Grep x in src');
		expect(presentGrepResult({pattern: 'DEBUG'}, {content: [], isError: false, meta: exampleMeta})).toEqual({
			card: 'search',
			shape: 'matches',
			files: exampleMeta.files,
			truncated: false,
			total: 2,
		});
	});

	it('declines errors, malformed meta and the paths shape', () => {
		const args = {pattern: 'x'};
		expect([
			presentGrepResult(args, {content: [], isError: true, meta: exampleMeta}),
			presentGrepResult(args, {content: [], isError: false}),
			presentGrepResult(args, {content: [], isError: false, meta: {...exampleMeta, shape: 'paths'}}),
			presentGrepResult(args, {content: [], isError: false, meta: {...exampleMeta, total: '2'}}),
			presentGrepResult(args, {content: [], isError: false, meta: {...exampleMeta, files: [{path: 'a', matches: [{lineNumber: 0, line: 'x'}]}]}}),
			presentGrepResult(args, {content: [], isError: false, meta: {...exampleMeta, files: [{path: 1, matches: []}]}}),
		]).toEqual([undefined, undefined, undefined, undefined, undefined, undefined]);
	});

	it('refuses an empty pattern, a blank path and include lists or negations', () => {
		expect(() => parseGrepArgs({pattern: '', path: ' ', include: '*.ts,*.js'})).toThrow(
			new ToolArgsError(['"pattern" must not be empty', '"path" must not be blank', '"include" must be one glob, not a comma-separated list (use {a,b} alternation)']),
		);
		expect(() => parseGrepArgs({pattern: 'x', include: '!*.ts'})).toThrow('"include" must be a positive glob; negated patterns ("!…") are not supported');
		expect(parseGrepArgs({pattern: ' ', include: '*.{ts,tsx}'})).toEqual({pattern: ' ', include: '*.{ts,tsx}'});
	});
});

describe('glob projections', () => {
	/** The spec's glob worked example (§E2.7, a dsh fixture with a cap of 4 and sampling). */
	const fixtureMeta = {shape: 'paths', paths: ['tree/archive/a.ts', 'tree/docs/guide.md', 'tree/src/index.ts', 'tree/test/spec.ts'], truncated: true, total: 8};

	it('presents the worked example call and result', () => {
		expect(presentGlobCall({pattern: '*', path: 'tree'})).toEqual({card: 'generic', title: 'Glob * in tree', kind: 'search', rawInput: '*'});
		expect(presentGlobCall({pattern: '**/*.md'}).title).toBe('Glob **/*.md');
		expect(presentGlobResult({pattern: '*', path: 'tree'}, {content: [], isError: false, meta: fixtureMeta})).toEqual({
			card: 'search',
			shape: 'paths',
			paths: fixtureMeta.paths,
			truncated: true,
			total: 8,
		});
	});

	it('renders no files, a full list, and the over-cap page with its footer', () => {
		expect(renderGlob({root: '.', paths: []}, caps)).toEqual([{type: 'text', text: 'No files found'}]);
		expect(renderGlob({root: '.', paths: ['b.ts', 'a.ts']}, caps)).toEqual([{type: 'text', text: 'b.ts\na.ts'}]);
		const paths = ['tree/archive/a.ts', 'tree/docs/guide.md', 'tree/src/index.ts', 'tree/test/spec.ts', 'tree/x', 'tree/y', 'tree/z', 'tree/w'];
		const small = {...caps, maxResults: 4};
		expect(renderGlob({root: 'tree', paths}, small)).toEqual([
			{type: 'text', text: 'tree/archive/a.ts\ntree/docs/guide.md\ntree/src/index.ts\ntree/test/spec.ts\n\n(Showing 4 of 8 paths. Narrow pattern or path to see more.)'},
		]);
		expect(globPresentationMeta({root: 'tree', paths}, small)).toEqual(fixtureMeta);
		expect(globPresentationMeta({root: '.', paths: ['a']}, caps)).toEqual({shape: 'paths', paths: ['a'], truncated: false, total: 1});
	});

	it('bounds meta by dropping trailing paths', () => {
		const paths = Array.from({length: 50}, (_, index) => `${'d/'.repeat(100)}${index}`);
		const meta = globPresentationMeta({root: '.', paths}, {...caps, maxMetaBytes: 2000}) as {paths: string[]; truncated: boolean; total: number};
		expect([meta.paths.length, meta.truncated, meta.total]).toEqual([9, true, 50]);
	});

	it('declines errors, malformed meta and the matches shape', () => {
		const args = {pattern: '*'};
		expect([
			presentGlobResult(args, {content: [], isError: true, meta: fixtureMeta}),
			presentGlobResult(args, {content: [], isError: false, meta: {...fixtureMeta, shape: 'matches'}}),
			presentGlobResult(args, {content: [], isError: false, meta: {...fixtureMeta, paths: [1]}}),
			presentGlobResult(args, {content: [], isError: false, meta: {...fixtureMeta, truncated: 'no'}}),
		]).toEqual([undefined, undefined, undefined, undefined]);
	});

	it('refuses a blank pattern or path', () => {
		expect(() => parseGlobArgs({pattern: ' ', path: ''})).toThrow(new ToolArgsError(['"pattern" must not be blank', '"path" must not be blank']));
	});
});

describe('line preview properties', () => {
	it('keeps a prefix of at most maxBytes and marks every cut', () => {
		fc.assert(
			fc.property(fc.string({unit: 'grapheme'}), fc.nat(30), (line, maxBytes) => {
				const preview = previewLine(line, maxBytes);
				if (preview === line) {
					expect(Buffer.byteLength(line)).toBeLessThanOrEqual(maxBytes);
					return;
				}

				const kept = preview.slice(0, -' (line truncated)'.length);
				expect(preview.endsWith(' (line truncated)')).toBe(true);
				expect(line.startsWith(kept)).toBe(true);
				expect(Buffer.byteLength(kept)).toBeLessThanOrEqual(maxBytes);
			}),
		);
	});
});
