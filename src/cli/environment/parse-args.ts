/**
@module A small strict argument parser: every command declares its flags; an unknown flag or a
missing value is a usage error that names it (exit 2).
*/
import {pushAll} from '../../layout/text/push-all.js';

/** A flag a command accepts. `value: true` flags take the next argument (or `--flag=value`). */
/** `value: 'optional'`: the flag takes the next argument as its value unless that is a flag (`--resume` alone, or `--resume ID`). */
export type FlagSpec = {readonly name: string; readonly value?: boolean | 'optional'; readonly repeat?: boolean};

export type ParsedArgs = {
	readonly positionals: readonly string[];
	readonly flags: ReadonlyMap<string, string | true>;
	readonly repeated: ReadonlyMap<string, readonly string[]>;
};

/** Thrown for bad command-line usage; the CLI prints its message and exits 2. */
export class UsageError extends Error {
	override readonly name = 'UsageError';
}

export function parseArgs(argv: readonly string[], specs: readonly FlagSpec[], command: string): ParsedArgs {
	const byName = new Map(specs.map(spec => [spec.name, spec]));
	const positionals: string[] = [];
	const flags = new Map<string, string | true>();
	const repeated = new Map<string, string[]>();
	for (let index = 0; index < argv.length; index++) {
		const arg = argv[index]!;
		if (arg === '--') {
			pushAll(positionals, argv.slice(index + 1));
			break;
		}

		if (!arg.startsWith('-') || arg === '-') {
			positionals.push(arg);
			continue;
		}

		const [rawName, inlineValue] = splitOnce(arg.replace(/^--?/, ''), '=');
		const spec = byName.get(rawName);
		if (spec === undefined) {
			// The top level's own messages carry no command name: `cardterm: unknown flag …`, not `cardterm cardterm: …`.
			throw new UsageError(command === 'cardterm' ? `unknown flag ${arg.split('=')[0]} (see cardterm --help)` : `${command}: unknown flag ${arg.split('=')[0]} (see cardterm ${command} --help)`);
		}

		let value: string | true = true;
		if (spec.value === 'optional') {
			const next = argv[index + 1];
			if (inlineValue !== undefined) {
				value = inlineValue;
			} else if (next !== undefined && !next.startsWith('-')) {
				value = next;
				index += 1;
			}
		} else if (spec.value) {
			const next = inlineValue ?? argv[++index];
			if (next === undefined) {
				throw new UsageError(`${command}: flag --${spec.name} needs a value`);
			}

			value = next;
		} else if (inlineValue !== undefined) {
			throw new UsageError(`${command}: flag --${spec.name} takes no value`);
		}

		if (spec.repeat && typeof value === 'string') {
			repeated.set(spec.name, [...(repeated.get(spec.name) ?? []), value]);
		}

		flags.set(spec.name, value);
	}

	return {positionals, flags, repeated};
}

/** A flag's value as a positive integer, or a usage error naming it. */
/** A flag's value, or `undefined` when it is absent or given without one. */
export function stringFlag(parsed: ParsedArgs, name: string): string | undefined {
	const value = parsed.flags.get(name);
	return typeof value === 'string' ? value : undefined;
}

export function positiveInt(parsed: ParsedArgs, name: string, command: string): number | undefined {
	const value = parsed.flags.get(name);
	if (value === undefined) {
		return undefined;
	}

	const number = Number(value);
	if (typeof value !== 'string' || !Number.isSafeInteger(number) || number < 1) {
		throw new UsageError(`${command}: --${name} must be a positive integer, got ${String(value)}`);
	}

	return number;
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
	const at = text.indexOf(separator);
	return at === -1 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}
