/**
@module The pager rendered by Ink into a FakeTty, over any card source, with a frozen clock.
*/
import {asEntries} from '../../../src/presentation/entry.js';
import {render} from 'ink';
import {arrayEntrySource, type EntrySource} from '../../../src/transcript/entry-source.js';
import {Pager} from '../../../components/Pager.js';
import {colorTheme} from '../../../src/layout/text/theme.js';
import type {Card} from '../../../src/presentation/card.js';
import type {ChildSessionLinks} from '../../../src/transcript/child-session-links.js';
import type {CardUndo} from '../../../src/host/session-undo.js';
import {FakeStdin, FakeTty} from './fake-terminal.js';
import {FROZEN_NOW} from './interactive-screen.js';

export type PagerScreen = {
	readonly tty: FakeTty;
	readonly stdin: FakeStdin;
	press(bytes: string): Promise<void>;
	close(): Promise<void>;
};

/** Render the pager at `columns`×`rows` on `source`. */
export async function startPager(source: EntrySource, options: {columns?: number; rows?: number; follow?: boolean; title?: string; sessionCwd?: string; onExit?: () => void; onCopy?: (text: string) => string; onOpen?: (card: Card) => {readonly message: string; readonly ran: boolean}; onExport?: () => Promise<string>; childSessions?: ChildSessionLinks; cardUndo?: CardUndo} = {}): Promise<PagerScreen> {
	const tty = new FakeTty(options.columns ?? 80, options.rows ?? 24);
	const stdin = new FakeStdin();
	const instance = render(
		<Pager
			source={source}
			theme={colorTheme}
			title={options.title ?? 'screen test'}
			now={() => FROZEN_NOW}
			follow={options.follow === true}
			{...(options.sessionCwd === undefined ? {} : {sessionCwd: options.sessionCwd})}
			{...(options.onCopy === undefined ? {} : {onCopy: options.onCopy})}
			{...(options.onOpen === undefined ? {} : {onOpen: options.onOpen})}
			{...(options.onExport === undefined ? {} : {onExport: options.onExport})}
			{...(options.childSessions === undefined ? {} : {childSessions: options.childSessions})}
			{...(options.cardUndo === undefined ? {} : {cardUndo: options.cardUndo})}
			onExit={() => {
				options.onExit?.();
				instance.unmount();
			}}
		/>,
		{
			stdout: tty as unknown as NodeJS.WriteStream,
			stdin: stdin as unknown as NodeJS.ReadStream,
			stderr: tty as unknown as NodeJS.WriteStream,
			exitOnCtrlC: false,
			patchConsole: false,
		},
	);
	await tty.settle();
	return {
		tty,
		stdin,
		async press(bytes) {
			stdin.send(bytes);
			await tty.settle();
		},
		async close() {
			instance.unmount();
			await instance.waitUntilExit().catch(() => undefined);
		},
	};
}

/** A source that grows while the test appends cards (a log another process is writing). */
export function growingSource(initial: readonly Card[]): EntrySource & {append(card: Card): void} {
	const cards = [...initial];
	const listeners = new Set<() => void>();
	return {
		count: () => cards.length,
		entry: index => (cards[index] === undefined ? undefined : {entry: 'card', card: cards[index]}),
		complete: () => false,
		// Counted afresh on each call: a test source, small; real sources keep their counts as they grow.
		counts: () => arrayEntrySource(asEntries(cards)).counts!(),
		subscribe(listener) {
			listeners.add(listener);
			return () => listeners.delete(listener);
		},
		append(card) {
			cards.push(card);
			for (const listener of listeners) {
				listener();
			}
		},
	};
}
