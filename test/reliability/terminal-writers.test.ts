/**
Promise 1 (issue 11, item 1): everything cardterm writes to stdout or stderr goes through the one
sanitising sink (src/layout/terminal/terminal-sink.ts). This reads every source file as TypeScript and fails
on any other writer: a `write`/`writeSync` call, a `console.*` call, or a use of `process.stdout` /
`process.stderr` other than handing it to the sink or reading its size. Writers that write
somewhere else (files, decoders, the output emulator's own line buffer) are listed below with the
reason; a new one must be added here, with its reason, to pass.
*/
import {readdirSync, readFileSync} from 'node:fs';
import {join, relative} from 'node:path';
import ts from 'typescript';
import {describe, expect, it} from 'vitest';

const root = join(import.meta.dirname, '..', '..');

/** The sink itself: the one module that writes to a stream. */
const SINK = 'src/layout/terminal/terminal-sink.ts';

/** The CliIo sink commands write through: typed `TerminalOutput`, implemented with the sink (src/cli/process-io.ts). */
const SINK_CALLS = new Set(['io.write']);

/** Calls named write that do not reach a terminal, by file and callee. */
const OTHER_WRITERS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
	'components/InteractiveApp.tsx': {write: 'Ink\'s own stdout handling (useStdout): it erases its frame, writes, redraws; given only rendered rows and screen switches'},
	'components/hooks/use-scrollback.ts': {'latest.current.write': 'Ink\'s write (useStdout), handed in by InteractiveApp: only rendered rows (TerminalOutput)'},
	'components/Pager.tsx': {write: 'Ink\'s own stdout handling (useStdout) after $EDITOR: it erases its frame, writes the composed REDRAW_SCREEN, redraws'},
	'src/layout/terminal/terminal-output.ts': {'line.write': 'the output emulator\'s line buffer', 'this.write': 'the output emulator\'s line buffer'},
	'src/builtin/fs/read-file.ts': {'decoder.write': 'a StringDecoder'},
	'src/builtin/bash/stream-capture.ts': {'this.#spill.write': 'the spill file'},
	'src/builtin/bash/spill-file.ts': {writeSync: 'the spill file\'s descriptor'},
	'src/session/recorder/log-writer.ts': {'handle.write': 'the session log file', writeSync: 'the session log file'},
	'src/session/reader/log-index.ts': {writeSync: 'the decompressed temporary copy of a zstd log'},
	'src/transcript/indexed-entry-source.ts': {writeSync: 'a temporary file'},
	'src/cli/print/transcript-stream.ts': {'this.#write': 'the replay command\'s card callback, which writes through the CliIo sink'},
	'src/cli/pager/pager-actions.ts': {write: 'the injected OSC 52 writer: takes TerminalOutput, defaults to the sink'},
	'src/acp/frame-reader.ts': {'writer.write': 'the agent\'s stdin (frame-writer.ts), noting request ids on the way'},
	'src/acp/frame-writer.ts': {'stdin.write': 'the agent\'s stdin: JSON-RPC lines for the ACP agent process, never a terminal'},
	'src/acp/frame-trace.ts': {'stream.write': 'the ACP frame trace file (CARDTERM_ACP_TRACE=FILE)'},
	'src/host/mcp-stdio-transport.ts': {'input.write': 'an MCP server program\'s stdin: JSON-RPC lines, never a terminal'},
};

/** Library defaults for embedders that pass no reporter; cardterm's own sessions pass the sink (src/host/open-session.ts). */
const CONSOLE_DEFAULTS: Readonly<Record<string, string>> = {
	'src/jobs/job-runtime.ts': 'JobRuntime\'s default `log`',
	'src/tools/registry.ts': 'ToolRegistry\'s default `logError`',
};

/** Reading these of process.stdout / process.stderr writes nothing. */
const harmlessProperties = new Set(['isTTY', 'columns', 'rows']);

