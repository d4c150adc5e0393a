/**
@module The full-screen pager on a saved log (`cardterm replay LOG` on a terminal, `cardterm demo`)
or on a log another process is writing (`cardterm watch LOG`).
*/
import React from 'react';
import {render} from 'ink';
import {ENTER_ALTERNATE_SCREEN, LEAVE_ALTERNATE_SCREEN} from '../../components/InteractiveApp.js';
import {Pager} from '../../components/Pager.js';
import {colorTheme, monochromeTheme} from '../layout/theme.js';
import type {SessionEvent, SessionHeader} from '../session/events.js';
import {SessionFold} from '../session/fold.js';
import {followSessionLog} from '../session/follow-session-log.js';
import {isRegularLogFile} from '../session/log-source.js';
import {openSessionLog} from '../session/read-session-log.js';
import {FoldedCardSource} from './folded-card-source.js';
import {openIndexedCardSource, type IndexedCardSource} from './indexed-card-source.js';
import {writeOutput, writeText} from '../layout/terminal-sink.js';
import {copyText, openInEditor} from './pager-actions.js';
import {referencePresenters} from './replay-command.js';
import {colorEnabled} from './terminal-env.js';

export type PagerCommandOptions = {
	readonly colorFlag: boolean | undefined;
	/** Keep reading as the file grows (watch mode). */
	readonly follow?: boolean;
	readonly title?: string;
};

export async function openPagerOnLog(source: string, options: PagerCommandOptions): Promise<number> {
	const controller = new AbortController();
	let header: SessionHeader | undefined;
	let events: AsyncIterable<SessionEvent> | undefined;
	// A saved file opens on a lazy card index (newest cards first); stdin, FIFOs and watch mode fold the stream.
	let indexed: IndexedCardSource | undefined;
	let bad = 0;
	const onDiagnostic = (): void => {
		bad++;
	};

	if (options.follow) {
		const stream = followSessionLog(source, {signal: controller.signal, onDiagnostic, onHeader(value) {
			header = value;
		}});
		// The header arrives with the first read; start the stream so it is known before presenters are chosen.
		const first = await stream.next();
		events = (async function * () {
			if (!first.done) {
				yield first.value;
			}

			yield * stream;
		})();
	} else if (source !== '-' && await isRegularLogFile(source)) {
		indexed = await openIndexedCardSource(source, {presenters: found => referencePresenters(found.cwd ?? process.cwd()), onDiagnostic});
		header = indexed.header;
	} else {
		// Before the pager takes the screen: a FIFO without a writer says so while it waits.
		const log = await openSessionLog(source, {signal: controller.signal, onDiagnostic, onWaiting(message) {
			void writeText(process.stderr, `cardterm: ${message}\n`);
		}});
		header = log.header;
		events = log.events;
	}

	const cards: IndexedCardSource | FoldedCardSource = indexed ?? new FoldedCardSource(new SessionFold(referencePresenters(header?.cwd ?? process.cwd())));
	const consuming = cards instanceof FoldedCardSource && events !== undefined ? cards.consume(events) : Promise.resolve();
	const color = colorEnabled(options.colorFlag, process.env, true);
	const copies: string[] = [];
	const title = options.title ?? (typeof header?.title === 'string' ? header.title : (header?.id ?? source));
	// The pager takes the alternate screen, as `less` does: quitting gives the terminal back as it was.
	await writeOutput(process.stdout, ENTER_ALTERNATE_SCREEN);
	const instance = render(
		<Pager
			source={cards}
			theme={color ? colorTheme : monochromeTheme}
			title={`${title}${options.follow ? ' · following' : ''}`}
			follow={options.follow === true}
			onExit={() => {
				instance.unmount();
			}}
			onCopy={text => copyText(text, copies)}
			onOpen={card => openInEditor(card, header?.cwd ?? process.cwd())}
		/>,
		{exitOnCtrlC: false, patchConsole: false},
	);
	try {
		await instance.waitUntilExit();
	} finally {
		await writeOutput(process.stdout, LEAVE_ALTERNATE_SCREEN);
	}

	controller.abort();
	indexed?.close();
	await consuming.catch(() => undefined);
	for (const text of copies) {
		await writeText(process.stdout, `${text}\n`);
	}

	if (cards.error !== undefined) {
		await writeText(process.stderr, `cardterm: ${cards.error.message}\n`);
		return 65;
	}

	if (bad > 0) {
		await writeText(process.stderr, `cardterm: ${bad} damaged line${bad === 1 ? '' : 's'} skipped\n`);
	}

	return 0;
}
