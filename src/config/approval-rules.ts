/**
@module Approval rules: which calls ask before they run. A rule names tools and, optionally, a
directory their path must be inside or outside of, e.g. "ask before bash" or "ask before write/edit
outside src/"; `everyTime` makes every such call ask, whatever was allowed before. The rules come
from every config file (`load-config.ts`) and, in an agent session, from cardterm itself:
  {"approval": {"ask": [{"tool": "bash"}, {"tool": ["write", "edit"], "outside": "src/"}]}}

A rule judges the path the tool will really touch: every symlink resolved, as the tools resolve it
(a link inside `src/` to a folder outside is outside). A Code Mode sub-call is judged as a call.
What a question covers is the reasons of every rule that matched: an answer "for this session"
covers later calls asked for the same reasons, never a call another rule asks about.
*/
import {isAbsolute, relative, resolve} from 'node:path';
import type {PreExecuteListener} from '../tools/registry-hooks.js';
import type {AskRule} from './config-schema.js';

export type {AskRule} from './config-schema.js';

/** Why the rules ask about a call. */
export type RuleQuestion = {
	/** The reasons of every rule that matched, in rule order: what the dialog says and what a session grant covers. */
	readonly reason: string;
	/** A matching rule asks every time: no answer "for this session" covers it. */
	readonly everyTime: boolean;
};

/** Where the rules judge paths: the workspace, and how a path resolves on disk. */
export type RuleContext = {
	readonly cwd: string;
	/** The path with every symlink resolved, also when its tail does not exist yet (the tools' own resolution). */
	readonly realPath: (path: string) => Promise<string>;
};

export type ApprovalPolicyOptions = RuleContext & {
	/** Told of each question just before the policy asks it (the session's approvals: its grants and its dialog). */
	readonly asking?: (callId: string, question: RuleQuestion) => void;
};

/** The path argument a rule looks at, for the reference tools. */
export function pathArgument(args: unknown): string | undefined {
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

/** A rule's resolved path, or why it could not be resolved (the call then asks). */
type Resolved = {readonly real: string; readonly shown: string} | {readonly problem: string};

async function resolvePath(target: string, context: RuleContext): Promise<Resolved> {
	const lexical = resolve(context.cwd, target);
	try {
		const [real, workspace] = await Promise.all([context.realPath(lexical), realFolder('.', context)]);
		// Said only when a link leads elsewhere (a workspace under a linked folder is no news).
		const where = relative(workspace, real);
		const inWorkspace = !where.startsWith('..') && !isAbsolute(where);
		const moved = inWorkspace ? where !== relative(context.cwd, lexical) : real !== lexical;
		return {real, shown: moved ? ` (${target} resolves to ${inWorkspace ? where || '.' : real})` : ''};
	} catch (error) {
		return {problem: `${target} cannot be resolved: ${error instanceof Error ? error.message : String(error)}`};
	}
}

/** A rule's folder as the paths it is compared with: resolved on disk (it may be a link too), else as written. */
async function realFolder(directory: string, context: RuleContext): Promise<string> {
	const lexical = resolve(context.cwd, directory);
	return context.realPath(lexical).catch(() => lexical);
}

/** The question the rules ask about this call, or undefined when none matches. */
export async function ruleQuestion(rules: readonly AskRule[], name: string, args: unknown, context: RuleContext): Promise<RuleQuestion | undefined> {
	const reasons: string[] = [];
	let everyTime = false;
	// The call's path, resolved once when the first rule with a folder needs it.
	let path: Promise<Resolved> | undefined;
	for (const rule of rules) {
		const names = typeof rule.tool === 'string' ? [rule.tool] : rule.tool;
		if (!names.includes(name)) {
			continue;
		}

		const folders = rule.outside !== undefined || rule.inside !== undefined;
		if (folders) {
			path ??= resolvePath(pathArgument(args) ?? '.', context);
		}

		// eslint-disable-next-line no-await-in-loop -- rules are judged in order; paths resolve once
		const reason = await ruleReason(rule, name, folders ? path : undefined, context);
		if (reason !== undefined && !reasons.includes(reason)) {
			reasons.push(reason);
			everyTime ||= rule.everyTime === true;
		}
	}

	return reasons.length === 0 ? undefined : {reason: reasons.join('; '), everyTime};
}

/** Why `rule` asks about a call of `name` whose path is `path` (absent: the rule names no folder), or undefined. */
async function ruleReason(rule: AskRule, name: string, path: Promise<Resolved> | undefined, context: RuleContext): Promise<string | undefined> {
	const who = `${rule.by ?? 'the config'} asks${rule.everyTime === true ? ' every time' : ''}`;
	if (path === undefined) {
		return `${who} before ${name}`;
	}

	const resolved = await path;
	if ('problem' in resolved) {
		return `${who} before ${name} where a path cannot be resolved: ${resolved.problem}`;
	}

	const {real, shown} = resolved;
	if (rule.outside !== undefined && !isInside(real, await realFolder(rule.outside, context))) {
		return `${who} before ${name} outside ${rule.outside}${shown}`;
	}

	if (rule.inside !== undefined && isInside(real, await realFolder(rule.inside, context))) {
		return `${who} before ${name} inside ${rule.inside}${shown}`;
	}

	return undefined;
}

/**
A `tools/pre-execute` listener that answers *ask* where a rule matches — for a Code Mode sub-call as
for a call — after telling `asking` what the question is (the session's approvals answer it from a
grant given before, or ask the person). `rules` is read at every call: rules added later count, and
a function gives the rules of the moment (a session's mode changes which apply).
*/
export function approvalPolicy(rules: readonly AskRule[] | (() => readonly AskRule[]), options: ApprovalPolicyOptions): PreExecuteListener {
	return async (exec, next) => {
		const question = await ruleQuestion(typeof rules === 'function' ? rules() : rules, exec.name, exec.arguments, options);
		if (question === undefined) {
			return next();
		}

		options.asking?.(exec.callId, question);
		return {kind: 'ask', reason: question.reason};
	};
}
