/**
@module The screens' modules (Ink, React) load React's production builds. Without NODE_ENV, `react`
and `react-reconciler` pick their development builds, which record a `performance.measure` entry
for every component render in Node's performance timeline and never clear it: a live session held
75 000 of them after 300 calls and grew past 250 MB of RSS (bench/lib/live-process.mjs). NODE_ENV
is set only while the module graph loads (React reads it once, when first loaded) and put back
after, so the tools' child processes see the person's environment unchanged.
*/

/** Runs `load` (a dynamic import of a module that renders with Ink) with React's production builds. */
export async function withProductionReact<T>(load: () => Promise<T>): Promise<T> {
	const before = process.env.NODE_ENV;
	process.env.NODE_ENV = 'production';
	try {
		return await load();
	} finally {
		if (before === undefined) {
			delete process.env.NODE_ENV;
		} else {
			process.env.NODE_ENV = before;
		}
	}
}
