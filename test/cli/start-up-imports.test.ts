/**
What a launch loads before the prompt is on screen (issue 16's launch → prompt). The first frame is
drawn by `src/cli/commands/interactive-command.ts` before the live screen loads, so that module's static
imports must stay light; and the model library (~170 modules) loads on the first model request, so
the live session's static imports must not reach it. Static imports are followed through the
sources (a `type`-only import loads nothing; `import()` is where loading is deferred).
*/
import {existsSync, readdirSync, readFileSync} from 'node:fs';
import {dirname, join, relative, resolve} from 'node:path';
import ts from 'typescript';
import {describe, expect, it} from 'vitest';

const root = join(import.meta.dirname, '..', '..');

/** The specifiers `file` imports at run time (not `import type`, not all-`type` bindings, not `import()`). */
function runtimeImports(file: string): string[] {
	const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
	const found: string[] = [];
	for (const statement of source.statements) {
		if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
			const clause = statement.importClause;
			const bindings = clause?.namedBindings;
			const onlyTypes = clause !== undefined && (clause.isTypeOnly || (clause.name === undefined && bindings !== undefined && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every(element => element.isTypeOnly)));
			if (!onlyTypes) {
				found.push(statement.moduleSpecifier.text);
			}
		} else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier !== undefined && ts.isStringLiteral(statement.moduleSpecifier) && !statement.isTypeOnly) {
			found.push(statement.moduleSpecifier.text);
		}
	}

	return found;
}

/** A relative `.js` specifier as the source file it compiles from. */
function sourceOf(from: string, specifier: string): string {
	const compiled = resolve(dirname(from), specifier);
	const candidates = [compiled.replace(/\.js$/, '.ts'), compiled.replace(/\.js$/, '.tsx'), compiled];
	const found = candidates.find(candidate => existsSync(candidate));
	if (found === undefined) {
		throw new Error(`${relative(root, from)}: cannot find ${specifier}`);
	}

	return found;
}

/** Every package (bare specifier, `node:` built-ins aside) `entry` loads through static imports, with a path to it. */
function packagesReached(entry: string): Map<string, string> {
	return staticImports(entry).packages;
}

/** Every source file (relative to the root) `entry` loads through static imports, itself included. */
function filesReached(entry: string): Set<string> {
	return new Set([...staticImports(entry).files].map(file => relative(root, file)));
}

/** The packages and source files `entry` reaches through static imports. */
function staticImports(entry: string): {packages: Map<string, string>; files: Set<string>} {
	const packages = new Map<string, string>();
	const seen = new Set<string>();
	const queue: Array<{file: string; via: string}> = [{file: join(root, entry), via: entry}];
	while (queue.length > 0) {
		const {file, via} = queue.shift()!;
		if (seen.has(file)) {
			continue;
		}

		seen.add(file);
		for (const specifier of runtimeImports(file)) {
			if (specifier.startsWith('.')) {
				const next = sourceOf(file, specifier);
				queue.push({file: next, via: `${via} → ${relative(root, next)}`});
			} else if (!specifier.startsWith('node:')) {
				const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!;
				if (!packages.has(name)) {
					packages.set(name, via);
				}
			}
		}
	}

	return {packages, files: seen};
}

describe('what a launch loads before the prompt', () => {
	it('draws the first frame with Node built-ins and the sink alone: no Ink, React, tools or model library', () => {
		const reached = packagesReached('src/cli/commands/interactive-command.ts');
		// The sink's escape rule (strip-ansi) is all a frame of cardterm's own text needs.
		expect([...reached.keys()].filter(name => name !== 'strip-ansi')).toEqual([]);
	});

	it('loads the model library only when a model is first asked, not with the live session or its screen', () => {
		for (const entry of ['src/cli/interactive/run-interactive.ts', 'src/cli/interactive/live-screen.tsx']) {
			const reached = packagesReached(entry);
			const model = [...reached].filter(([name]) => name === 'ai' || name.startsWith('@ai-sdk/') || name === 'zod').map(([name, via]) => `${name} via ${via}`);
			expect(model).toEqual([]);
		}

		// The walk does see the screen's own packages (so an empty list above means something).
		expect(packagesReached('src/cli/interactive/live-screen.tsx').has('ink')).toBe(true);
	});

	it('writes a continued session\'s history before Ink and React load: the live session reaches neither', () => {
		const reached = packagesReached('src/cli/interactive/run-interactive.ts');
		// The walk does reach the layout's packages (so an empty list below means something).
		expect(reached.has('marked')).toBe(true);
		expect([...reached].filter(([name]) => name === 'ink' || name === 'react').map(([name, via]) => `${name} via ${via}`)).toEqual([]);
	});
});

