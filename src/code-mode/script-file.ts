/**
@module `cardterm run SCRIPT.mjs`: a script file becomes a `run_code` program.

The file's text is the body of the program (top-level `await` and `return`, `tools` and
`ToolCallError` in scope). Static `import` declarations are rewritten to dynamic imports, line
for line (so error positions stay right): `import x from 'm'`, `import {a, b as c} from 'm'`,
`import * as ns from 'm'`, `import x, {a} from 'm'` and `import 'm'`. Relative specifiers resolve
against the script's directory; `node:` built-ins work; bare package names resolve as a dynamic
import from the worker would (not against the script). `export` declarations are refused.
*/
import {readFile} from 'node:fs/promises';
import {basename, dirname, resolve} from 'node:path';
import {pathToFileURL} from 'node:url';
import type {Agent, ToolExecutionResult} from '../tools/types.js';
import type {CodeModeExecutor} from './code-mode-types.js';
import {runCodeToolName} from './run-code-tool.js';

const fromImport = /^([ \t]*)import\s+([\w$][\w$]*\s*,\s*)?(\*\s*as\s+[\w$]+|\{[^}]*\}|[\w$]+)\s+from\s+(['"])([^'"\n]+)\4[ \t]*;?/gm;
const bareImport = /^([ \t]*)import\s+(['"])([^'"\n]+)\2[ \t]*;?/gm;
const leftoverDeclaration = /^[ \t]*(import(?!\s*\(|\s*\.meta)|export)\b/m;

/** Thrown for a script that cannot be turned into a program. */
class ScriptFileError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'ScriptFileError';
	}
}

/** The specifier as the worker should import it: relative paths become file URLs next to the script. */
function resolveSpecifier(specifier: string, directory: string): string {
	return specifier.startsWith('./') || specifier.startsWith('../') || specifier.startsWith('/')
		? pathToFileURL(resolve(directory, specifier)).href
		: specifier;
}

/** `{a, b as c}` → `{a, b: c}`. */
function destructure(named: string): string {
	const names = named.slice(1, -1).split(',').map(part => part.trim()).filter(part => part !== '');
	return names.map(part => part.replace(/^([\w$]+)\s+as\s+([\w$]+)$/, '$1: $2')).join(', ');
}

/** Keep the statement's line count so stack positions in the program still match the file. */
function sameLines(original: string, replacement: string): string {
	return replacement + '\n'.repeat((original.match(/\n/g) ?? []).length);
}

/** Rewrite a script's static imports to dynamic ones; throws `ScriptFileError` for what cannot be rewritten. */
export function scriptToProgram(text: string, scriptPath: string): string {
	const directory = dirname(resolve(scriptPath));
	// A shebang line is not JavaScript inside a function body; blank it, keeping the line.
	let program = text.replace(/^#![^\n]*/, '').replace(fromImport, (statement: string, indent: string, defaultPart: string | undefined, clause: string, _quote: string, specifier: string) => {
		const source = `await import(${JSON.stringify(resolveSpecifier(specifier, directory))})`;
		const defaultName = defaultPart?.replace(/\s*,\s*$/, '');
		let replacement: string;
		if (clause.startsWith('*')) {
			const namespace = clause.replace(/^\*\s*as\s+/, '');
			replacement = defaultName === undefined ? `const ${namespace} = ${source};` : `const ${namespace} = ${source}, ${defaultName} = ${namespace}.default;`;
		} else if (clause.startsWith('{')) {
			const names = destructure(clause);
			replacement = `const {${[defaultName === undefined ? '' : `default: ${defaultName}`, names].filter(part => part !== '').join(', ')}} = ${source};`;
		} else {
			replacement = `const {default: ${clause}} = ${source};`;
		}

		return sameLines(statement, indent + replacement);
	});
	program = program.replace(bareImport, (statement: string, indent: string, _quote: string, specifier: string) =>
		sameLines(statement, `${indent}await import(${JSON.stringify(resolveSpecifier(specifier, directory))});`));
	const leftover = leftoverDeclaration.exec(program);
	if (leftover !== null) {
		const line = program.slice(0, leftover.index).split('\n').length;
		throw new ScriptFileError(
			`${scriptPath}:${line}: this ${leftover[1]} declaration cannot run as a run_code program; `
			+ 'use `const {x} = await import(\'m\')` for imports and `return` (or console.log) instead of exports',
		);
	}

	return program;
}

/** How to run a script. */
export type RunScriptFileOptions = {
	/** The registry with the `run_code` transport attached. */
	readonly executor: Pick<CodeModeExecutor, 'execute'>;
	readonly signal: AbortSignal;
	/** The call id of the `run_code` call (default `run-<script file name>`). */
	readonly callId?: string;
	/** The card label (default `Run <script file name>`). */
	readonly description?: string;
	readonly agent?: Agent;
};

/**
Read `path` and execute it as one `run_code` call through the registry; resolves with the
registry's result (a failed program is an error result, never a rejection). An unreadable file
or an unsupported declaration rejects before anything runs.
*/
export async function runScriptFile(path: string, options: RunScriptFileOptions): Promise<ToolExecutionResult> {
	const text = await readFile(path, 'utf8');
	const code = scriptToProgram(text, path);
	const name = basename(path);
	return options.executor.execute({
		callId: options.callId ?? `run-${name}`,
		name: runCodeToolName,
		arguments: {code, description: options.description ?? `Run ${name}`},
		signal: options.signal,
		...(options.agent === undefined ? {} : {agent: options.agent}),
	});
}
