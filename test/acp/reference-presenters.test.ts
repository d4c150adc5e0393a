import {expect, it} from 'vitest';
import {acpPresenter} from '../../src/acp/acp-presenter.js';
import {referencePresenters} from '../../src/acp/reference-presenters.js';

it('the replay\'s presenters: the reference tools, run_code, ACP calls; none for a tool nobody presents', () => {
	const presenters = referencePresenters('/work/space');
	expect(presenters('acp_execute')).toBe(acpPresenter);
	expect(presenters('acp_other')).toBe(acpPresenter);
	expect(presenters('run_code')?.presentCall).toBeTypeOf('function');
	expect(presenters('no_such_tool')).toBeUndefined();
	expect(presenters('read')?.presentCall?.({file_path: 'src/a.ts'})).toMatchObject({title: 'Read src/a.ts', kind: 'read'});
	for (const name of ['bash', 'edit', 'write', 'grep', 'glob', 'web_fetch', 'web_search', 'todo_write']) {
		expect(presenters(name)?.presentCall, name).toBeTypeOf('function');
	}
});
