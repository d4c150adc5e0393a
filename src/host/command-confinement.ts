/**
@module Where the machine allows it, the agent's commands run confined in the modes that do not ask
before each command (accept edits, bypass): inside bubblewrap (`bwrap`), the whole file system
read-only but the workspace and the temp directory, the workspace's `.git` and `.cardterm`
read-only again (hooks and the project's config), and no network (`--unshare-net`) unless the
person's own config allows it (`sandbox.network`). Whether bwrap
is there and can make its namespaces is tried once, at the session's start (`bwrap --ro-bind / /
true`); when it cannot, the status line and `/help` say that commands run unconfined, and why.
*/
import {execFile} from 'node:child_process';
import {existsSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';

/** Whether commands can be confined here: the sandbox's program, or why not. */
export type Confinement = {readonly bwrap: string} | {readonly unavailable: string};

/** Try bwrap once (a missing program, a kernel or container that refuses user namespaces: the reason). */
export async function probeConfinement(program = 'bwrap'): Promise<Confinement> {
	return new Promise(resolve => {
		execFile(program, ['--ro-bind', '/', '/', '--unshare-net', 'true'], {timeout: 5000}, (error, _stdout, stderr) => {
			if (error === null) {
				resolve({bwrap: program});
				return;
			}

			const code = (error as NodeJS.ErrnoException).code;
			resolve({unavailable: code === 'ENOENT' ? `${program} is not installed` : (String(stderr).trim().split('\n')[0] ?? '') || error.message});
		});
	});
}

/** The modes that run commands without asking first, where they run confined. */
export function confinedMode(mode: string): boolean {
	return mode === 'edits' || mode === 'bypass';
}

/**
A session's confinement: `confine()` gives the sandbox's arguments in a mode that confines (bwrap
tried on first need, once), `state()` what the status line says (undefined until tried).
*/
export function sessionConfinement(workspace: string, mode: () => string, probe: () => Promise<Confinement> = probeConfinement, options: {readonly network?: boolean} = {}) {
	let tried: Promise<Confinement> | undefined;
	let known: Confinement | undefined;
	const result = async (): Promise<Confinement> => {
		tried ??= probe().then(found => {
			known = found;
			return found;
		});
		return tried;
	};

	return {
		async confine(): Promise<readonly string[] | undefined> {
			if (!confinedMode(mode())) {
				return undefined;
			}

			const found = await result();
			return 'bwrap' in found ? bwrapArguments(found.bwrap, workspace, {network: options.network === true}) : undefined;
		},
		/** Try now (a mode that confines was entered), so the status line can say it before the first command. */
		async probe(): Promise<Confinement> {
			return result();
		},
		/** What the status line says in a mode that confines, once known. */
		state(): string | undefined {
			if (known === undefined || !confinedMode(mode())) {
				return undefined;
			}

			return 'bwrap' in known ? `commands confined (bwrap${options.network === true ? ', network allowed' : ''})` : `commands unconfined (bwrap: ${known.unavailable})`;
		},
	};
}

export type SessionConfinement = ReturnType<typeof sessionConfinement>;

/**
The bwrap arguments that run a command of `workspace` confined; `network`: it may still connect. They
do not depend on where the command starts: bwrap keeps the working directory (every path inside is
the path outside), so one sandbox serves every command of a session (spawner.ts starts its commands
inside one).
*/
export function bwrapArguments(program: string, workspace: string, {network = false}: {readonly network?: boolean} = {}): string[] {
	const args = [program, '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--bind', workspace, workspace];
	const temp = tmpdir();
	args.push('--bind', temp, temp);
	for (const guarded of ['.git', '.cardterm']) {
		const path = join(workspace, guarded);
		if (existsSync(path)) {
			args.push('--ro-bind', path, path);
		}
	}

	if (!network) {
		args.push('--unshare-net');
	}

	args.push('--die-with-parent', '--');
	return args;
}
