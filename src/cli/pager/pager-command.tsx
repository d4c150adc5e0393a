/**
@module The full-screen pager on a saved log (`cardterm replay LOG` on a terminal, `cardterm demo`)
or on a log another process is writing (`cardterm watch LOG`).
*/
import {render} from 'ink';
import {ENTER_ALTERNATE_SCREEN, LEAVE_ALTERNATE_SCREEN} from '../../../components/InteractiveApp.js';
import {Pager} from '../../../components/Pager.js';
import {writeOutput, writeText} from '../../layout/terminal/terminal-sink.js';
import {copyText, exportBesideLog, openInEditor} from './pager-actions.js';
import {outputColors} from '../print/output-options.js';
import {ColorDepthContext} from '../../../components/color-depth-context.js';
import {openPagerSource} from './pager-source.js';

export type PagerCommandOptions = {
	readonly colorFlag: boolean | undefined;
	/** Keep reading as the file grows (watch mode). */
	readonly follow?: boolean;
	readonly title?: string;
};

export async function openPagerOnLog(source: string, options: PagerCommandOptions): Promise<number> {
	const controller = new AbortController();
	const {cards, header, consuming, close, childSessions} = await openPagerSource(source, {follow: options.follow === true, signal: controller.signal});
	const {depth, theme} = outputColors(options.colorFlag, {env: process.env, isTTY: true});
	const copies: string[] = [];
	const found = header();
	const title = options.title ?? (typeof found?.title === 'string' ? found.title : (found?.id ?? source));
	// The pager takes the alternate screen, as `less` does: quitting gives the terminal back as it was.
	await writeOutput(process.stdout, ENTER_ALTERNATE_SCREEN);
	const instance = render(
		<ColorDepthContext.Provider value={depth}>
		<Pager
			source={cards}
			theme={theme}
			title={title}
			// Paths in cards are shown relative to the session's workspace, as `replay --print` shows them.
			sessionCwd={found?.cwd ?? process.cwd()}
			follow={options.follow === true}
			onExit={() => {
				instance.unmount();
			}}
			onCopy={text => copyText(text, copies)}
			onOpen={card => openInEditor(card, header()?.cwd ?? process.cwd())}
			// A log read from stdin has no file to export from or to write beside.
			{...(source === '-' ? {} : {onExport: async () => exportBesideLog(source)})}
			{...(childSessions === undefined ? {} : {childSessions})}
		/>
		</ColorDepthContext.Provider>,
		{exitOnCtrlC: false, patchConsole: false},
	);
	try {
		await instance.waitUntilExit();
	} finally {
		await writeOutput(process.stdout, LEAVE_ALTERNATE_SCREEN);
	}

	controller.abort();
	close();
	await consuming.catch(() => undefined);
	for (const text of copies) {
		// eslint-disable-next-line no-await-in-loop -- lines print in order
		await writeText(process.stdout, `${text}\n`);
	}

	if (cards.error !== undefined) {
		await writeText(process.stderr, `cardterm: ${cards.error.message}\n`);
		return 65;
	}

	const {total, kept} = cards.damage();
	if (total > 0) {
		await writeText(process.stderr, `cardterm: ${total} damaged line${total === 1 ? '' : 's'} skipped in ${kept[0]?.file ?? source} (! in the pager lists them)\n`);
	}

	return 0;
}
