/**
@module The commands every live session starts from, in the order `/help` lists them (a session
offers those its driver can run: an ACP agent's session has no tools of its own to call). A new
command is a file beside this one and its row here.
*/
import {clearCommand} from './clear.js';
import {compactCommand} from './compact.js';
import {contextCommand} from './context.js';
import {editCommand} from './edit.js';
import {exitCommand} from './exit.js';
import {fetchCommand} from './fetch.js';
import {forkCommand} from './fork.js';
import {globCommand} from './glob.js';
import {grepCommand} from './grep.js';
import {helpCommand} from './help.js';
import {instructionsCommand} from './instructions.js';
import {jobsCommand} from './jobs.js';
import {killCommand} from './kill.js';
import {mcpCommand} from './mcp.js';
import {modeCommand} from './mode.js';
import {modelCommand} from './model.js';
import {pagerCommand} from './pager.js';
import type {PromptCommand} from './prompt-command.js';
import {readCommand} from './read.js';
import {redoCommand} from './redo.js';
import {rewindCommand} from './rewind.js';
import {runCommand} from './run.js';
import {searchCommand} from './search.js';
import {shellCommand} from './shell.js';
import {toolCallCommand} from './tool-call.js';
import {toolsCommand} from './tools.js';
import {undoCommand} from './undo.js';
import {writeCommand} from './write.js';

export const BUILTIN_COMMANDS: readonly PromptCommand[] = [
	shellCommand,
	readCommand,
	grepCommand,
	globCommand,
	fetchCommand,
	searchCommand,
	writeCommand,
	editCommand,
	undoCommand,
	redoCommand,
	rewindCommand,
	forkCommand,
	jobsCommand,
	killCommand,
	runCommand,
	toolCallCommand,
	pagerCommand,
	toolsCommand,
	modelCommand,
	modeCommand,
	contextCommand,
	compactCommand,
	mcpCommand,
	instructionsCommand,
	helpCommand,
	clearCommand,
	exitCommand,
];
