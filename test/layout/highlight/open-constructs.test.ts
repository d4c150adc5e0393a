import {createRequire} from 'node:module';
import {describe, expect, test} from 'vitest';
import {OpenConstructs} from '../../../src/layout/highlight/open-constructs.js';

type Node = string | {readonly kind?: string; readonly children: readonly Node[]};

const hljs = createRequire(import.meta.url)('highlight.js') as {highlight(code: string, options: {language: string; ignoreIllegals: boolean}): {emitter: {rootNode: Node}}};

/** Per line start of `text`, whether highlight.js itself is inside a comment or string there (a token of that kind spans the line break). */
function highlighterOpen(text: string, grammar: string): boolean[] {
	const open = [false];
	const walk = (node: Node, inside: boolean): void => {
		if (typeof node === 'string') {
			for (const character of node) {
				if (character === '\n') {
					open.push(inside);
				}
			}

			return;
		}

		const kind = node.kind ?? '';
		for (const child of node.children) {
			walk(child, inside || kind.includes('comment') || kind.includes('string'));
		}
	};

	walk(hljs.highlight(text, {language: grammar, ignoreIllegals: true}).emitter.rootNode, false);
	return open;
}

/** The opener at every line start of `lines` joined by newlines, each checked against highlight.js's own state there. */
function openers(lines: readonly string[], grammar: string): Array<string | undefined> {
	const text = lines.join('\n');
	const scanner = OpenConstructs.of(text, grammar)!;
	const result = lines.map((_, line) => scanner.openerAt(line));
	expect(result.map(opener => opener !== undefined)).toEqual(highlighterOpen(text, grammar));
	return result;
}

describe('OpenConstructs', () => {
	test('a block comment is open on the lines between its ends, a doc comment as `/**`, and nothing once it closed', () => {
		expect(openers(['const a = 1; /* one', 'two', 'three */ const b = 2;', '/**', ' * @param x', ' */', 'f();', '/**/ g();'], 'typescript'))
			.toEqual([undefined, '/*', '/*', undefined, '/**', '/**', undefined, undefined]);
	});

	test('an opener inside a string, a line comment or a regular expression opens nothing; a division is not a regular expression', () => {
		expect(openers([
			'const a = \'/*\' + "`"; // /* not a comment',
			'const fence = /^(```|~~~)/u.test(line);',
			'const ratio = used / window * 100 / 2;',
			'const quote = "it\'s \\" /*";',
			'done();',
		], 'typescript')).toEqual([undefined, undefined, undefined, undefined, undefined]);
	});

	test('a template literal is open across lines, and inside its substitution the openers nest', () => {
		expect(openers(['const t = `one', 'two ${ {a: 1}.a } three', 'four ${', '  call(`inner', '`)', '} five`;', 'end();'], 'typescript'))
			.toEqual([undefined, '`', '`', '`${', '`${`', '`${', undefined]);
	});

	test('Python: triple-quoted strings with their prefix, not after a comment; Go raw strings; Rust strings over lines', () => {
		expect(openers(['x = f"""one', 'two', '"""', '# """ not', "y = '''a", "b'''", 'z = 1'], 'python'))
			.toEqual([undefined, 'f"""', 'f"""', undefined, undefined, '\'\'\'', undefined]);
		expect(openers(['s := `raw', '"not closed', '`', 'x := 1'], 'go')).toEqual([undefined, '`', '`', undefined]);
		expect(openers(['let s = "one', 'two";', 'let c = \'"\';'], 'rust')).toEqual([undefined, '"', undefined]);
	});

	test('a string whose line ends in a backslash goes on (C, CSS): its opener ends in the backslash, so the highlighter reads it so too', () => {
		expect(openers(['const char *s = "one\\', 'two";', 'int x;'], 'c')).toEqual([undefined, '"\\', undefined]);
		// CRLF line endings too (highlight.js is given lines without their CR, as the diff splits them).
		expect(OpenConstructs.of('const char *s = "one\\\r\ntwo";\r\nint x;', 'c')!.openerAt(1)).toBe('"\\');
	});

	test('an XML comment; a grammar the scan does not know gets no scanner', () => {
		expect(openers(['<a>', '<!-- one', 'two -->', '<b/>'], 'xml')).toEqual([undefined, undefined, '<!--', undefined]);
		expect(OpenConstructs.of('=begin\nx\n=end', 'ruby')).toBeUndefined();
	});

	test('asked for an earlier line it starts over; past the end it answers for the end', () => {
		const scanner = OpenConstructs.of('a\n/* b\nc\nd */\ne', 'typescript')!;
		expect(scanner.openerAt(4)).toBeUndefined();
		expect(scanner.openerAt(2)).toBe('/*');
		expect(scanner.openerAt(1)).toBe(undefined);
		expect(scanner.openerAt(3)).toBe('/*');
		expect(OpenConstructs.of('x /* open', 'typescript')!.openerAt(9)).toBe('/*');
	});

	test('hostile input: an unclosed construct on a long text, a lone backslash at the end, and a NUL are read without error', () => {
		const long = `/* ${'x '.repeat(200_000)}\n`.repeat(3);
		expect(OpenConstructs.of(long, 'typescript')!.openerAt(3)).toBe('/*');
		expect(OpenConstructs.of('"abc\\', 'c')!.openerAt(1)).toBeUndefined();
		expect(OpenConstructs.of('`\0\n\0`\nx', 'javascript')!.openerAt(1)).toBe('`');
	});
});
