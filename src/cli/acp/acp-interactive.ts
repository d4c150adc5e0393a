/**
@module The interactive front end of `cardterm acp`: the live screen of the interactive session
(`InteractiveApp`) over the live session core with the ACP driver.
*/
import React from 'react';
import {render} from 'ink';
import {InteractiveApp} from '../../../components/InteractiveApp.js';
import {LIVE_MAX_FPS} from '../../../components/frame-pacing.js';
import {colorTheme, monochromeTheme} from '../../layout/theme.js';
import type {CliIo} from '../cli-io.js';
import {logOutcomeMessage} from '../../host/log-outcome.js';
import {UsageError} from '../parse-args.js';
import {whenAborted, withTerminationSignals} from '../termination-signals.js';
import {colorEnabled, hyperlinksEnabled} from '../terminal-env.js';
import {acpLiveSession} from '../../live/acp-driver.js';
import {openAcpSession, type AcpSession, type AcpSessionOptions} from '../../host/open-acp-session.js';

export async function acpInteractive(options: AcpSessionOptions, io: CliIo): Promise<number> {
	if (!io.isTTY || process.stdin.isTTY !== true) {
		throw new UsageError('acp: the interactive session needs a terminal; use -p PROMPT instead');
	}

	return withTerminationSignals(async signal => {
		const acp: AcpSession = await openAcpSession(options);
		const {session, client} = acp;
		const model = acpLiveSession(acp, options.cwd);
		// A termination signal from outside closes the session as Ctrl+D does.
		whenAborted(signal, () => {
			void model.close();
		});
		const color = colorEnabled(undefined, io.env, io.isTTY);
		const instance = render(React.createElement(InteractiveApp, {model, theme: color ? colorTheme : monochromeTheme, color, hyperlinks: hyperlinksEnabled(color, io.env, io.isTTY)}), {exitOnCtrlC: false, patchConsole: false, maxFps: LIVE_MAX_FPS});
		await instance.waitUntilExit();
		await model.close();
		const state = session.logState();
		await io.printError(`${logOutcomeMessage(state === undefined ? {kind: 'not-saved', reason: 'no session folder'} : state.unwritten > 0 ? {kind: 'incomplete', path: state.path, unwritten: state.unwritten} : {kind: 'saved', path: state.path, events: state.written})} · agent session ${client.facts.sessionId}\n`);
		return 0;
	}, {terminal: true});
}
