/**
The scrollback under paced frames (use-scrollback.ts with use-paced-snapshot.ts): an entry that left
the live region is written above a frame that no longer shows it, and entries leaving within one
paced frame are written together, after one frame.
*/
import React, {useRef} from 'react';
import {Text, render, useStdout} from 'ink';
import {describe, expect, it} from 'vitest';
import {usePacedSnapshot} from '../../components/hooks/use-paced-snapshot.js';
import {useScrollback} from '../../components/hooks/use-scrollback.js';
import type {LiveSnapshot, ScrollbackEntry, SessionModel} from '../../components/session-model.js';
import {textOutput} from '../../src/layout/terminal/terminal-sink.js';
import {FakeTty} from './harness/fake-terminal.js';

/** A session model reduced to what the two hooks read: a live region of named cards, and the scrollback. */
class CardsModel {
	snapshot = this.#build(['A', 'B', 'C']);
	readonly #listeners = new Set<() => void>();
	#scrollback: ((entry: ScrollbackEntry) => void) | undefined;

	subscribe(listener: () => void): () => void {
		this.#listeners.add(listener);
		return () => this.#listeners.delete(listener);
	}

	getSnapshot(): LiveSnapshot {
		return this.snapshot;
	}

	onScrollback(listener: (entry: ScrollbackEntry) => void): () => void {
		this.#scrollback = listener;
		return () => {
			this.#scrollback = undefined;
		};
	}

	/** The controller's order: the entry goes to the scrollback, then the snapshot without it is published. */
	settle(name: string): void {
		this.#scrollback?.({kind: 'entry', entry: {entry: 'card', card: {name}}} as unknown as ScrollbackEntry);
		this.publish(this.names().filter(other => other !== name));
	}

	/** The person's message: never drawn in the live region, so it waits for no hand-over. */
	submit(text: string): void {
		this.#scrollback?.({kind: 'entry', entry: {entry: 'user', text}} as unknown as ScrollbackEntry);
		this.publish(this.names());
	}

	/** A notice for the scrollback that changes nothing on screen. */
	notice(text: string): void {
		this.#scrollback?.({kind: 'lines', lines: [{spans: [{text}]}]});
	}

	publish(names: readonly string[]): void {
		this.snapshot = this.#build(names);
		for (const listener of this.#listeners) {
			listener();
		}
	}

	names(): string[] {
		return (this.snapshot.runningEntries ?? []).map(entry => (entry as unknown as {name: string}).name);
	}

	#build(names: readonly string[]): LiveSnapshot {
		return {running: [], runningEntries: names.map((name, index) => ({entry: 'card', seq: index, name})), closing: false} as unknown as LiveSnapshot;
	}
}

type Write = {readonly text: string; readonly shownAtWrite: string; readonly handedOver: number};

function Probe({model, onFrame, writes, seen}: {readonly model: CardsModel; readonly onFrame: (listener: () => void) => () => void; readonly writes: Write[]; readonly seen: {handedOver: number}}) {
	const {snapshot, ...progress} = usePacedSnapshot(model as unknown as SessionModel);
	const {write} = useStdout();
	const shown = (snapshot.runningEntries ?? []).map(entry => (entry as unknown as {name: string}).name).join(',');
	const committed = useRef('');
	committed.current = shown;
	seen.handedOver = progress.handedOver();
	useScrollback({
		subscribe: listener => model.onScrollback(listener),
		render: entry => textOutput(entry.kind === 'lines'
			? `${entry.lines.map(line => line.spans.map(span => span.text).join('')).join('\n')}\n`
			: entry.kind === 'entry' && entry.entry.entry === 'user'
				? `> ${(entry.entry as unknown as {text: string}).text}\n`
				: `settled ${(entry as unknown as {entry: {card: {name: string}}}).entry.card.name}\n`),
		write(output) {
			writes.push({text: String(output), shownAtWrite: committed.current, handedOver: progress.handedOver()});
			write(String(output));
		},
		paused: false,
		progress,
		onFrame,
	});
	return <Text>{`live: ${shown}`}</Text>;
}

async function start() {
	const tty = new FakeTty(60, 12);
	const model = new CardsModel();
	const writes: Write[] = [];
	let frames = 0;
	const listeners = new Set<() => void>();
	const onFrame = (listener: () => void): (() => void) => {
		listeners.add(listener);
		return () => listeners.delete(listener);
	};

	const seen = {handedOver: 0};
	const instance = render(<Probe model={model} onFrame={onFrame} writes={writes} seen={seen} />, {
		stdout: tty as unknown as NodeJS.WriteStream,
		patchConsole: false,
		maxFps: 1000,
		onRender() {
			frames++;
			for (const listener of [...listeners]) {
				listener();
			}
		},
	});
	await tty.settle();
	return {tty, model, writes, frames: () => frames, instance, handedOver: () => seen.handedOver};
}

describe('the scrollback under paced frames', () => {
	it('writes cards that settle within one frame together, above the first frame that shows none of them', async () => {
		const {tty, model, writes, frames, instance} = await start();
		try {
			const before = frames();
			// A change drawn at once (nothing was drawn for a frame); the settling right after falls inside its frame.
			model.publish(['A', 'B', 'C', 'D']);
			model.settle('A');
			model.settle('B');
			model.settle('C');
			await Promise.resolve();
			// Nothing yet: the frame on screen still shows the three cards.
			expect(writes).toEqual([]);
			await tty.settle();
			expect(writes).toEqual([{text: 'settled A\nsettled B\nsettled C\n', shownAtWrite: 'D', handedOver: expect.any(Number) as unknown as number}]);
			// The frame of the first change, then one paced frame for the three (not one or two each).
			expect(frames() - before).toBe(2);
			const text = tty.text();
			expect(text.indexOf('settled A')).toBeLessThan(text.indexOf('settled C'));
			expect(text.split('\n').filter(row => row.startsWith('live:'))).toEqual(['live: D']);
		} finally {
			instance.unmount();
		}
	});

	it('writes a notice that changes nothing on screen without waiting for a change', async () => {
		const {tty, model, writes, instance} = await start();
		try {
			model.notice('just a notice');
			await tty.settle();
			expect(writes).toEqual([{text: 'just a notice\n', shownAtWrite: 'A,B,C', handedOver: expect.any(Number) as unknown as number}]);
			expect(tty.text()).toContain('just a notice');
		} finally {
			instance.unmount();
		}
	});

	it('writes the person\'s message at the next frame, not after the paced hand-over of what changed with it', async () => {
		const {tty, model, writes, instance, handedOver} = await start();
		try {
			model.publish(['A', 'B']);
			// Inside that frame: the change sent with the message waits for the paced frame; the message does not.
			model.submit('go on');
			await tty.settle();
			expect(writes.map(write => write.text)).toEqual(['> go on\n']);
			const handedOverAfterPublish = writes[0]!.handedOver;
			// The paced hand-over came after the write (it delivered the submit's snapshot).
			expect(handedOverAfterPublish).toBeLessThan(handedOver());
			const text = tty.text();
			expect(text.indexOf('> go on')).toBeLessThan(text.indexOf('live:'));
		} finally {
			instance.unmount();
		}
	});
});
