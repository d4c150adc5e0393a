/**
@module The pager's side effects: copy (OSC 52 where the terminal takes it, otherwise printed when the
pager closes), opening a card's file in $EDITOR, and exporting the session (`x`), a replayed log or
a live session's log so far.
*/
import {spawnSync} from 'node:child_process';
import {createReadStream, existsSync} from 'node:fs';
import {writeFile} from 'node:fs/promises';
import {basename, isAbsolute, relative, resolve} from 'node:path';
import {exportPage, exportSummary} from '../commands/export-command.js';
import {cardLocation} from '../../../components/pager/card-text.js';
import {sanitizeText} from '../../layout/text/sanitize.js';
import {controlSequence, writeOutput, type TerminalOutput} from '../../layout/terminal/terminal-sink.js';
import type {Card} from '../../presentation/card.js';
import type {DurableLog} from '../../../components/session-model.js';

/** OSC 52 is understood by most modern terminals and tmux (set-clipboard on); not by the Linux console. */
function supportsOsc52(env: NodeJS.ProcessEnv): boolean {
	return env.TERM !== 'linux' && env.TERM !== 'dumb' && env.CARDTERM_OSC52 !== '0';
}

/**
Copy `text`, sanitized, in either path: the clipboard never gets a control character but newline and
tab. Returns the status-line message; `later` collects texts to print on exit.
*/
export function copyText(text: string, later: string[], env: NodeJS.ProcessEnv = process.env, write: (output: TerminalOutput) => void = output => void writeOutput(process.stdout, output)): string {
	const shown = sanitizeText(text);
	if (supportsOsc52(env)) {
		write(controlSequence(`\u001B]52;c;${Buffer.from(shown).toString('base64')}\u0007`));
		return `copied ${shown.length} characters (OSC 52)`;
	}

	later.push(shown);
	return 'this terminal has no clipboard escape: the text is printed when the pager closes';
}

/** What `o` did: the status-line message, and whether an editor ran (the pager then redraws its screen). */
export type OpenOutcome = {readonly message: string; readonly ran: boolean};

/**
Open the card's file location in $VISUAL/$EDITOR, waiting for the editor. A path that does not exist
is refused (`file not found: …`) rather than handed to an editor that would open an empty buffer
named after it. The caller takes its raw mode off around this and redraws after it.
*/
export function openInEditor(card: Card, cwd: string, env: NodeJS.ProcessEnv = process.env): OpenOutcome {
	const location = cardLocation(card);
	if (location === undefined) {
		return {message: 'this card has no file location', ran: false};
	}

	const path = isAbsolute(location.path) ? location.path : resolve(cwd, location.path);
	// Named as the cards name it: relative inside the workspace.
	const inside = relative(cwd, path);
	const named = inside !== '' && !inside.startsWith('..') && !isAbsolute(inside) ? inside : path;
	if (!existsSync(path)) {
		return {message: `file not found: ${named}`, ran: false};
	}

	const editor = env.VISUAL ?? env.EDITOR;
	if (editor === undefined || editor === '') {
		return {message: 'set $EDITOR to open files', ran: false};
	}

	const args = location.line === undefined ? [path] : [`+${location.line}`, path];
	const result = spawnSync(editor, args, {stdio: 'inherit', shell: false});
	return result.error === undefined
		? {message: `opened ${named}${location.line === undefined ? '' : ` at line ${location.line}`} in ${basename(editor)}`, ran: true}
		: {message: `cannot start ${editor}: ${result.error.message}`, ran: false};
}

/** The most `-N` suffixes tried for a page beside the log before giving up (an earlier export is never overwritten). */
const MAX_EXPORT_NAMES = 100;

/**
`x` in the pager: the session's page to share, as `cardterm export LOG -o FILE` writes it (redaction
on), beside the log: `<log name>.html`, or `<log name>-2.html`… when that exists. The status line's
message names the file.
*/
export async function exportBesideLog(log: string, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd(), durableBytes?: number): Promise<string> {
	// A log being written is read up to what is durable: lines appended meanwhile are for the next export.
	const source = durableBytes === undefined ? log : createReadStream(resolve(cwd, log), {start: 0, end: Math.max(0, durableBytes - 1)});
	const {page, entries, redactedKinds} = await exportPage(source, {markdown: false, redact: true, width: 100, env, cwd, onDiagnostic: () => undefined});
	const base = resolve(cwd, log).replace(/(?:\.jsonl?)?(?:\.zst)?$/, '');
	for (let index = 1; index <= MAX_EXPORT_NAMES; index++) {
		const path = `${base}${index === 1 ? '' : `-${index}`}.html`;
		try {
			// eslint-disable-next-line no-await-in-loop -- one name after another, until one is free
			await writeFile(path, page, {mode: 0o600, flag: 'wx'});
			return `exported to ${path} (${exportSummary(entries, redactedKinds)})`;
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
				throw error;
			}
		}
	}

	return `export: ${base}.html and ${MAX_EXPORT_NAMES - 1} numbered names beside it exist already`;
}

/**
`x` in a live session's pager (Ctrl+O): the log so far, flushed, exported beside it as a replayed
log's is; absent for a session without a log.
*/
export function liveExport(durableLog: (() => Promise<DurableLog>) | undefined, env: NodeJS.ProcessEnv, cwd: string): (() => Promise<string>) | undefined {
	return durableLog === undefined ? undefined : async () => {
		const {path, bytes} = await durableLog();
		return exportBesideLog(path, env, cwd, bytes);
	};
}
