import {describe, expect, test} from 'vitest';
import {SubCallScheduler, type SchedulerTask} from '../../src/code-mode/sub-call-scheduler.js';

type Probe = {task: SchedulerTask; finish(): void};

function probe(name: string, mode: 'parallel' | 'exclusive', log: string[]): Probe {
	let finish!: () => void;
	const done = new Promise<void>(resolve => {
		finish = resolve;
	});
	return {
		task: {
			classify: () => mode,
			async run() {
				log.push(`start ${name}`);
				await done;
				log.push(`end ${name}`);
			},
			abandon() {
				log.push(`abandon ${name}`);
			},
		},
		finish,
	};
}

async function settle(): Promise<void> {
	await new Promise(resolve => setImmediate(resolve));
}

describe('SubCallScheduler', () => {
	test('parallel tasks fill the pool, an exclusive task waits for it to drain and blocks later tasks', async () => {
		const log: string[] = [];
		const scheduler = new SubCallScheduler(2);
		const [a, b, c, x, d] = [probe('a', 'parallel', log), probe('b', 'parallel', log), probe('c', 'parallel', log), probe('x', 'exclusive', log), probe('d', 'parallel', log)];
		for (const item of [a, b, c, x, d]) {
			scheduler.submit(item.task);
		}

		expect(log).toEqual(['start a', 'start b']);
		a.finish();
		await settle();
		expect(log).toEqual(['start a', 'start b', 'end a', 'start c']);
		b.finish();
		c.finish();
		await settle();
		expect(log.slice(4)).toEqual(['end b', 'end c', 'start x']);
		x.finish();
		await settle();
		expect(log.slice(7)).toEqual(['end x', 'start d']);
		d.finish();
		await scheduler.drain();
		expect(log.slice(9)).toEqual(['end d']);
	});

	test('closing abandons queued tasks, keeps in-flight ones, and abandons later submissions at once', async () => {
		const log: string[] = [];
		const scheduler = new SubCallScheduler(1);
		const [a, b] = [probe('a', 'parallel', log), probe('b', 'parallel', log)];
		scheduler.submit(a.task);
		scheduler.submit(b.task);
		scheduler.close();
		scheduler.submit(probe('c', 'parallel', log).task);
		expect(log).toEqual(['start a', 'abandon b', 'abandon c']);
		a.finish();
		await scheduler.drain();
		expect(log).toEqual(['start a', 'abandon b', 'abandon c', 'end a']);
	});

	test('a throwing classifier counts as exclusive', () => {
		const log: string[] = [];
		const scheduler = new SubCallScheduler(4);
		scheduler.submit(probe('a', 'parallel', log).task);
		const odd = probe('odd', 'parallel', log);
		scheduler.submit({...odd.task, classify() {
			throw new Error('classifier broke');
		}});
		expect(log).toEqual(['start a']);
	});
});
