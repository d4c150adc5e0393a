/**
@module `cardterm export LOG [-o FILE] [--md] [--no-redact]`: a session (cardterm's own, or another
agent's session file) as one self-contained HTML page to share, or Markdown to paste into an issue,
built from the rows the terminal shows (layoutEntry → html-page.ts / markdown-page.ts).

Before anything is laid out, every event goes through the session's redactor
(secret-redactor.ts): the values of the person's environment variables that are secrets (the keys
cardterm reads, and any variable whose name says key, token, secret or password) and every text of
a known secret shape (`SECRET_SHAPES`: providers' keys, bearer tokens, private keys, `.env` values)
are replaced by `[REDACTED:KIND]`, and the page lists what was replaced and where. `--no-redact`
says on stderr and on the page that it is off.
*/
import {writeFile} from 'node:fs/promises';
import {stringsOf} from '../../json/strings-of.js';
import {referencePresenters} from '../../acp/reference-presenters.js';
import {sessionSecrets} from '../../host/session-secrets.js';
import {layoutEntry} from '../../layout/entries/layout-entry.js';
import {htmlPage, type PageEntry, type PageHead} from '../../layout/export/html-page.js';
import {markdownPage} from '../../layout/export/markdown-page.js';
import {colorTheme, monochromeTheme} from '../../layout/text/theme.js';
import {emptyOutcomeCounts, outcomeTally, type CardOutcome} from '../../presentation/card-outcome.js';
import type {TranscriptEntry} from '../../presentation/entry.js';
import type {EventDraft} from '../../session/events/event-log.js';
import type {SessionEvent} from '../../session/events/events.js';
import {SecretRedactor, secretsOfShape, type Secret} from '../../session/events/secret-redactor.js';
import {foreignAgentOf} from '../../session/foreign/contract-lines.js';
import {SessionFold} from '../../session/fold/fold.js';
import {formatDiagnostic} from '../../session/reader/log-errors.js';
import {openSessionLog} from '../../session/reader/read-session-log.js';
import type {CliIo} from '../environment/cli-io.js';
import {parseArgs, UsageError} from '../environment/parse-args.js';
import {printHelp} from '../environment/terminal-text.js';
import {opencodeLog} from '../environment/opencode-log.js';

export const EXPORT_HELP = `usage: cardterm export LOG [-o FILE] [--md] [--no-redact] [--width N]

Writes a session (a cardterm log, a Claude Code, Codex, Gemini CLI or pi session file, an opencode
export, or opencode:ID as cardterm sessions --all lists it) as one self-contained HTML page to
share: the cards as the terminal shows them, each collapsible, with their outcome glyphs and
tallies, light or dark as the reader's system is, readable without JavaScript, loading nothing. --md writes Markdown for an issue instead. To FILE with -o, else to
stdout. Rows are laid out --width columns wide (default 100).
Secrets are redacted first: the values of secret environment variables and text of known secret
shapes (provider keys, bearer tokens, private keys, .env values); the page lists what was redacted
and where. --no-redact turns that off, and says so loudly.`;

const flags = [
	{name: 'o', value: true},
	{name: 'output', value: true},
	{name: 'md'},
	{name: 'no-redact'},
	{name: 'width', value: true},
	{name: 'help'},
] as const;

/** Names of environment variables whose values are secrets though cardterm does not read them. */
const SECRET_NAME = /(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIALS?)$/i;

/** Where a redaction was made, for the page's list. */
function placeOf(event: SessionEvent, tools: ReadonlyMap<string, string>): string {
	const data = event.data as {callId?: unknown; message?: {source?: {callId?: unknown}}};
	const callId = typeof data.callId === 'string' ? data.callId : (typeof data.message?.source?.callId === 'string' ? data.message.source.callId : undefined);
	const what = {'user/message': 'a message of the person', 'assistant/message': 'an answer of the model', 'tool/call': 'the arguments of', 'tool/result': 'the result of'}[event.type as string] ?? `a ${event.type} event`;
	return callId === undefined ? `${what} (event ${event.seq})` : `${what} ${tools.get(callId) ?? 'a call'} ${callId}`;
}

