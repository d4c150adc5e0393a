/**
@module What the interactive prompt understands. A line becomes a tool call, a session command, or
a usage message; parsing is pure so every form is unit-tested.
*/

/** A tool call the prompt asks for. */
export type ToolRequest = {readonly kind: 'tool'; readonly name: string; readonly args: unknown; readonly rawArgs?: string};

/** A parsed prompt line. */
export type PromptCommand =
	| ToolRequest
	| {readonly kind: 'write'; readonly path: string}
	| {readonly kind: 'edit'; readonly path: string}
	| {readonly kind: 'run'; readonly path: string}
	| {readonly kind: 'help'; readonly topic?: string}
	| {readonly kind: 'tools'}
	| {readonly kind: 'clear'}
	/** Plain text: a message for the model when one is connected. */
	| {readonly kind: 'text'; readonly text: string}
	| {readonly kind: 'exit'}
	| {readonly kind: 'pager'}
	| {readonly kind: 'empty'}
	| {readonly kind: 'usage'; readonly message: string};

/** One help entry per command, in the order `/help` lists them. */
export const PROMPT_HELP: ReadonlyArray<readonly [string, string]> = [
	['!<command>', 'run a shell command (bash)'],
	['/read PATH [OFFSET [LIMIT]]', 'read a file window'],
	['/grep PATTERN [PATH] [--include GLOB]', 'search file contents'],
	['/glob PATTERN [PATH]', 'find files by name'],
	['/fetch URL', 'fetch a web page as Markdown'],
	['/search QUERY', 'web search (needs CARDTERM_SEARXNG_URL)'],
	['/write PATH', 'write a file from the lines you type (end with ".")'],
	['/edit PATH', 'replace text in a file (old text, then new text)'],
	['/jobs', 'list background jobs'],
	['/kill ID', 'kill a background job'],
	['/run SCRIPT.mjs', 'run a Code Mode script (tools.<name>(args))'],
	['TOOL {json}', 'call any registered tool with JSON arguments'],
	['/pager', 'open the pager on this session (also Ctrl+O)'],
	['/tools', 'the tools, with their parameters'],
	['/model [PROVIDER:MODEL]', 'the model; or connect one, or switch to another, for the next message'],
	['/help [TOOL]', 'this list, or a tool\'s description and parameters'],
	['/clear', 'clear the screen (the log keeps everything; also Ctrl+L)'],
	['/exit', 'flush the log and quit (also Ctrl+D)'],
];

/** The commands Tab completes (besides tool names and paths). */
export const PROMPT_COMMANDS: readonly string[] = ['/read', '/grep', '/glob', '/fetch', '/search', '/write', '/edit', '/jobs', '/kill', '/run', '/pager', '/tools', '/model', '/help', '/clear', '/exit'];

/** Parse one prompt line. `toolNames` are the registered tools (for `TOOL {json}`). */
export function parsePromptLine(line: string, toolNames: ReadonlySet<string>): PromptCommand {
	const text = line.trim();
	if (text === '') {
		return {kind: 'empty'};
	}

	if (text.startsWith('!')) {
		const command = line.slice(line.indexOf('!') + 1).trim();
		return command === '' ? {kind: 'usage', message: 'usage: !<command>'} : {kind: 'tool', name: 'bash', args: {command, description: command}};
	}

	if (text.startsWith('/')) {
		return parseSlash(text);
	}

	const match = /^([A-Za-z_$][\w$.-]*)(?:\s+([\s\S]*))?$/.exec(text);
	if (match === null || !toolNames.has(match[1]!)) {
		return {kind: 'text', text};
	}

	const rawArgs = (match[2] ?? '').trim();
	if (rawArgs === '') {
		return {kind: 'tool', name: match[1]!, args: {}};
	}

	try {
		return {kind: 'tool', name: match[1]!, args: JSON.parse(rawArgs) as unknown, rawArgs};
	} catch (error) {
		return {kind: 'usage', message: `${match[1]}: arguments are not JSON: ${(error as Error).message}`};
	}
}

