/**
@module Approval rules: which calls ask before they run. A rule names tools and, optionally, a
directory their path must be inside or outside of, e.g. "ask before bash" or "ask before write/edit
outside src/". Answers "allow for this session" exempt the tool afterwards. The rules come from every
config file (`load-config.ts`) and, in an agent session, from cardterm itself:
  {"approval": {"ask": [{"tool": "bash"}, {"tool": ["write", "edit"], "outside": "src/"}]}}
*/
import {isAbsolute, relative, resolve} from 'node:path';
import type {PreExecuteListener} from '../tools/registry-hooks.js';
import type {AskRule} from './config-schema.js';

export type {AskRule} from './config-schema.js';

/** The path argument a rule looks at, for the reference tools. */
function pathArgument(args: unknown): string | undefined {
	if (typeof args !== 'object' || args === null) {
		return undefined;
	}

	const record = args as Record<string, unknown>;
	const value = record.file_path ?? record.path ?? record.workdir;
	return typeof value === 'string' ? value : undefined;
}

function isInside(path: string, directory: string): boolean {
	const rel = relative(directory, path);
	return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** The reason a rule asks about this call, or undefined. */
export function askReason(rules: readonly AskRule[], name: string, args: unknown, cwd: string): string | undefined {
	for (const rule of rules) {
		const names = typeof rule.tool === 'string' ? [rule.tool] : rule.tool;
		if (!names.includes(name)) {
			continue;
		}

		if (rule.outside === undefined && rule.inside === undefined) {
			return `${rule.by ?? 'the config'} asks before ${name}`;
		}

		const target = pathArgument(args);
		const path = resolve(cwd, target ?? '.');
		if (rule.outside !== undefined && !isInside(path, resolve(cwd, rule.outside))) {
			return `the config asks before ${name} outside ${rule.outside}`;
		}

		if (rule.inside !== undefined && isInside(path, resolve(cwd, rule.inside))) {
			return `the config asks before ${name} inside ${rule.inside}`;
		}
	}

	return undefined;
}

/** A `tools/pre-execute` listener that answers *ask* where a rule matches and the tool is not allowed for the session. */
export function approvalPolicy(rules: readonly AskRule[], cwd: string, sessionAllowed: () => ReadonlySet<string>): PreExecuteListener {
	return async (exec, next) => {
		if (exec.parent === undefined && !sessionAllowed().has(exec.name)) {
			const reason = askReason(rules, exec.name, exec.arguments, cwd);
			if (reason !== undefined) {
				return {kind: 'ask', reason};
			}
		}

		return next();
	};
}
