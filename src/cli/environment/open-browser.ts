/**
@module Open a URL in the person's browser: the program `$BROWSER` names (the convention Python's
`webbrowser` and xdg-utils read), else the platform's opener (`open`, `xdg-open`, `start`). It never
waits for the browser and never fails: the caller prints the URL too, for a machine without one.
*/
import {spawn} from 'node:child_process';

export function openBrowser(url: string, env: NodeJS.ProcessEnv): void {
	const browser = env.BROWSER?.split(':')[0]?.trim();
	const [command, args] = browser !== undefined && browser !== ''
		? [browser, [url]]
		: (process.platform === 'darwin' ? ['open', [url]] : (process.platform === 'win32' ? ['cmd', ['/c', 'start', '""', url]] : ['xdg-open', [url]]));
	try {
		const child = spawn(command, args, {stdio: 'ignore', detached: true, env});
		child.on('error', () => {
			// No opener here: the printed URL is the way.
		});
		child.unref();
	} catch {
		// As above.
	}
}
