import {describe, expect, it} from 'vitest';
import {LruCache} from '../../../src/layout/text/lru-cache.js';

describe('LruCache', () => {
	it('evicts the least recently used entry past its limit; a read or a write makes an entry the most recent', () => {
		const cache = new LruCache<string, number>(3);
		cache.set('a', 1);
		cache.set('b', 2);
		cache.set('c', 3);
		expect(cache.get('a')).toBe(1);
		cache.set('d', 4);
		expect([cache.get('b'), cache.size]).toEqual([undefined, 3]);
		cache.set('c', 30);
		cache.set('e', 5);
		expect([cache.get('a'), cache.get('c'), cache.get('d'), cache.get('e')]).toEqual([undefined, 30, 4, 5]);
		expect(cache.size).toBe(3);
	});

	it('keeps exactly its limit under churn, the newest entries', () => {
		const cache = new LruCache<number, number>(100);
		for (let index = 0; index < 10_000; index++) {
			cache.set(index, index);
			if (index % 3 === 0) {
				cache.get(index - 50);
			}
		}

		expect(cache.size).toBe(100);
		expect(cache.get(9999)).toBe(9999);
		expect(cache.get(9899)).toBeUndefined();
	});

	it('empties on clear and holds at least one entry', () => {
		const cache = new LruCache<string, number>(0);
		cache.set('a', 1);
		cache.set('b', 2);
		expect([cache.get('a'), cache.get('b'), cache.size]).toEqual([undefined, 2, 1]);
		cache.clear();
		expect([cache.get('b'), cache.size]).toEqual([undefined, 0]);
		cache.set('c', 3);
		expect(cache.get('c')).toBe(3);
	});
});

describe('LruCache with a weight bound', () => {
	it('evicts the least recently used while the summed weight passes its limit, always keeping one', () => {
		const cache = new LruCache<string, number>(10, {of: key => key.length, limit: 6});
		cache.set('aaa', 1);
		cache.set('bb', 2);
		expect(cache.size).toBe(2);
		cache.get('aaa');
		cache.set('cc', 3);
		// 3 + 2 + 2 > 6: the least recently used ('bb') goes.
		expect([cache.get('bb'), cache.get('aaa'), cache.get('cc')]).toEqual([undefined, 1, 3]);
		cache.set('zzzzzzzzzz', 4);
		expect(cache.size).toBe(1);
		expect(cache.get('zzzzzzzzzz')).toBe(4);
	});

	it('re-weighs a key set again and forgets every weight on clear', () => {
		const cache = new LruCache<string, string>(10, {of: (_key, value) => value.length, limit: 5});
		cache.set('k', 'xxxx');
		cache.set('k', 'x');
		cache.set('j', 'yyyy');
		expect([cache.get('k'), cache.get('j')]).toEqual(['x', 'yyyy']);
		cache.clear();
		cache.set('a', 'xxxxx');
		expect(cache.get('a')).toBe('xxxxx');
	});
});
