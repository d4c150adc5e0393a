/**
The code cites the contract by section (`contract.md §T3.5`, `§E3.2`, `§T7 item 5`): every citation
in the sources, tests, benches and docs must name a numbered section of docs/contract.md (and an
item its list has), none may cite the contract notes that lived outside the repository, and the
Markdown docs may link only to files a clone has.
*/
import {existsSync, readdirSync, readFileSync, statSync} from 'node:fs';
import {dirname, join, relative, resolve} from 'node:path';
import {fileURLToPath} from 'node:url';
import {describe, expect, it} from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const contractPath = 'docs/contract.md';
// This file names the old notes in its patterns; it is the only one allowed to.
const self = relative(root, fileURLToPath(import.meta.url));

const scanned = ['src', 'components', 'test', 'bench', 'docs', 'README.md'];
const textFile = /\.(ts|tsx|mts|cts|mjs|cjs|js|md)$/;

/** The text files of a folder (or the file itself), relative to the repository. */
function filesUnder(path: string): string[] {
	if (!statSync(join(root, path)).isDirectory()) {
		return [path];
	}

	return readdirSync(join(root, path), {recursive: true, withFileTypes: true})
		.filter(entry => entry.isFile() && textFile.test(entry.name))
		.map(entry => relative(root, join(entry.parentPath, entry.name)));
}

const files = scanned.flatMap(filesUnder).filter(path => path !== self);

type Section = {readonly number: string; readonly body: string[]};

/** The numbered sections of the contract: `## <a id="t3"></a>T3 …`, `### <a id="t3.5"></a>T3.5 …`. */
function contractSections(): {sections: Map<string, Section>; problems: string[]} {
	const lines = readFileSync(join(root, contractPath), 'utf8').split('\n');
	const sections = new Map<string, Section>();
	const problems: string[] = [];
	let current: Section | undefined;
	let inFence = false;
	lines.forEach((line, index) => {
		if (line.startsWith('```')) {
			inFence = !inFence;
		}

		const heading = inFence ? null : /^(#{2,4}) (.*)$/.exec(line);
		if (heading === null) {
			current?.body.push(line);
			return;
		}

		const numbered = /^<a id="([^"]+)"><\/a>([TE]\d+(?:\.\d+)*) \S/.exec(heading[2]!);
		if (numbered === null) {
			problems.push(`${contractPath}:${index + 1}: a section heading without an anchor and a number: ${line}`);
			current = undefined;
			return;
		}

		const [, id, number] = numbered as unknown as [string, string, string];
		if (id !== number.toLowerCase()) {
			problems.push(`${contractPath}:${index + 1}: anchor "${id}" does not match section ${number}`);
		}

		if (sections.has(number)) {
			problems.push(`${contractPath}:${index + 1}: section ${number} appears twice`);
		}

		const parent = number.includes('.') ? number.slice(0, number.lastIndexOf('.')) : undefined;
		if (parent !== undefined && !sections.has(parent)) {
			problems.push(`${contractPath}:${index + 1}: section ${number} comes before its parent ${parent}`);
		}

		current = {number, body: []};
		sections.set(number, current);
	});
	return {sections, problems};
}

/** `1–4`, `5, 6, 8`, `14` → the numbers they name. */
function itemNumbers(list: string): number[] {
	return list.split(/,\s*|\s+and\s+/).flatMap(part => {
		const [from, to] = part.split(/[–-]/).map(Number) as [number, number | undefined];
		return to === undefined ? [from] : Array.from({length: to - from + 1}, (_, k) => from + k);
	});
}

const citation = /§([TE]\d+(?:\.\d+)*)(?:\s+items?\s+(\d+(?:[–-]\d+)?(?:(?:,\s*|\s+and\s+)\d+(?:[–-]\d+)?)*))?/g;

