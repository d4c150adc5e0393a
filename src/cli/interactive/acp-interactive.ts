/**
@module The interactive front end of `cardterm acp`: the live session core over an ACP agent's
session (`acpDriver`), drawn by the same screen as the native session (`live-screen.tsx`).
*/
import {logOutcomeMessage, logOutcomeOf} from '../../host/log-outcome.js';
import {openAcpSession, type AcpSessionOptions} from '../../host/open-acp-session.js';
import {loadUserCommands} from '../../host/user-commands.js';
import {acpLiveSession} from '../../live/acp-driver.js';
import {BUILTIN_COMMANDS} from '../../live/commands/builtin-commands.js';
import {withUserCommands} from '../../live/commands/user-command.js';
import type {CliIo} from '../environment/cli-io.js';
import {shadowPath} from '../environment/session-paths.js';
import {runLiveScreen} from './live-screen.js';
import {screenStyle, type ScreenSettings} from './screen-style.js';
import {UsageError} from '../environment/parse-args.js';
import {whenAborted, withTerminationSignals} from '../environment/termination-signals.js';

export async function acpInteractive(options: AcpSessionOptions & {readonly colorFlag?: boolean; readonly screen?: ScreenSettings}, io: CliIo): Promise<number> {
	if (!io.isTTY || process.stdin.isTTY !== true) {
		throw new UsageError('acp: the interactive session needs a terminal; use -p PROMPT instead');
	}

	return withTerminationSignals(async signal => {
		const acp = await openAcpSession(options);
		const {session, client} = acp;
		const {commands, notes} = await loadUserCommands(options.cwd, io.env);
		for (const note of notes) {
			// eslint-disable-next-line no-await-in-loop -- in order, before the screen
			await io.printError(`cardterm: ${note}\n`);
		}

		const model = acpLiveSession(acp, options.cwd, {...(options.root === undefined ? {} : {shadowDir: shadowPath(options.root, options.cwd)}), ...(commands.length === 0 ? {} : {commands: withUserCommands(BUILTIN_COMMANDS, commands)})});
		// A termination signal from outside closes the session as Ctrl+D does.
		whenAborted(signal, () => {
			void model.close();
		});
		await runLiveScreen(model, screenStyle(options.colorFlag, io, options.screen), io);
		await io.printError(`${logOutcomeMessage(logOutcomeOf(session, 'no session folder'))} · agent session ${client.facts.sessionId}\n`);
		return 0;
	}, {terminal: true});
}
