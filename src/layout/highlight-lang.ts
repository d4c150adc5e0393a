/**
@module Which highlight.js grammar a file uses. The language is always explicit: a read card's
`lang`, or a diff's path extension mapped by the same rule the read tool uses (presentation-events
§2.3). Nothing is ever auto-detected: detection costs ~50× an explicit grammar and guesses wrong.
*/

/** Read-card `lang` values to highlight.js grammar names. */
const langGrammars: ReadonlyMap<string, string> = new Map([
	['ts', 'typescript'],
	['tsx', 'typescript'],
	['js', 'javascript'],
	['jsx', 'javascript'],
	['json', 'json'],
	['py', 'python'],
	['rb', 'ruby'],
	['go', 'go'],
	['rs', 'rust'],
	['java', 'java'],
	['c', 'c'],
	['cs', 'csharp'],
	['swift', 'swift'],
	['php', 'php'],
	['sh', 'bash'],
	['yaml', 'yaml'],
	['toml', 'ini'],
	['ini', 'ini'],
	['md', 'markdown'],
	['mdx', 'markdown'],
	['html', 'xml'],
	['css', 'css'],
	['scss', 'scss'],
	['less', 'less'],
	['sql', 'sql'],
	['xml', 'xml'],
	['lua', 'lua'],
	['cpp', 'cpp'],
	['kotlin', 'kotlin'],
]);

/** The grammar names themselves are accepted too, for callers that already hold one. */
const grammarNames: ReadonlySet<string> = new Set(langGrammars.values());

/** Extensions that are not themselves `lang` values (the read tool's aliases). */
const extensionAliases: ReadonlyMap<string, string> = new Map([
	['mts', 'ts'],
	['cts', 'ts'],
	['mjs', 'js'],
	['cjs', 'js'],
	['jsonc', 'json'],
	['h', 'c'],
	['cc', 'cpp'],
	['hpp', 'cpp'],
	['cxx', 'cpp'],
	['kt', 'kotlin'],
	['bash', 'sh'],
	['zsh', 'sh'],
	['yml', 'yaml'],
	['markdown', 'md'],
	['htm', 'html'],
]);

/** The highlight.js grammar for a `lang` value, or undefined when it is not one we highlight. */
export function grammarFor(lang: string): string | undefined {
	const key = lang.toLowerCase();
	return langGrammars.get(key) ?? (grammarNames.has(key) ? key : undefined);
}

/**
The `lang` of a path from its last extension, case-insensitive, as the read tool derives it.
Dotfiles, extensionless names, a trailing dot and unknown extensions have none.
*/
export function langFromPath(path: string): string | undefined {
	const name = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
	const dot = name.lastIndexOf('.');
	if (dot <= 0 || dot === name.length - 1) {
		return undefined;
	}

	const extension = name.slice(dot + 1).toLowerCase();
	const alias = extensionAliases.get(extension);
	if (alias !== undefined) {
		return alias;
	}

	return langGrammars.has(extension) ? extension : undefined;
}