/** Redacts events as they are read: the secrets known so far, and those of known shapes each event shows. */
class ExportRedactor {
	readonly #secrets = new Map<string, Secret>();
	#redactor: SecretRedactor;
	readonly #tools = new Map<string, string>();
	/** What was replaced where, in reading order. */
	readonly places = new Map<string, Set<string>>();

	constructor(environment: readonly Secret[]) {
		for (const secret of environment) {
			this.#secrets.set(secret.value, secret);
		}

		this.#redactor = new SecretRedactor([...this.#secrets.values()]);
	}

	redact(event: SessionEvent): SessionEvent {
		if (event.type === 'tool/call') {
			this.#tools.set(event.data.callId, event.data.name);
		}

		const text = JSON.stringify(event.data);
		let grew = false;
		for (const secret of secretsOfShape(stringsOf(event.data).join('\n'))) {
			if (!this.#secrets.has(secret.value)) {
				this.#secrets.set(secret.value, secret);
				grew = true;
			}
		}

		if (grew) {
			this.#redactor = new SecretRedactor([...this.#secrets.values()]);
		}

		const redacted = this.#redactor.redactEvent(event as unknown as EventDraft) as unknown as SessionEvent;
		if (redacted !== event) {
			const after = JSON.stringify(redacted.data);
			for (const match of after.matchAll(/\[REDACTED:([^\]]{1,100})\]/g)) {
				if (!text.includes(match[0])) {
					const kind = match[1]!;
					const places = this.places.get(kind) ?? new Set<string>();
					places.add(placeOf(event, this.#tools));
					this.places.set(kind, places);
				}
			}
		}

		return redacted;
	}

	/** A text outside the events (the header's title), redacted by the same rules. */
	redactText(text: string): string {
		const extra = secretsOfShape(text).filter(secret => !this.#secrets.has(secret.value));
		return new SecretRedactor([...this.#secrets.values(), ...extra]).redactText(text);
	}
}

export async function exportCommand(argv: readonly string[], io: CliIo): Promise<number> {
	const parsed = parseArgs(argv, flags, 'export');
	if (parsed.flags.has('help')) {
		await printHelp(io, EXPORT_HELP);
		return 0;
	}

	const [source, ...extra] = parsed.positionals;
	if (source === undefined || extra.length > 0) {
		throw new UsageError('export: usage: cardterm export LOG [-o FILE] [--md] [--no-redact]');
	}

	const widthFlag = parsed.flags.get('width');
	const width = widthFlag === undefined ? 100 : Number(widthFlag);
	if (!Number.isSafeInteger(width) || width < 20 || width > 1000) {
		throw new UsageError('export: --width must be a whole number from 20 to 1000');
	}

	const outputFlag = parsed.flags.get('o') ?? parsed.flags.get('output');
	const target = typeof outputFlag === 'string' ? outputFlag : undefined;
	const redact = !parsed.flags.has('no-redact');
	if (!redact) {
		await io.printError('cardterm: REDACTION IS OFF (--no-redact): the export may hold keys, tokens and passwords from the session\n');
	}

	const readable = await opencodeLog(source, io);
	const {page, entries, redactedKinds} = await exportPage(readable.source === '-' ? io.stdin : readable.source, {markdown: parsed.flags.has('md'), redact, width, env: io.env, cwd: io.cwd, onDiagnostic: message => void io.printError(`${message}\n`)}).finally(readable.release);
	if (target === undefined) {
		await io.print(page);
	} else {
		await writeFile(target, page, {mode: 0o600});
		await io.printError(`cardterm: wrote ${target} (${exportSummary(entries, redactedKinds)})\n`);
	}

	return 0;
}

/** What an export is made of and how. */
export type ExportOptions = {
	readonly markdown: boolean;
	readonly redact: boolean;
	readonly width: number;
	readonly env: NodeJS.ProcessEnv;
	/** The folder cards' paths are shown from when the log names none. */
	readonly cwd: string;
	/** Each damaged line of the log, as a message. */
	readonly onDiagnostic: (message: string) => void;
};

/** An export: the page, its entries, and how many kinds of secret were redacted (`undefined`: redaction off). */
export type ExportedPage = {readonly page: string; readonly entries: number; readonly redactedKinds: number | undefined};

/** `N entries, K kinds of secret redacted` (or `NOT redacted`; one entry is `1 entry`). */
export function exportSummary(entries: number, redactedKinds: number | undefined): string {
	return `${entries} ${entries === 1 ? 'entry' : 'entries'}${redactedKinds === undefined ? ', NOT redacted' : `, ${redactedKinds} kind${redactedKinds === 1 ? '' : 's'} of secret redacted`}`;
}

/** The page (HTML, or Markdown) of a session log: `cardterm export` and `x` in the pager. */
export async function exportPage(source: Parameters<typeof openSessionLog>[0], exportOptions: ExportOptions): Promise<ExportedPage> {
	const {width, redact, markdown} = exportOptions;
	let damaged = 0;
	const log = await openSessionLog(source, {onDiagnostic(diagnostic) {
		damaged++;
		exportOptions.onDiagnostic(formatDiagnostic(diagnostic));
	}});
	const environment = Object.entries(exportOptions.env).filter(([name, value]) => value !== undefined && SECRET_NAME.test(name)).map(([name, value]) => ({name, value: value!.trim()}));
	const redactor = redact ? new ExportRedactor([...sessionSecrets(exportOptions.env).secrets, ...environment]) : undefined;
	const workspace = log.header.cwd ?? exportOptions.cwd;
	const fold = new SessionFold(referencePresenters(workspace));
	for await (const events of log.eventBatches) {
		for (const event of events) {
			fold.apply(redactor === undefined ? event : redactor.redact(event));
		}
	}

	const entries = fold.entries;
	const options = {width, theme: markdown ? monochromeTheme : colorTheme, now: Date.now(), sessionCwd: workspace, cache: false} as const;
	const counts = emptyOutcomeCounts() as Record<CardOutcome, number>;
	for (const entry of entries) {
		if (entry.entry === 'card') {
			counts[entry.card.outcome]++;
		}
	}

	const agent = foreignAgentOf(log.header) ?? 'cardterm';
	const title = redactor === undefined || log.header.title === undefined ? log.header.title : redactor.redactText(log.header.title);
	const head: PageHead = {
		title: title ?? `${agent} session ${log.header.id}`,
		facts: [
			`agent: ${agent}`,
			`started: ${new Date(log.header.createdAt).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC')}`,
			...(log.header.cwd === undefined ? [] : [`folder: ${log.header.cwd}`]),
			...(damaged === 0 ? [] : [`${damaged} damaged line${damaged === 1 ? '' : 's'} of the log skipped`]),
		],
		tally: `${entries.filter(entry => entry.entry === 'card').length} cards · ${outcomeTally(counts)}`,
		redactions: redactor === undefined ? undefined : [...redactor.places].map(([kind, places]) => `${kind}: ${[...places].slice(0, 20).join('; ')}${places.size > 20 ? `; and ${places.size - 20} more` : ''}`),
	};
	const pageEntries = (function * (): Generator<PageEntry> {
		for (const entry of entries) {
			yield pageEntry(entry, options);
		}
	})();
	const page = markdown ? markdownPage(head, pageEntries) : htmlPage(head, pageEntries);
	return {page, entries: entries.length, redactedKinds: redactor?.places.size};
}

function pageEntry(entry: TranscriptEntry, options: Parameters<typeof layoutEntry>[1]): PageEntry {
	const rows = layoutEntry(entry, options);
	return entry.entry === 'card' ? {kind: 'card', rows, outcome: entry.card.outcome} : {kind: entry.entry, rows};
}