function parseSlash(text: string): PromptCommand {
	const [command = '', ...words] = splitWords(text);
	const rest = text.slice(command.length).trim();
	switch (command) {
		case '/read': {
			const [path, offset, limit] = words;
			if (path === undefined || words.length > 3) {
				return {kind: 'usage', message: 'usage: /read PATH [OFFSET [LIMIT]]'};
			}

			const args: Record<string, unknown> = {file_path: path};
			for (const [name, value] of [['offset', offset], ['limit', limit]] as const) {
				if (value !== undefined) {
					const number = Number(value);
					if (!Number.isSafeInteger(number) || number < 1) {
						return {kind: 'usage', message: `/read: ${name} must be a positive integer, got ${value}`};
					}

					args[name] = number;
				}
			}

			return {kind: 'tool', name: 'read', args};
		}

		case '/grep': {
			const includeAt = words.indexOf('--include');
			const include = includeAt === -1 ? undefined : words[includeAt + 1];
			const plain = includeAt === -1 ? words : [...words.slice(0, includeAt), ...words.slice(includeAt + 2)];
			if (plain.length === 0 || plain.length > 2 || (includeAt !== -1 && include === undefined)) {
				return {kind: 'usage', message: 'usage: /grep PATTERN [PATH] [--include GLOB]'};
			}

			return {kind: 'tool', name: 'grep', args: {pattern: plain[0], ...(plain[1] === undefined ? {} : {path: plain[1]}), ...(include === undefined ? {} : {include})}};
		}

		case '/glob': {
			if (words.length === 0 || words.length > 2) {
				return {kind: 'usage', message: 'usage: /glob PATTERN [PATH]'};
			}

			return {kind: 'tool', name: 'glob', args: {pattern: words[0], ...(words[1] === undefined ? {} : {path: words[1]})}};
		}

		case '/fetch': {
			return words.length === 1 ? {kind: 'tool', name: 'web_fetch', args: {url: words[0]}} : {kind: 'usage', message: 'usage: /fetch URL'};
		}

		case '/search': {
			return rest === '' ? {kind: 'usage', message: 'usage: /search QUERY'} : {kind: 'tool', name: 'web_search', args: {queries: [rest]}};
		}

		case '/write':
		case '/edit': {
			if (words.length !== 1) {
				return {kind: 'usage', message: `usage: ${command} PATH`};
			}

			return {kind: command === '/write' ? 'write' : 'edit', path: words[0]!};
		}

		case '/jobs': {
			return words.length === 0 ? {kind: 'tool', name: 'job_list', args: {}} : {kind: 'usage', message: 'usage: /jobs'};
		}

		case '/kill': {
			return words.length === 1 ? {kind: 'tool', name: 'job_kill', args: {job_id: words[0]}} : {kind: 'usage', message: 'usage: /kill ID'};
		}

		case '/run': {
			return words.length === 1 ? {kind: 'run', path: words[0]!} : {kind: 'usage', message: 'usage: /run SCRIPT.mjs'};
		}

		case '/':
		case '/help': {
			if (words.length > 1) {
				return {kind: 'usage', message: 'usage: /help [TOOL]'};
			}

			return words[0] === undefined ? {kind: 'help'} : {kind: 'help', topic: words[0]};
		}

		case '/tools': {
			return words.length === 0 ? {kind: 'tools'} : {kind: 'usage', message: 'usage: /tools (then /help TOOL)'};
		}

		case '/clear': {
			return words.length === 0 ? {kind: 'clear'} : {kind: 'usage', message: 'usage: /clear'};
		}

		case '/exit':
		case '/quit': {
			return {kind: 'exit'};
		}

		case '/pager': {
			return {kind: 'pager'};
		}

		default: {
			return {kind: 'usage', message: `unknown command: ${truncate(command)} (type /help)`};
		}
	}
}

/** Split on whitespace, honouring "double" and 'single' quotes so paths and patterns may hold spaces. */
export function splitWords(text: string): string[] {
	const words: string[] = [];
	const pattern = /"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g;
	for (const match of text.matchAll(pattern)) {
		words.push(match[1] === undefined ? (match[2] ?? match[3]!) : match[1].replaceAll(/\\(.)/g, '$1'));
	}

	return words;
}

/** The message for plain text while no model is connected: what the user may have meant, and what text does. */
export function plainTextMessage(text: string): string {
	const first = text.split(/\s/, 1)[0] ?? text;
	return `unknown command: ${truncate(first)} — did you mean !${truncate(text)}?\nplain text goes to the model; no model connected: see /model`;
}

function truncate(text: string): string {
	return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}
/**
The model's prompt for `line`, or undefined when the line is a command: `/…`, `!…`, or a tool
name followed by nothing or by JSON (`read {"file_path":"a"}`). "read the README" is a prompt.
*/
export function modelPrompt(line: string, toolNames: ReadonlySet<string>): string | undefined {
	const text = line.trim();
	if (text === '' || text.startsWith('/') || text.startsWith('!')) {
		return undefined;
	}

	const match = /^([A-Za-z_$][\w$.-]*)(?:\s+([\s\S]*))?$/.exec(text);
	if (match !== null && toolNames.has(match[1]!)) {
		const rest = (match[2] ?? '').trim();
		if (rest === '' || rest.startsWith('{')) {
			return undefined;
		}
	}

	return line;
}