function sourceFiles(folder: string): string[] {
	return readdirSync(join(root, folder), {recursive: true, withFileTypes: true})
		.filter(entry => entry.isFile() && /\.(?:ts|tsx|js|mjs)$/.test(entry.name) || (entry.isFile() && folder === 'bin'))
		.map(entry => relative(root, join(entry.parentPath, entry.name)));
}

const isStdStream = (node: ts.Node): boolean => ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'process' && (node.name.text === 'stdout' || node.name.text === 'stderr');

/** Every place in `file` that writes to a terminal without the sink, as `file:line: what`. */
function bypasses(file: string, text: string): string[] {
	const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
	const found: string[] = [];
	const report = (node: ts.Node, what: string): void => {
		found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${what}`);
	};

	const visit = (node: ts.Node): void => {
		if (ts.isCallExpression(node)) {
			const callee = node.expression;
			const name = ts.isIdentifier(callee) ? callee.text : (ts.isPropertyAccessExpression(callee) ? callee.name.getText(source) : undefined);
			if (name === 'write' || name === 'writeSync') {
				const calleeText = callee.getText(source);
				if (!SINK_CALLS.has(calleeText) && OTHER_WRITERS[file]?.[calleeText] === undefined) {
					report(node, `${calleeText}(…) bypasses the sink`);
				}
			}
		}

		if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'console' && CONSOLE_DEFAULTS[file] === undefined) {
			report(node, `console.${node.name.text} bypasses the sink`);
		}

		if (isStdStream(node)) {
			const parent = node.parent;
			const handedToSink = ts.isCallExpression(parent) && parent.arguments[0] === node && ts.isIdentifier(parent.expression) && (parent.expression.text === 'writeText' || parent.expression.text === 'writeOutput');
			const sizeRead = ts.isPropertyAccessExpression(parent) && parent.expression === node && harmlessProperties.has(parent.name.text);
			if (!handedToSink && !sizeRead) {
				report(node, `${node.getText(source)} used other than through writeText/writeOutput`);
			}
		}

		if (ts.isVariableDeclaration(node) && ts.isObjectBindingPattern(node.name) && node.initializer !== undefined && ts.isIdentifier(node.initializer) && node.initializer.text === 'process') {
			for (const element of node.name.elements) {
				const name = (element.propertyName ?? element.name).getText(source);
				if (name === 'stdout' || name === 'stderr') {
					report(element, `process.${name} taken out of process, past the sink`);
				}
			}
		}

		ts.forEachChild(node, visit);
	};

	visit(source);
	return found;
}

describe('every writer to stdout and stderr goes through the sink', () => {
	const files = ['src', 'components', 'bin'].flatMap(folder => sourceFiles(folder)).filter(file => file !== SINK);

	it('finds no bypassing writer in the source tree', () => {
		expect(files.length).toBeGreaterThan(100);
		expect(files.flatMap(file => bypasses(file, readFileSync(join(root, file), 'utf8')))).toEqual([]);
	});

	it('catches each kind of bypass', () => {
		const samples = [
			'process.stdout.write(name);',
			'process.stderr.write(`cardterm ${argv[0]}`);',
			'console.log(name);',
			'const {stdout} = process; stdout.write(name);',
			'io.stderr.write(message);',
			'writeSync(1, name);',
			'const out = process.stdout; out.end(name);',
		];
		expect(samples.map(sample => bypasses('src/cli/example.ts', sample).length > 0)).toEqual(samples.map(() => true));
		expect(bypasses('src/cli/example.ts', 'await writeText(process.stderr, name); const wide = process.stdout.columns;')).toEqual([]);
	});

	it('lists only writers that still exist', () => {
		for (const [file, callees] of Object.entries(OTHER_WRITERS)) {
			const text = readFileSync(join(root, file), 'utf8');
			for (const callee of Object.keys(callees)) {
				expect([file, text.includes(`${callee}(`)]).toEqual([file, true]);
			}
		}

		for (const file of Object.keys(CONSOLE_DEFAULTS)) {
			expect([file, readFileSync(join(root, file), 'utf8').includes('console.error(')]).toEqual([file, true]);
		}
	});
});
