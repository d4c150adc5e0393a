/**
@module The `lang` of a file path (contract.md §E2.3): contract data shared by the read tool,
which writes it into a read card's meta, and the layout, which highlights a diff by its path.
*/

/** Extension → `lang` (contract.md §E2.3): identity for the listed extensions, then the aliases. */
const LANG_BY_EXTENSION: ReadonlyMap<string, string> = new Map([
	...['ts', 'tsx', 'js', 'jsx', 'json', 'py', 'rb', 'go', 'rs', 'java', 'c', 'cs', 'swift', 'php', 'sh', 'yaml', 'toml', 'ini', 'md', 'mdx', 'html', 'css', 'scss', 'less', 'sql', 'xml', 'lua'].map(
		(extension): [string, string] => [extension, extension],
	),
	['mts', 'ts'],
	['cts', 'ts'],
	['mjs', 'js'],
	['cjs', 'js'],
	['jsonc', 'json'],
	['h', 'c'],
	['cc', 'cpp'],
	['cpp', 'cpp'],
	['hpp', 'cpp'],
	['cxx', 'cpp'],
	['kt', 'kotlin'],
	['bash', 'sh'],
	['zsh', 'sh'],
	['yml', 'yaml'],
	['markdown', 'md'],
	['htm', 'html'],
]);

/**
The `lang` of a path from its last extension, case-insensitive. Dotfiles, extensionless names, a
trailing dot and unknown extensions have none. A `Map`, so `x.constructor` is unknown too.
*/
export function langFromPath(filePath: string): string | undefined {
	const base = filePath.slice(Math.max(filePath.lastIndexOf('/'), filePath.lastIndexOf('\\')) + 1);
	const dot = base.lastIndexOf('.');
	if (dot <= 0) {
		return undefined;
	}

	return LANG_BY_EXTENSION.get(base.slice(dot + 1).toLowerCase());
}
