/**
@module A configuration the person must fix: a file that cannot be read, is not JSON, or holds a
known key of the wrong kind. Its message names the file (and the key and what was expected); the
command line prints it as one `cardterm: …` message and exits 2, as for a wrong flag.
*/
export class ConfigError extends Error {
	override readonly name = 'ConfigError';
	/** The command line's exit code for it: a usage error. */
	readonly exitCode = 2;
}