describe('docs/contract.md', () => {
	it('numbers every section heading once, with an anchor of its own number', () => {
		const {sections, problems} = contractSections();
		expect(problems).toEqual([]);
		// Both parts, with the sections the notes had.
		expect([...sections.keys()].filter(number => !number.includes('.'))).toEqual(['T0', 'T1', 'T2', 'T3', 'T4', 'T5', 'T6', 'T7', 'T8', 'E1', 'E2', 'E3', 'E4', 'E5', 'E6']);
	});

	it('has every section and list item the code, tests, benches and docs cite', () => {
		const {sections} = contractSections();
		const missing: string[] = [];
		let count = 0;
		for (const path of files) {
			readFileSync(join(root, path), 'utf8').split('\n').forEach((line, index) => {
				for (const match of line.matchAll(citation)) {
					count += 1;
					const [, number, items] = match as unknown as [string, string, string | undefined];
					const section = sections.get(number);
					if (section === undefined) {
						missing.push(`${path}:${index + 1}: §${number} is not a section of ${contractPath}`);
						continue;
					}

					const listed = new Set(section.body.flatMap(text => /^(\d+)\. /.exec(text)?.[1] ?? []).map(Number));
					for (const item of items === undefined ? [] : itemNumbers(items)) {
						if (!listed.has(item)) {
							missing.push(`${path}:${index + 1}: §${number} has no item ${item}`);
						}
					}
				}
			});
		}

		expect(missing).toEqual([]);
		// The scan found the citations (about 170 when this test was written), so passing means something.
		expect(count).toBeGreaterThan(100);
	});

	it('is the only contract anything cites: no section without a part letter, no note kept outside the repository', () => {
		const found: string[] = [];
		const outside = /tools-contract|presentation-events|ARCHITECTURE\.md|000_8c8341e55dfc13dc|shared\/docs/;
		for (const path of files) {
			readFileSync(join(root, path), 'utf8').split('\n').forEach((line, index) => {
				if (outside.test(line)) {
					found.push(`${path}:${index + 1}: names a document a clone lacks: ${line.trim()}`);
				}

				// `§3.5` alone cannot say which part it means; an RFC's or ECMA-262's sections are theirs.
				if (/(?<!RFC \d+ |ECMA-262 )§\s*\d/.test(line)) {
					found.push(`${path}:${index + 1}: a section without its part letter (T or E): ${line.trim()}`);
				}
			});
		}

		expect(found).toEqual([]);
	});
});

describe('the Markdown docs', () => {
	const markdown = files.filter(path => path.endsWith('.md'));
	const repoPath = /`((?:src|test|docs|bench|components|examples|snapshots|bin|types)\/[^`\s]*)`/g;

	function exists(path: string): boolean {
		if (!path.includes('*')) {
			return existsSync(join(root, path));
		}

		// A glob names a folder and a pattern of file names in it (`src/layout/markdown-*.ts`).
		const folder = dirname(path);
		const pattern = new RegExp(`^${path.slice(folder.length + 1).replaceAll('.', '\\.').replaceAll('*', '[^/]*')}$`);
		return existsSync(join(root, folder)) && readdirSync(join(root, folder)).some(name => pattern.test(name));
	}

	it('are read by this test', () => {
		expect(markdown).toEqual(expect.arrayContaining(['README.md', 'docs/architecture.md', 'docs/decisions.md', contractPath]));
	});

	it('link only to files in the repository, and to anchors docs/contract.md has', () => {
		const anchors = new Set([...contractSections().sections.keys()].map(number => number.toLowerCase()));
		const broken: string[] = [];
		for (const path of markdown) {
			readFileSync(join(root, path), 'utf8').split('\n').forEach((line, index) => {
				const where = `${path}:${index + 1}`;
				if (line.includes('../shared/')) {
					broken.push(`${where}: names ../shared/, which a clone does not have`);
				}

				for (const [, target] of line.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g) as Iterable<[string, string]>) {
					if (/^[a-z]+:/i.test(target) || target.startsWith('#')) {
						continue;
					}

					const [file, anchor] = target.split('#') as [string, string | undefined];
					const linked = relative(root, resolve(root, dirname(path), file));
					if (linked.startsWith('..') || !existsSync(join(root, linked))) {
						broken.push(`${where}: links to ${target}, which is not in the repository`);
					} else if (anchor !== undefined && linked === contractPath && !anchors.has(anchor)) {
						broken.push(`${where}: links to ${target}, an anchor ${contractPath} does not have`);
					}
				}

				for (const [, named] of line.matchAll(repoPath) as Iterable<[string, string]>) {
					const [file, anchor] = named.split('#') as [string, string | undefined];
					if (!exists(file)) {
						broken.push(`${where}: names ${named}, which is not in the repository`);
					} else if (anchor !== undefined && file === contractPath && !anchors.has(anchor)) {
						broken.push(`${where}: names ${named}, an anchor ${contractPath} does not have`);
					}
				}
			});
		}

		expect(broken).toEqual([]);
	});
});
