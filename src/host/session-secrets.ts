/**
@module Which environment variables are a session's secrets, and what follows from it. The secrets
are the keys cardterm reads (every provider's key variable, the web search's key) and the variables
the config names (`env.secrets`). They are withheld from the commands a model or an ACP agent runs
(bash and its background jobs, ACP terminals, `run_code`'s `process.env`) unless the person's own
config passes them (`env.passthrough`; a project's config cannot), and their values are redacted
from every event of the session (`secret-redactor.ts`), passed through or not.

Withholding keeps a key out of what a command prints and sends by accident (`env`, a test that
reports its environment); it is no wall against a command that reads cardterm's own process
(`/proc/PID/environ`), which the redaction still keeps out of the log.
*/
import {PROVIDER_KEY_VARIABLES} from '../agent/model-client.js';
import {searxngKeyVariable} from '../builtin/web/searxng-provider.js';
import type {Secret} from '../session/events/secret-redactor.js';

/** What the config says about secrets (`CardtermConfig.env`). */
export type SecretSettings = {readonly passthrough?: readonly string[]; readonly secrets?: readonly string[]};

export type SessionSecrets = {
	/** The environment of the commands a model or an agent runs: `env` without the withheld secrets. */
	readonly commandEnv: NodeJS.ProcessEnv;
	/** The secrets set in `env`, by variable, for redaction. */
	readonly secrets: readonly Secret[];
};

/** The keys cardterm itself reads. */
export const KNOWN_SECRET_VARIABLES: readonly string[] = [...PROVIDER_KEY_VARIABLES, searxngKeyVariable];

export function sessionSecrets(env: NodeJS.ProcessEnv, settings: SecretSettings = {}): SessionSecrets {
	const names = new Set([...KNOWN_SECRET_VARIABLES, ...(settings.secrets ?? [])]);
	const passed = new Set(settings.passthrough ?? []);
	const commandEnv: NodeJS.ProcessEnv = {};
	const secrets: Secret[] = [];
	for (const [name, value] of Object.entries(env)) {
		if (value === undefined) {
			continue;
		}

		if (!names.has(name)) {
			commandEnv[name] = value;
			continue;
		}

		if (value.trim() !== '') {
			secrets.push({name, value: value.trim()});
		}

		if (passed.has(name)) {
			commandEnv[name] = value;
		}
	}

	return {commandEnv, secrets};
}

/**
The secrets of a session whose calls the person makes (`cardterm call`, `cardterm run`): no model
chooses its commands, so they run in the person's whole environment, as in their own shell; what
they print of a key is still redacted from the log.
*/
export function personSecrets(env: NodeJS.ProcessEnv): SessionSecrets {
	return {commandEnv: env, secrets: sessionSecrets(env).secrets};
}
