// cardterm's agent mode ("11 · A model-driven agent session"): `--model NAME --base-url URL` with
// OPENAI_API_KEY set, `--yolo` to approve, `--continue` to resume. A build whose `--help` does not know
// `--model` has no agent mode: its row is "not available in this build", never a stand-in.
import {execFileSync} from 'node:child_process';
import {existsSync, readFileSync} from 'node:fs';
import {join} from 'node:path';

/** The cardterm checkout to measure: CARDTERM_PEERS_BUILD, else this worktree. */
export const cardtermRoot = () => process.env.CARDTERM_PEERS_BUILD ?? join(import.meta.dirname, '..', '..', '..');

/**
Whether `bin` has the agent mode: its `--help` names `--model`, or the interactive session's own help
does (`cardterm --model NAME --help`, where a build without the flag fails with "unknown flag").
*/
function knowsModel(bin) {
	const help = args => {
		try {
			return execFileSync(process.execPath, [bin, ...args], {encoding: 'utf8', env: {...process.env, NO_COLOR: '1'}, stdio: ['ignore', 'pipe', 'pipe']});
		} catch {
			return '';
		}
	};

	return help(['--help']).includes('--model') || help(['--model', 'probe', '--help']).includes('--model');
}

export default {
	name: 'cardterm',
	api: 'chat',
	install() {
		const root = cardtermRoot();
		const bin = join(root, 'bin', 'cardterm');
		if (!existsSync(join(root, 'dist', 'src', 'cli', 'main.js'))) {
			throw new Error(`not built: ${root}/dist is missing (run npm run build there)`);
		}

		if (!knowsModel(bin)) {
			throw new Error(`not available in this build (${root}: cardterm --help does not know --model)`);
		}

		const {version} = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
		let commit = '';
		try {
			commit = execFileSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], {encoding: 'utf8'}).trim();
		} catch {
			// Not a git checkout: the version alone names it.
		}

		// CARDTERM_PEERS_CPU_PROF=FOLDER profiles every cardterm process of the run (Node refuses --cpu-prof in NODE_OPTIONS).
		const profile = process.env.CARDTERM_PEERS_CPU_PROF === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${process.env.CARDTERM_PEERS_CPU_PROF}`];
		return {command: [process.execPath, ...profile, bin], version: commit === '' ? version : `${version} (${commit}, ${root})`};
	},
	configure: () => ({OPENAI_API_KEY: 'bench'}),
	// The scripted session is one turn of up to 2 000 calls: no step limit may end it early (peers have none).
	launchArgs: ({model, baseUrl}) => ['--model', model, '--base-url', `${baseUrl}/v1`, '--yolo', '--max-steps', '100000'],
	resumeArgs: ({model, baseUrl}) => ['--model', model, '--base-url', `${baseUrl}/v1`, '--yolo', '--max-steps', '100000', '--continue'],
	// The prompt line.
	ready: /^\s*>\s/m,
	quitKeys: [['C-d'], ['C-c', 'C-c']],
};
