/**
@module Which highlight.js grammar a file uses. The language is always explicit: a read card's
`lang`, or a diff's path extension mapped by the read tool's own rule (`langFromPath` in
src/presentation/lang-from-path.ts, contract.md §E2.3). Nothing is ever auto-detected:
detection costs ~50× an explicit grammar and guesses wrong.
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

/** The highlight.js grammar for a `lang` value, or undefined when it is not one we highlight. */
export function grammarFor(lang: string): string | undefined {
	const key = lang.toLowerCase();
	return langGrammars.get(key) ?? (grammarNames.has(key) ? key : undefined);
}