/** Every `import('…')` of a relative module in `src/`, with whether it is inside a `withScreenEnvironment(…)` call. */
function dynamicImports(): Array<{file: string; target: string; wrapped: boolean}> {
	const found: Array<{file: string; target: string; wrapped: boolean}> = [];
	const files = readdirSync(join(root, 'src'), {recursive: true, encoding: 'utf8'}).filter(name => /\.tsx?$/.test(name)).map(name => join(root, 'src', name));
	for (const file of files) {
		const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
		const visit = (node: ts.Node): void => {
			if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
				const [specifier] = node.arguments;
				if (specifier !== undefined && ts.isStringLiteral(specifier) && specifier.text.startsWith('.')) {
					let wrapped = false;
					for (let parent: ts.Node | undefined = node.parent; parent !== undefined && !wrapped; parent = parent.parent) {
						wrapped = ts.isCallExpression(parent) && ts.isIdentifier(parent.expression) && parent.expression.text === 'withScreenEnvironment';
					}

					found.push({file: relative(root, file), target: relative(root, sourceOf(file, specifier.text)), wrapped});
				}
			}

			ts.forEachChild(node, visit);
		};

		visit(source);
	}

	return found;
}

describe('what a screen loads', () => {
	it('loads React (through Ink or directly) only inside withScreenEnvironment, so no screen runs its development build', () => {
		const imports = dynamicImports();
		const reactLoads = imports.filter(({target}) => {
			const reached = packagesReached(target);
			return reached.has('react') || reached.has('ink');
		});
		// The walk does find the screens' loads (so an empty list below means something).
		expect(reactLoads.length).toBeGreaterThanOrEqual(3);
		expect(reactLoads.filter(({wrapped}) => !wrapped).map(({file, target}) => `${file} imports ${target}`)).toEqual([]);
	});
});

describe('what replay --json loads', () => {
	it('none of the row layout\'s libraries (Markdown, highlighting): printing loads them with print-output.ts', () => {
		const reached = packagesReached('src/cli/commands/replay-command.ts');
		expect(['marked', 'highlight.js'].filter(name => reached.has(name)).map(name => `${name} via ${reached.get(name)!}`)).toEqual([]);
		// The walk sees what --json does need (the zstd decoder), so an empty list above means something.
		expect(reached.has('fzstd')).toBe(true);
		expect(packagesReached('src/cli/print/print-output.ts').has('marked')).toBe(true);
	});

	it('neither string-width nor diff until text needs them: narrow text is measured, and a card without a diff drawn, without', () => {
		// Both are required on first use (text-width.ts, the diff users), which the static walk does not follow.
		for (const entry of ['src/cli/commands/replay-command.ts', 'src/cli/print/print-output.ts', 'src/cli/commands/interactive-command.ts']) {
			const reached = packagesReached(entry);
			expect(['string-width', 'diff'].filter(name => reached.has(name)).map(name => `${name} via ${reached.get(name)!}`)).toEqual([]);
		}
	});

	it('none of the reference tools\' execution modules: a tool loads them on its first call, replay runs only presenters', () => {
		const files = filesReached('src/cli/commands/replay-command.ts');
		const execution = ['src/builtin/bash/run-foreground.ts', 'src/builtin/bash/background-job.ts', 'src/builtin/bash/shell-process.ts', 'src/builtin/search/search-run.ts', 'src/builtin/search/tree-walk.ts', 'src/code-mode/run-program.ts', 'src/code-mode/program-worker.ts'];
		expect(execution.filter(file => files.has(file))).toEqual([]);
		const reached = packagesReached('src/cli/commands/replay-command.ts');
		expect(['picomatch', 'ignore', 're2js'].filter(name => reached.has(name)).map(name => `${name} via ${reached.get(name)!}`)).toEqual([]);
		// The walk reaches the presenters, and the modules above exist (so empty lists above mean something).
		expect(['src/builtin/bash/present.ts', 'src/builtin/search/search-card.ts', 'src/code-mode/render-run-code.ts'].every(file => files.has(file))).toBe(true);
		expect(execution.every(file => existsSync(join(root, file)))).toBe(true);
		expect(filesReached('src/builtin/search/search-run.ts').has('src/builtin/search/tree-walk.ts')).toBe(true);
	});
});
