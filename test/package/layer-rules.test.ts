/**
The layer table (docs/architecture.md) is enforced by the linter: eslint.config.js generates a
`no-restricted-imports` rule per folder from its one table, and `npm test` runs `eslint .`. These
plant imports in files that do not exist and lint them with ESLint's own API, so a table or pattern
that stopped matching would show here, not only as silence on a clean tree.
*/
import {existsSync, readdirSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {pathToFileURL} from 'node:url';
import {ESLint} from 'eslint';
import tseslint from 'typescript-eslint';
import {describe, expect, it} from 'vitest';

const root = join(import.meta.dirname, '..', '..');
// The config is plain JavaScript (ESLint loads it as is): its table is read as what it is.
const {LAYERS} = await import(pathToFileURL(join(root, 'eslint.config.js')).href) as {LAYERS: Record<string, readonly string[]>};

async function importErrors(file: string, code: string): Promise<string[]> {
	// The planted file is not on disk, so it is linted without type information (no project has it).
	const eslint = new ESLint({cwd: root, overrideConfig: [tseslint.configs.disableTypeChecked]});
	const [result] = await eslint.lintText(code, {filePath: join(root, file)});
	return result!.messages.filter(message => message.ruleId === '@typescript-eslint/no-restricted-imports').map(message => message.message);
}

describe('the layer rules', () => {
	it('refuse an import of a layer below: the session may not draw', async () => {
		expect(await importErrors('src/session/fold/planted.ts', 'import {colorTheme} from \'../../layout/text/theme.js\';\nexport const planted = colorTheme;\n'))
			.toEqual(['\'../../layout/text/theme.js\' import is restricted from being used by a pattern. src/session may not import src/layout: the layer table (docs/architecture.md, eslint.config.js)']);
	});

	it('refuse what sits beside: the agent may not import the ACP client, the config may not import the agent', async () => {
		expect(await importErrors('src/agent/planted.ts', 'export {acpPresenter} from \'../acp/acp-presenter.js\';\n')).toHaveLength(1);
		expect(await importErrors('src/config/deep/planted.ts', 'import {AgentLoop} from \'../../agent/agent-loop.js\';\nexport const planted = AgentLoop;\n')).toHaveLength(1);
	});

	it('refuse the command line and the live core to the screens, and the command line to the live core', async () => {
		expect(await importErrors('components/pager/planted.ts', 'import {main} from \'../../src/cli/main.js\';\nexport const planted = main;\n')).toHaveLength(1);
		expect(await importErrors('components/planted.tsx', 'import {LiveSession} from \'../src/live/live-session.js\';\nexport const planted = LiveSession;\n')).toHaveLength(1);
		expect(await importErrors('src/live/commands/planted.ts', 'import {main} from \'../../cli/main.js\';\nexport const planted = main;\n')).toHaveLength(1);
	});

	it('let the live core take the screen contract\'s types, and nothing else of the screens', async () => {
		expect(await importErrors('src/live/planted.ts', 'import type {LiveSnapshot} from \'../../components/session-model.js\';\nexport type Planted = LiveSnapshot;\n')).toEqual([]);
		expect(await importErrors('src/live/planted.ts', 'import {someValue} from \'../../components/session-model.js\';\nexport const planted = someValue;\n')).toHaveLength(1);
		expect(await importErrors('src/live/planted.ts', 'import {Pager} from \'../../components/Pager.js\';\nexport const planted = Pager;\n')).toHaveLength(1);
	});

	it('keep the model library behind the model client', async () => {
		expect(await importErrors('src/agent/planted.ts', 'import {streamText} from \'ai\';\nexport const planted = streamText;\n'))
			.toEqual(['\'ai\' import is restricted from being used by a pattern. only src/agent/model-client.ts imports the model library']);
		expect(await importErrors('src/agent/model-client.ts', 'import {streamText} from \'ai\';\nexport const planted = streamText;\n')).toEqual([]);
	});

	it('allow what the table allows: the host opens an agent, the command line reaches everything', async () => {
		expect(await importErrors('src/host/planted.ts', 'import {AgentLoop} from \'../agent/agent-loop.js\';\nexport const planted = AgentLoop;\n')).toEqual([]);
		expect(await importErrors('src/cli/commands/planted.ts', 'import {LiveSession} from \'../../live/live-session.js\';\nimport {Pager} from \'../../../components/Pager.js\';\nexport const planted = [LiveSession, Pager];\n')).toEqual([]);
	});

	it('cover every folder of src/ and name only folders that exist, each a row of docs/architecture.md\'s table', () => {
		const folders = readdirSync(join(root, 'src'), {withFileTypes: true}).filter(entry => entry.isDirectory()).map(entry => `src/${entry.name}`);
		expect(folders.filter(folder => !(folder in LAYERS))).toEqual([]);
		expect(Object.keys(LAYERS).filter(folder => !existsSync(join(root, folder)))).toEqual([]);
		const architecture = readFileSync(join(root, 'docs', 'architecture.md'), 'utf8');
		expect(Object.keys(LAYERS).filter(folder => !architecture.includes(`| \`${folder}/\``))).toEqual([]);
	});
});
