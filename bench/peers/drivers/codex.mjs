// Codex (@openai/codex): `model_providers.fake` in ~/.codex/config.toml (Codex 0.17x accepts only
// `wire_api = "responses"` for a custom provider), the work folders trusted, `--no-daemon` so no shared
// server outside the process tree holds memory, and approvals bypassed.
import {mkdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {ensureNpmPeer} from '../install-peer.mjs';

const toml = value => JSON.stringify(value);

export default {
	name: 'codex',
	packageName: '@openai/codex',
	api: 'responses',
	install: ({cache, refresh}) => ensureNpmPeer({cache, folder: 'codex', packageName: '@openai/codex', bin: 'codex', refresh}),
	configure({home, baseUrl, model, workFolders}) {
		mkdirSync(join(home, '.codex'), {recursive: true});
		const lines = [
			`model = ${toml(model)}`,
			'model_provider = "fake"',
			'check_for_update_on_startup = false',
			'',
			'[model_providers.fake]',
			'name = "Fake"',
			`base_url = ${toml(`${baseUrl}/v1`)}`,
			'wire_api = "responses"',
			'env_key = "FAKE_API_KEY"',
		];
		for (const folder of workFolders) {
			lines.push('', `[projects.${toml(folder)}]`, 'trust_level = "trusted"');
		}

		writeFileSync(join(home, '.codex', 'config.toml'), `${lines.join('\n')}\n`);
		return {FAKE_API_KEY: 'bench'};
	},
	launchArgs: () => ['--dangerously-bypass-approvals-and-sandbox', '--no-daemon'],
	resumeArgs: () => ['resume', '--last', '--dangerously-bypass-approvals-and-sandbox', '--no-daemon'],
	ready: /Ask Codex to do anything|fake-model default/,
	quitKeys: [['C-c'], ['C-c']],
};
