/**
@module The environment the screens' modules (Ink, React) load in. Both read it once, on import:
- React and `react-reconciler` pick their development builds without NODE_ENV=production, which
  record a `performance.measure` entry for every component render and never clear it (a live
  session held 75 000 of them after 300 calls and grew past 250 MB of RSS; bench/lib/live-process.mjs).
- Ink (through is-in-ci) draws no live frame at all when `CI` or `CONTINUOUS_INTEGRATION` is set;
  cardterm opens a screen only on a TTY, where a person is looking, CI or not.
The variables are changed only while the module graph loads and put back after, so the tools' child
processes see the person's environment unchanged.
*/

/** The variables is-in-ci treats as "running in CI". */
const CI_VARIABLES = ['CI', 'CONTINUOUS_INTEGRATION'] as const;

/** Deletes the CI variables from `env`; returns what was there, for `restore`. */
export function hideCiVariables(env: NodeJS.ProcessEnv): Record<string, string | undefined> {
	const saved: Record<string, string | undefined> = {};
	for (const name of CI_VARIABLES) {
		saved[name] = env[name];
		delete env[name];
	}

	return saved;
}

function restore(env: NodeJS.ProcessEnv, saved: Record<string, string | undefined>): void {
	for (const [name, value] of Object.entries(saved)) {
		if (value === undefined) {
			delete env[name];
		} else {
			env[name] = value;
		}
	}
}

/** Runs `load` (a dynamic import of a module that renders with Ink) with React's production builds and Ink's live frames. */
export async function withScreenEnvironment<T>(load: () => Promise<T>): Promise<T> {
	const saved = {...hideCiVariables(process.env), NODE_ENV: process.env.NODE_ENV};
	process.env.NODE_ENV = 'production';
	try {
		return await load();
	} finally {
		restore(process.env, saved);
	}
}
