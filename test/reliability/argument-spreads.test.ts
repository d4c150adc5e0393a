/**
Promise 2 (issue 11, item 4): no call spreads an array of unbounded length into arguments. V8 puts
spread arguments on the stack, so `rows.push(...rows)`, `Math.max(...widths)`,
`String.fromCharCode(...codes)` or `new Set(...)`-style calls throw `RangeError: Maximum call
stack size exceeded` at ~125 000 elements: a big card crashed replay, the pager, `run` and watch.
This reads every source file as TypeScript and fails on any spread argument of a call or `new`,
and on `f.apply(this, array)` (the same limit). A spread that is provably bounded may stay when
its line, or the line above, says why with a `bounded spread:` comment.
*/
import {readdirSync, readFileSync} from 'node:fs';
import {join, relative} from 'node:path';
import ts from 'typescript';
import {describe, expect, it} from 'vitest';

const root = join(import.meta.dirname, '..', '..');

const ALLOW = /\/\/ bounded spread: \S/;

function sourceFiles(folder: string): string[] {
	return readdirSync(join(root, folder), {recursive: true, withFileTypes: true})
		.filter(entry => entry.isFile() && /\.(?:ts|tsx|mts)$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
		.map(entry => relative(root, join(entry.parentPath, entry.name)));
}

/** Every spread argument in `text` without a reason, as `file:line: code`. */
export function unboundedSpreads(file: string, text: string): string[] {
	const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
	const lines = text.split('\n');
	const found: string[] = [];
	const report = (node: ts.Node): void => {
		const line = source.getLineAndCharacterOfPosition(node.getStart()).line;
		if (!ALLOW.test(lines[line] ?? '') && !ALLOW.test(lines[line - 1] ?? '')) {
			found.push(`${file}:${line + 1}: ${node.getText().slice(0, 80)}`);
		}
	};

	const visit = (node: ts.Node): void => {
		if ((ts.isCallExpression(node) || ts.isNewExpression(node)) && node.arguments?.some(argument => ts.isSpreadElement(argument))) {
			report(node);
		} else if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === 'apply' && node.arguments.length === 2 && !ts.isArrayLiteralExpression(node.arguments[1]!)) {
			report(node);
		}

		ts.forEachChild(node, visit);
	};

	visit(source);
	return found;
}

describe('argument spreads', () => {
	it('finds the spreads it must refuse, and leaves other spreads and bounded ones alone', () => {
		const sample = [
			'rows.push(...more);',
			'const widest = Math.max(0, ...widths);',
			'String.fromCharCode(...codes);',
			'new Foo(...args);',
			'Math.max.apply(null, widths);',
			'// bounded spread: two constants',
			'Math.max(...[1, 2]);',
			'const copy = [...rows, ...more];',
			'const merged = {...a, ...b};',
			'function log(...args) {}',
			'const [first, ...rest] = list;',
			'fold.apply(event);',
		].join('\n');
		expect(unboundedSpreads('sample.ts', sample)).toEqual([
			'sample.ts:1: rows.push(...more)',
			'sample.ts:2: Math.max(0, ...widths)',
			'sample.ts:3: String.fromCharCode(...codes)',
			'sample.ts:4: new Foo(...args)',
			'sample.ts:5: Math.max.apply(null, widths)',
		]);
	});

	it('src/ and components/ spread no unbounded array into a call', () => {
		const found = [...sourceFiles('src'), ...sourceFiles('components')].flatMap(file => unboundedSpreads(file, readFileSync(join(root, file), 'utf8')));
		expect(found).toEqual([]);
	});
});
