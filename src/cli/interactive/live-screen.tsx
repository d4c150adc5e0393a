/**
@module The one screen of a live session, native or ACP: InteractiveApp over the session, at the
terminal's colour depth and motion (screen-style.ts), with the Ctrl+O pager's `y` (copy), `o`
(open in $EDITOR) and `x` (export the log so far), until the session ends; texts a terminal without OSC 52 could not take are
printed after it. Loaded under withScreenEnvironment once the session is open (and a continued
session's history is in the scrollback), so neither waits for Ink and React to load.
*/
import {render} from 'ink';
import {InteractiveApp} from '../../../components/InteractiveApp.js';
import {ColorDepthContext} from '../../../components/color-depth-context.js';
import {LIVE_MAX_FPS} from '../../../components/frame-pacing.js';
import type {SessionModel} from '../../../components/session-model.js';
import type {CliIo} from '../environment/cli-io.js';
import {copyText, liveExport, openInEditor} from '../pager/pager-actions.js';
import type {ScreenStyle} from './screen-style.js';
import {memoryFirstHeap} from '../environment/memory-first-heap.js';

/** Draws the screen over `model` until it exits, then closes the session. Ink's first frame is drawn before this returns its promise. */
export async function runLiveScreen(model: SessionModel, {theme, color, depth, hyperlinks, motion, attention}: ScreenStyle, io: CliIo): Promise<void> {
	// A live session, native or ACP, lives long and allocates much: its heap favours memory.
	memoryFirstHeap();
	const frameListeners = new Set<() => void>();
	const onFrame = (listener: () => void): (() => void) => {
		frameListeners.add(listener);
		return () => frameListeners.delete(listener);
	};

	// The Ctrl+O pager's `y` and `o`, as in replay: texts a terminal without OSC 52 cannot take are printed on exit.
	const copies: string[] = [];
	// `x`: the log so far, beside it (redaction on), as in replay.
	const onExport = liveExport(model.durableLog, io.env, io.cwd);
	const instance = render(
		<ColorDepthContext.Provider value={depth}>
			<InteractiveApp
				model={model}
				theme={theme}
				color={color}
				hyperlinks={hyperlinks}
				motion={motion}
				{...(attention === undefined ? {} : {attention})}
				onFrame={onFrame}
				onCopy={text => copyText(text, copies, io.env)}
				onOpen={card => openInEditor(card, io.cwd, io.env)}
				{...(onExport === undefined ? {} : {onExport})}
			/>
		</ColorDepthContext.Provider>,
		{
			exitOnCtrlC: false,
			patchConsole: false,
			// A short throttle: the app paces what streams itself, and draws a first token at once.
			maxFps: LIVE_MAX_FPS,
			onRender() {
				for (const listener of [...frameListeners]) {
					listener();
				}
			},
		},
	);
	await instance.waitUntilExit();
	await model.close();
	for (const text of copies) {
		// eslint-disable-next-line no-await-in-loop -- lines print in order
		await io.print(`${text}\n`);
	}
}
