/**
@module `cardterm demo`: replays the bundled demo session, an agent's conversation with every card kind and state.
*/
import {join} from 'node:path';
import type {CliIo} from '../environment/cli-io.js';
import {packageRoot} from '../environment/package-root.js';
import {replayCommand} from './replay-command.js';

/** The bundled demo log (examples/demo-session.jsonl, next to the package root). */
export const demoLogPath = join(packageRoot(), 'examples', 'demo-session.jsonl');

export async function demoCommand(argv: readonly string[], io: CliIo): Promise<number> {
	if (argv.includes('--help')) {
		await io.print('usage: cardterm demo [replay flags]\n\nReplays the bundled demo session: a conversation with an agent, with every card kind and state\n(see cardterm replay --help).\n');
		return 0;
	}

	return replayCommand([demoLogPath, ...argv], io);
}
